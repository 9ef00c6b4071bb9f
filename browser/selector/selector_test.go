package selector

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/browser/refusal"
)

func TestParse(t *testing.T) {
	tests := []struct {
		sel, want string // want: the parts as JSON
	}{
		{`button`, `[{"e":"css","css":[[{"css":"button"}]]}]`},
		{`form  button.primary`, `[{"e":"css","css":[[{"css":"form"},{"c":" ","css":"button.primary"}]]}]`},
		{`ul>li + li ~ li`, `[{"e":"css","css":[[{"css":"ul"},{"c":"\u003e","css":"li"},{"c":"+","css":"li"},{"c":"~","css":"li"}]]}]`},
		{`a, b`, `[{"e":"css","css":[[{"css":"a"}],[{"css":"b"}]]}]`},
		{`input[name="a b"]:not(.x)`, `[{"e":"css","css":[[{"css":"input[name=\"a b\"]","ps":[{"n":"not","sel":[[{"css":".x"}]]}]}]]}]`},
		// :is/:has/:not take selector lists the engine runs (shadow roots, its pseudo-classes).
		{`div:has(> img, h3:text("x"))`, `[{"e":"css","css":[[{"css":"div","ps":[{"n":"has","sel":[[{"c":"\u003e","css":"img"}],[{"css":"h3","ps":[{"n":"text","t":{"m":"lax","v":"x"}}]}]]}]}]]}]`},
		{`button:has-text("Sign up"):visible`, `[{"e":"css","css":[[{"css":"button","ps":[{"n":"has-text","t":{"m":"lax","v":"Sign up"}},{"n":"visible"}]}]]}]`},
		{`:text-is('Go')`, `[{"e":"css","css":[[{"css":"*","ps":[{"n":"text-is","t":{"m":"exact","v":"Go"}}]}]]}]`},
		{`li:text-matches("^a.c$", "i")`, `[{"e":"css","css":[[{"css":"li","ps":[{"n":"text-matches","t":{"m":"regex","v":"^a.c$","f":"i"}}]}]]}]`},
		{`text=Sign up`, `[{"e":"text","text":{"m":"lax","v":"Sign up"}}]`},
		{`text="Sign up"`, `[{"e":"text","text":{"m":"exact","v":"Sign up"}}]`},
		{`text="Sign up"i`, `[{"e":"text","text":{"m":"iexact","v":"Sign up"}}]`},
		{`text=/sign\s+up/i`, `[{"e":"text","text":{"m":"regex","v":"sign\\s+up","f":"i"}}]`},
		{`'He said \'hi\''`, `[{"e":"text","text":{"m":"exact","v":"He said 'hi'"}}]`},
		{`role=button[name="Save"]`, `[{"e":"role","role":"button","attrs":[{"n":"name","op":"=","t":{"m":"exact","v":"Save"}}]}]`},
		{`role=button[name="save" i][disabled=false]`, `[{"e":"role","role":"button","attrs":[{"n":"name","op":"=","t":{"m":"iexact","v":"save"}},{"n":"disabled","op":"=","v":false}]}]`},
		{`role=heading[level=2]`, `[{"e":"role","role":"heading","attrs":[{"n":"level","op":"=","v":2}]}]`},
		{`role=checkbox[checked=mixed]`, `[{"e":"role","role":"checkbox","attrs":[{"n":"checked","op":"=","v":"mixed"}]}]`},
		{`role=checkbox[checked]`, `[{"e":"role","role":"checkbox","attrs":[{"n":"checked","v":true}]}]`},
		{`role=link[name=/^Ho[/]me$/i][include-hidden]`, `[{"e":"role","role":"link","attrs":[{"n":"name","op":"=","t":{"m":"regex","v":"^Ho[/]me$","f":"i"}},{"n":"include-hidden","v":true}]}]`},
		{`role=button[name*="ave"]`, `[{"e":"role","role":"button","attrs":[{"n":"name","op":"*=","t":{"m":"exact","v":"ave"}}]}]`},
		{`//div[@id="x"]`, `[{"e":"xpath","xpath":"//div[@id=\"x\"]"}]`},
		{`xpath=..`, `[{"e":"xpath","xpath":".."}]`},
		{`data-testid=submit`, `[{"e":"attr","attr":"data-testid","value":"submit"}]`},
		{`testid="a b"`, `[{"e":"attr","attr":"data-qa","value":"a b"}]`},
		{`id=main`, `[{"e":"attr","attr":"id","value":"main"}]`},
		{`label=Email`, `[{"e":"label","text":{"m":"lax","v":"Email"}}]`},
		{`placeholder="you@x"`, `[{"e":"placeholder","text":{"m":"exact","v":"you@x"}}]`},
		{`form >> text=Go >> nth=-1`, `[{"e":"css","css":[[{"css":"form"}]]},{"e":"text","text":{"m":"lax","v":"Go"}},{"e":"nth","n":-1}]`},
		{`div >> visible=true`, `[{"e":"css","css":[[{"css":"div"}]]},{"e":"visible","visible":true}]`},
		{`text="a >> b"`, `[{"e":"text","text":{"m":"exact","v":"a \u003e\u003e b"}}]`},
		// A quote after some text of an unquoted text= body is text (Playwright).
		{`text=lo" >> span`, `[{"e":"text","text":{"m":"lax","v":"lo\""}},{"e":"css","css":[[{"css":"span"}]]}]`},
		{`text=it's`, `[{"e":"text","text":{"m":"lax","v":"it's"}}]`},
		{`text= foo`, `[{"e":"text","text":{"m":"lax","v":"foo"}}]`},
	}
	for _, tc := range tests {
		s, err := Parse(tc.sel, "data-qa")
		if tc.sel == `data-testid=submit` {
			s, err = Parse(tc.sel, "")
		}
		if err != nil {
			t.Errorf("Parse(%q) = %v", tc.sel, err)
			continue
		}
		got, _ := json.Marshal(s.Parts)
		if string(got) != tc.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tc.sel, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		sel  string
		pos  int
		what string
	}{
		{``, 0, "empty selector"},
		{`text="abc`, 5, "unterminated"},
		{`button >> `, 10, "empty part"},
		{`>> button`, 0, "empty part"},
		{`role=`, 5, "role= wants"},
		{`role=button[nam="x"]`, 12, `unknown role attribute "nam"`},
		{`role=button[level="2"]`, 11, "positive integer"},
		{`role=button[checked=maybe]`, 11, "true, false or mixed"},
		{`role=button[name="x"`, 20, "expected ]"},
		{`role=button[name=/x]`, 17, "unterminated regular expression"},
		{`role=button x`, 12, "expected [attribute]"},
		{`bogus=x`, 0, `unknown selector engine "bogus"`},
		{`nth=first`, 4, "integer"},
		{`visible=yes`, 8, "true or false"},
		{`text=/a/q`, 8, "flags"},
		{`div:has-text()`, 12, "empty"},
		{`div:has-text`, 3, "needs an argument"},
		{`div:visible(1)`, 3, "no argument"},
		{`a >`, 3, "nothing after"},
		{`> a`, 0, "starts with combinator"},
		{`a > > b`, 4, "two combinators"},
		{`a]`, 1, "unexpected"},
		{`a[x`, 1, "unclosed"},
		{`text="x"y`, 8, "only i or s"},
		{`, a`, 0, "empty selector before ','"},
	}
	for _, tc := range tests {
		s, err := Parse(tc.sel, "")
		e, ok := err.(*refusal.Error)
		if s != nil || !ok || e.Kind != refusal.InvalidInput || e.Hint != syntaxHint {
			t.Errorf("Parse(%q) = %v, %v, want an invalid_input *refusal.Error with the selector's hint", tc.sel, s, err)
			continue
		}
		head := fmt.Sprintf("selector %q: at position %d: ", tc.sel, tc.pos)
		if msg, found := strings.CutPrefix(e.Message, head); !found || !strings.Contains(msg, tc.what) {
			t.Errorf("Parse(%q) = %+v, want position %d and %q", tc.sel, e, tc.pos, tc.what)
		}
		if want := "invalid_input: " + e.Message; e.Error() != want {
			t.Errorf("Parse(%q) error text %q, want %q", tc.sel, e.Error(), want)
		}
	}
}

