package playwright

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// A request step (browser_request) is Playwright's page.request: the
// page's context's cookies go with it, and a relative URL is relative to
// baseURL (the dev server), as e2e-mcp run resolves it. What it expects is
// written as expectations on the response: its status (none given: any
// 2xx, toBeOK), and its body: a text it contains (toContain), or JSON it
// matches (toMatchObject, the match e2e-mcp uses: mcptools.MatchJSON).

// requestMethods are the methods page.request has a function of its own for.
var requestMethods = map[string]bool{"get": true, "post": true, "put": true, "patch": true, "delete": true, "head": true}

func (w *writer) request(a map[string]any) error {
	u := w.text(a["url"])
	if s, ok := a["url"].(string); ok {
		u = Quote(w.relative(s))
	}
	method := strings.ToLower(strings.TrimSpace(str(a, "method")))
	if method == "" {
		method = "get"
	}
	var o []string
	call := "page.request." + method
	if !requestMethods[method] {
		call = "page.request.fetch"
		o = append(o, "method: "+Quote(strings.ToUpper(method)))
	}
	if h, ok := a["headers"].(map[string]any); ok && len(h) > 0 {
		keys := make([]string, 0, len(h))
		for k := range h {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = Quote(k) + ": " + w.text(h[k])
		}
		o = append(o, "headers: { "+strings.Join(parts, ", ")+" }")
	}
	if j, ok := a["json"]; ok && j != nil {
		data, err := w.jsValue(j)
		if err != nil {
			return fmt.Errorf("step %d: json: %w", w.step, err)
		}
		o = append(o, "data: "+data)
	}
	w.n++
	res := fmt.Sprintf("response%d", w.n)
	args := u
	if len(o) > 0 {
		args += ", " + opts(o...)
	}
	w.line("const %s = await %s(%s);", res, call, args)
	what := Quote(strings.ToUpper(method) + " " + describeURL(a["url"]))
	e, _ := a["expect"].(map[string]any)
	if s, ok := num(e, "status"); ok && s != 0 {
		w.line("expect(%s.status(), %s).toBe(%g);", res, what, s)
	} else {
		w.line("await expect(%s, %s).toBeOK();", res, what)
	}
	switch b := e["body"].(type) {
	case nil:
	case string, *envText:
		w.line("expect(await %s.text(), %s).toContain(%s);", res, what, w.text(b))
	default:
		want, err := w.jsValue(b)
		if err != nil {
			return fmt.Errorf("step %d: expect.body: %w", w.step, err)
		}
		match := "toMatchObject"
		if _, obj := b.(map[string]any); !obj {
			if _, list := b.([]any); !list {
				match = "toEqual" // a number, true or false: the whole body
			}
		}
		w.line("expect(await %s.json(), %s).%s(%s);", res, what, match, want)
	}
	return nil
}

// describeURL is a request's URL for its expectations' messages.
func describeURL(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if e, ok := v.(*envText); ok {
		var b strings.Builder
		for _, p := range e.parts {
			switch {
			case p.Row != "":
				b.WriteString("${row." + p.Row + "}")
			case p.Var != "":
				b.WriteString("${" + p.Var + "}")
			default:
				b.WriteString(p.Text)
			}
		}
		return b.String()
	}
	return ""
}

// jsValue is a decoded argument that holds JSON (a request's body, what it
// expects of the answer) as a TypeScript literal, its texts as w.text
// writes them (a variable read with env()); keys sorted.
func (w *writer) jsValue(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case string, *envText:
		return w.text(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "", fmt.Errorf("%v is not a JSON number", x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := w.jsValue(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			s, err := w.jsValue(x[k])
			if err != nil {
				return "", err
			}
			parts[i] = Quote(k) + ": " + s
		}
		if len(parts) == 0 {
			return "{}", nil
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	return "", fmt.Errorf("%T is not a JSON value", v)
}
