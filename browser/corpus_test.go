//go:build !unit

package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The fixture corpus: realistic pages under testdata/corpus, served at
// /corpus/NAME. Their snapshots are pinned by golden files, and Chrome's own
// accessibility tree checks the engine's roles and names on them.

var corpusNames []string

func init() { corpusNames = servePages(filepath.Join("testdata", "corpus"), "/corpus/") }

// servePages registers every NAME.html of dir as the test server's page
// prefix+NAME and returns the names.
func servePages(dir, prefix string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		panic(err)
	}
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".html")
		names = append(names, name)
		pages[prefix+name] = string(b)
	}
	return names
}

// TestCorpusGolden compares the full snapshot of every corpus page with
// testdata/golden/NAME.yaml; UPDATE_GOLDEN=true rewrites the files. Each page
// is opened fresh, so its refs start at e1.
func TestCorpusGolden(t *testing.T) {
	t.Parallel()
	if len(corpusNames) == 0 {
		t.Fatal("no corpus pages in testdata/corpus")
	}
	update := os.Getenv("UPDATE_GOLDEN") == "true"
	for _, name := range corpusNames {
		t.Run(name, func(t *testing.T) {
			p := openPage(t, "/corpus/"+name)
			got := snapshot(t, p, SnapshotOptions{}).YAML + "\n"
			file := filepath.Join("testdata", "golden", name+".yaml")
			if update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with UPDATE_GOLDEN=true to create it)", err)
			}
			if got != string(want) {
				t.Errorf("snapshot of %s differs from %s (UPDATE_GOLDEN=true rewrites it):\n%s", name, file, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows where two texts start to differ: a few lines of each from
// the first line that differs.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	window := func(ls []string) string {
		end := min(i+8, len(ls))
		if i >= end {
			return "    (nothing)"
		}
		return "    " + strings.Join(ls[i:end], "\n    ")
	}
	return fmt.Sprintf("from line %d, want:\n%s\ngot:\n%s", i+1, window(wl), window(gl))
}

// chromeRoleToARIA maps the role names Chrome's accessibility tree reports
// to the ARIA role names the engine uses, where the two differ only in
// spelling. Chrome-internal roles that have no ARIA role are in
// chromeInternalRoles and are not compared.
var chromeRoleToARIA = map[string]string{
	"image":                 "img",        // ARIA 1.3 synonym, Chrome's preferred spelling
	"DescriptionList":       "list",       // <dl>: html-aam maps it to list
	"DescriptionListTerm":   "term",       // <dt>
	"DescriptionListDetail": "definition", // <dd>
	"DisclosureTriangle":    "button",     // <summary>: Chrome's own role; it acts as a button
	"MenuListPopup":         "listbox",    // the popup list of a <select>
	"MenuListOption":        "option",     // an <option> of a <select>
	"Iframe":                "iframe",
	"MathMLMath":            "math", // <math>
}

// chromeInternalRoles are Chrome roles with no ARIA counterpart (text runs,
// layout helpers, containers ARIA calls generic): not compared.
var chromeInternalRoles = map[string]bool{
	"StaticText": true, "InlineTextBox": true, "RootWebArea": true, "LineBreak": true, "ListMarker": true,
	"none": true, "presentation": true, "generic": true, "LabelText": true, "Legend": true, "Abbr": true,
	"Pre": true, "Ruby": true, "RubyAnnotation": true, "Section": true, "Figcaption": true, "Unknown": true,
	"WebArea": true, "Video": true, "Audio": true,
	// Chrome's layout-table heuristic (a table without headers or caption).
	"LayoutTable": true, "LayoutTableRow": true, "LayoutTableCell": true,
	// Inputs ARIA has no role for (html-aam: "no corresponding role").
	"Date": true, "DateTime": true, "InputTime": true, "ColorWell": true,
	// MathML token elements inside <math>.
	"MathMLIdentifier": true, "MathMLOperator": true, "MathMLNumber": true, "MathMLRow": true, "MathMLText": true,
}

// oracleRow is one element Chrome gives a meaningful role, with Chrome's and
// the engine's view of it.
type oracleRow struct {
	Page, Element          string
	OurRole, OurName       string
	ChromeRole, ChromeName string
	// RoleOnly: Chrome did not compute a name, so only the role is compared.
	RoleOnly bool
}

func (r oracleRow) agrees() bool {
	return r.OurRole == r.ChromeRole && (r.RoleOnly || r.OurName == r.ChromeName)
}

// key identifies a difference in oracle-differences.md: the first six
// cells of its table row, a | inside a cell written \|.
func (r oracleRow) key() string {
	cells := []string{r.Page, r.Element, r.OurRole, quoteName(r.OurName), r.ChromeRole, quoteName(r.ChromeName)}
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return strings.Join(cells, " | ")
}

func quoteName(s string) string { return fmt.Sprintf("%q", s) }

// normName collapses runs of white space, Unicode's included (a no-break
// space is a space in a name, for accname and for the engine).
func normName(s string) string { return strings.Join(strings.Fields(s), " ") }

// describeFn runs on an element in the engine's world: the engine's role
// and name, and a short description of the element (tag, id, role, type).
const describeFn = `function() {
	const root = this.getRootNode();
	if (root instanceof ShadowRoot && !/-/.test(root.host.localName) &&
		!/^(article|aside|blockquote|body|div|footer|h[1-6]|header|main|nav|p|section|span)$/.test(root.host.localName))
		return {skip: true}; // inside a user-agent shadow root (the parts of a date input, ...)
	const a = __e2e.aria(this);
	let d = this.localName;
	if (this.id) d += '#' + this.id;
	for (const k of ['role', 'type', 'aria-label']) if (this.hasAttribute(k)) d += '[' + k + '=' + this.getAttribute(k) + ']';
	return {role: a.role, name: a.name, el: d};
}`

// oracleRows compares the engine with Chrome on one open page.
func oracleRows(p *Page, page string) ([]oracleRow, error) {
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		return nil, err
	}
	w, err := p.world(ctx)
	if err != nil {
		return nil, err
	}
	var rows []oracleRow
	for _, n := range tree.Nodes {
		if n.Ignored || n.BackendDOMNodeID == 0 || n.Role == nil {
			continue
		}
		var role, name string
		if err := json.Unmarshal([]byte(n.Role.Value), &role); err != nil || chromeInternalRoles[role] {
			continue
		}
		if n.Name != nil {
			_ = json.Unmarshal([]byte(n.Name.Value), &name)
		}
		if m, ok := chromeRoleToARIA[role]; ok {
			role = m
		}
		obj, err := chromedp.Call(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: n.BackendDOMNodeID, ExecutionContextID: w.id})
		if err != nil || obj.Object == nil || obj.Object.Subtype != "node" {
			continue
		}
		res, err := chromedp.Call(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
			FunctionDeclaration: describeFn, ObjectID: obj.Object.ObjectID, ReturnByValue: new(true)})
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, fmt.Errorf("describe: %s", res.ExceptionDetails.Text)
		}
		var ours struct {
			Role, Name, El string
			Skip           bool
		}
		if err := json.Unmarshal([]byte(res.Result.Value), &ours); err != nil || ours.Skip {
			continue // not an element (text or pseudo-element), or a browser-internal part
		}
		// Chrome names rows from their content only when they can take focus
		// (a shortcut for speed, says Blink's source: "Spec says we should
		// always expose the name on rows, but for performance reasons we only
		// do it if the row might receive focus"). An empty name there is no
		// answer, so only the role is compared.
		roleOnly := role == "row" && name == ""
		rows = append(rows, oracleRow{Page: page, Element: ours.El, OurRole: ours.Role, OurName: normName(ours.Name),
			ChromeRole: role, ChromeName: normName(name), RoleOnly: roleOnly})
	}
	return rows, nil
}