var positionRE = regexp.MustCompile(`at position (\d+): `)

// FuzzParse: no input panics, and every error is an invalid_input
// *refusal.Error naming the selector and a position inside (or just past)
// it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`button`, `text="a"i`, `role=button[name=/x/i][level=2]`, `a >> nth=-1`, `div:has-text("x") > span:visible`,
		`//a[@b]`, `label=Email`, `text=/a[/]b/`, `a[b="c]"] , d`, `'x' >> "y"`, `role=x[checked]`, `:text-matches("a", "i")`,
		`div:has(> a, b:text("x"))`, `:is(a, :not(.b))`, `text=/let's/i`, `li:has(+ li)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sel string) {
		s, err := Parse(sel, "")
		if err == nil {
			if len(s.Parts) == 0 {
				t.Fatalf("Parse(%q) returned no parts and no error", sel)
			}
			if _, err := json.Marshal(s); err != nil {
				t.Fatalf("Parse(%q) result does not marshal: %v", sel, err)
			}
			return
		}
		e, ok := err.(*refusal.Error)
		if !ok || e.Kind != refusal.InvalidInput {
			t.Fatalf("Parse(%q) error %v is not an invalid_input *refusal.Error", sel, err)
		}
		rest, found := strings.CutPrefix(e.Message, fmt.Sprintf("selector %q: ", sel))
		m := positionRE.FindStringSubmatch(rest)
		if !found || m == nil || !strings.HasPrefix(rest, m[0]) {
			t.Fatalf("Parse(%q) error text names not the selector and a position: %s", sel, e.Error())
		}
		if pos, _ := strconv.Atoi(m[1]); pos < 0 || pos > len(sel) {
			t.Fatalf("Parse(%q) error position %d is outside the selector (%+v)", sel, pos, e)
		}
	})
}
