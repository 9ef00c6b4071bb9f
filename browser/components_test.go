//go:build !unit

package browser

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestWebComponents: every input tool works on controls inside open shadow
// roots whose labels are page text slotted in, two levels deep (the markup
// of Shoelace, Lit and Stencil components; testdata/corpus/components.html).
func TestWebComponents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := openPage(t, "/corpus/components")
	s := snapshot(t, p, SnapshotOptions{})
	ref := func(role, name string) string { t.Helper(); return refFor(t, s, role, name) }
	status := func() string {
		t.Helper()
		out, err := p.Evaluate(ctx, `() => document.getElementById('out').textContent`, "")
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	for _, c := range []struct{ target, want string }{
		{ref("button", "Save draft"), `"clicked Save draft"`},
		{ref("button", "Publish now"), `"clicked Publish now"`},           // the label is an element slotted in
		{ref("button", "Pay invoice"), `"clicked Pay invoice"`},           // inside another component's slot
		{ref("button", "Forwarded action"), `"clicked Forwarded action"`}, // a component in a shadow root, its label through two slots
		{`role=button[name="Save draft"]`, `"clicked Save draft"`},
		{`text=Publish`, `"clicked Publish now"`},
		{`x-button#pay`, `"clicked Pay invoice"`},
	} {
		if err := p.Click(ctx, c.target, ClickOptions{}); err != nil {
			t.Errorf("click %s: %v", c.target, err)
			continue
		}
		if got := status(); got != c.want {
			t.Errorf("click %s: status %s, want %s", c.target, got, c.want)
		}
	}
	wantKind(t, p.Click(ctx, ref("button", "Archive"), ClickOptions{}), KindNotActionable, "disabled")

	if err := p.Hover(ctx, ref("button", "Pay invoice")); err != nil {
		t.Errorf("hover: %v", err)
	}
	if err := p.Type(ctx, ref("textbox", "Email address"), "ada@example.com", TypeOptions{}); err != nil {
		t.Errorf("type: %v", err)
	} else if got := status(); got != `"typed ada@example.com"` {
		t.Errorf("type: status %s", got)
	}
	if err := p.Type(ctx, "label=Email address", "grace@example.com", TypeOptions{}); err != nil {
		t.Errorf("type by label: %v", err)
	}
	if _, err := p.SetChecked(ctx, ref("checkbox", "Accept the terms"), true); err != nil {
		t.Errorf("check: %v", err)
	} else if got := status(); got != `"checked true"` {
		t.Errorf("check: status %s", got)
	}
	if _, err := p.SetChecked(ctx, `role=checkbox[name="Accept the terms"]`, false); err != nil {
		t.Errorf("uncheck by role: %v", err)
	} else if got := status(); got != `"checked false"` {
		t.Errorf("uncheck: status %s", got)
	}
	if _, err := p.SelectOption(ctx, ref("combobox", "Size"), []string{"Large"}); err != nil {
		t.Errorf("select: %v", err)
	} else if got := status(); got != `"selected Large"` {
		t.Errorf("select: status %s", got)
	}
	if _, err := p.SetSlider(ctx, ref("slider", "Volume"), 7); err != nil {
		t.Errorf("slider: %v", err)
	} else if got := status(); got != `"volume 7"` {
		t.Errorf("slider: status %s", got)
	}
	file := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(file, []byte("png"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := p.UploadFiles(ctx, ref("button", "Avatar"), []string{file}); err != nil {
		t.Errorf("upload: %v", err)
	} else if got := status(); got != `"file me.png"` {
		t.Errorf("upload: status %s", got)
	}
	if _, err := p.Drag(ctx, "text=Write tests", `role=list[name="Done"]`); err != nil {
		t.Errorf("drag: %v", err)
	} else if got := status(); got != `"dropped Write tests"` {
		t.Errorf("drag: status %s", got)
	}
	// A key on the focused button inside a shadow root.
	if err := p.Click(ctx, ref("button", "Pay invoice"), ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(ctx, `() => { document.getElementById('out').textContent = ''; }`, ""); err != nil {
		t.Fatal(err)
	}
	if err := p.PressKey(ctx, "Enter"); err != nil {
		t.Errorf("press Enter: %v", err)
	} else if got := status(); got != `"clicked Pay invoice"` {
		t.Errorf("press Enter on the focused button: status %s", got)
	}
}