const differencesFile = "testdata/oracle-differences.md"

// listedDifferences reads the keys of the table rows of differencesFile:
// | page | element | our role | our name | Chrome role | Chrome name | reason |
// and which of them some Chrome versions show and others not (versioned).
func listedDifferences(t *testing.T) (keys, versioned map[string]bool) {
	f, err := os.Open(differencesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys, versioned = map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| page ") || strings.HasPrefix(line, "|--") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) < 7 {
			t.Fatalf("%s: malformed row %q", differencesFile, line)
		}
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		k := strings.Join(cells[:6], " | ")
		keys[k] = true
		// A difference some Chrome versions show and others not.
		versioned[k] = strings.HasPrefix(cells[6], "Chrome version:")
	}
	return keys, versioned
}

// TestAriaOracle compares the engine's role and accessible name of every
// element on the corpus with Chrome's accessibility tree.
func TestAriaOracle(t *testing.T) {
	t.Parallel()
	listed, versioned := listedDifferences(t)
	var all []oracleRow
	for _, name := range corpusNames {
		p := openPage(t, "/corpus/"+name)
		rows, err := oracleRows(p, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rows) < 10 { // every page has more: resolving nodes must have failed
			t.Errorf("%s: only %d elements compared", name, len(rows))
		}
		agree := 0
		for _, r := range rows {
			if r.agrees() {
				agree++
			}
		}
		t.Logf("%-10s %3d/%3d agree (%.1f%%)", name, agree, len(rows), 100*float64(agree)/float64(max(len(rows), 1)))
		all = append(all, rows...)
	}
	agree := 0
	seen := map[string]bool{}
	var unlisted []string
	for _, r := range all {
		if r.agrees() {
			agree++
			continue
		}
		k := r.key()
		if !seen[k] && !listed[k] {
			unlisted = append(unlisted, "| "+k+" | ? |")
		}
		seen[k] = true
	}
	ratio := float64(agree) / float64(max(len(all), 1))
	t.Logf("overall: %d/%d agree (%.2f%%), %d distinct differences", agree, len(all), 100*ratio, len(seen))
	// Where Chrome and Playwright disagree the engine follows Playwright
	// (testdata/oracle, oracle_test.go); each such case is listed.
	if ratio < 0.96 {
		t.Errorf("agreement %.2f%% is below 96%%", 100*ratio)
	}
	slices.Sort(unlisted)
	if len(unlisted) > 0 {
		t.Errorf("%d differences are not listed in %s:\n%s", len(unlisted), differencesFile, strings.Join(unlisted, "\n"))
	}
	var stale []string
	for k := range listed {
		if !seen[k] && !versioned[k] {
			stale = append(stale, k)
		}
	}
	slices.Sort(stale)
	if len(stale) > 0 {
		t.Errorf("%s lists differences that no longer occur:\n%s", differencesFile, strings.Join(stale, "\n"))
	}
	if os.Getenv("ORACLE_DUMP") != "" { // ORACLE_DUMP=file writes every comparison, for debugging
		f, _ := os.Create(os.Getenv("ORACLE_DUMP"))
		for _, r := range all {
			mark := "  "
			if !r.agrees() {
				mark = "!!"
			}
			fmt.Fprintf(f, "%s %s\n", mark, r.key())
		}
		f.Close()
	}
}
