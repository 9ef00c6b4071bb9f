package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadContentAndFind: browser_get_content returns the page's rendered
// text and HTML, and browser_find the snapshot lines that match, with refs.
func TestReadContentAndFind(t *testing.T) {
	f := newFixture(t)
	env, _ := serverEnv(t)
	c := startClient(t, env)
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})

	out := mustCall(t, c, "browser_get_content", nil)
	mustContain(t, "page text", out, "Create your account", "I accept the terms")
	if strings.Contains(out, "This text is hidden") || strings.Contains(out, "<h1>") {
		t.Errorf("the rendered text shows hidden text or markup:\n%s", out)
	}
	out = mustCall(t, c, "browser_get_content", map[string]any{"format": "html"})
	mustContain(t, "page HTML", out, "```html", "<h1>Create your account</h1>", `<p class="hidden">This text is hidden.</p>`)
	out = mustCall(t, c, "browser_get_content", map[string]any{"target": "nav", "format": "html"})
	mustContain(t, "element HTML", out, `<nav><a href="/">Home</a></nav>`)
	if strings.Contains(out, "<main>") {
		t.Errorf("the element's HTML has more than the element:\n%s", out)
	}
	mustFail(t, c, "browser_get_content", map[string]any{"target": "#nope"}, "element_not_found")

	snap := mustCall(t, c, "browser_snapshot", nil)
	button := refOf(t, snap, "button", "Sign up")
	out = mustCall(t, c, "browser_find", map[string]any{"text": "sign UP"})
	mustContain(t, "find", out, `- button "Sign up" [ref=`+button+`]`)
	out = mustCall(t, c, "browser_find", map[string]any{"regex": `accept the \w+`})
	mustContain(t, "find regex", out, `- checkbox "I accept the terms" [ref=`)
	out = mustCall(t, c, "browser_find", map[string]any{"text": "no such words"})
	mustContain(t, "find nothing", out, `Nothing on the page matches "no such words".`)
	mustFail(t, c, "browser_find", nil, "invalid_input")
	mustFail(t, c, "browser_find", map[string]any{"regex": "("}, "invalid_input")
}

// TestPDFSave: the page saved as PDF is a PDF file; a path outside the
// working directory is refused.
func TestPDFSave(t *testing.T) {
	f := newFixture(t)
	env, tmp := serverEnv(t)
	c := startClient(t, append(env, "E2E_MCP_CAPS=pdf"))
	mustCall(t, c, "browser_navigate", map[string]any{"url": f.URL + "/signup.html"})

	res := call(t, c, "browser_pdf_save", nil)
	if res.IsError {
		t.Fatalf("pdf_save: %s", text(res))
	}
	sc, _ := res.StructuredContent.(map[string]any)
	path, _ := sc["path"].(string)
	if path == "" || !strings.HasPrefix(path, tmp) {
		t.Fatalf("pdf_save wrote %q, want a file in the server's temp dir %s:\n%s", path, tmp, text(res))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "%PDF-") {
		t.Errorf("%s does not start with %%PDF-: %q", path, b[:min(len(b), 16)])
	}
	mustContain(t, "pdf_save", text(res), "Saved the page as PDF: "+path)

	out := mustFail(t, c, "browser_pdf_save", map[string]any{"path": filepath.Join(tmp, "out.pdf")}, "not_allowed")
	mustContain(t, "refused path", out, "outside the directories files may be saved in")
}
