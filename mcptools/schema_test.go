package mcptools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemasStrict: every tool's input schema, with every group on, is a
// valid JSON Schema 2020-12 document (checked against the metaschema) and
// takes the form strict clients accept (the MCP Inspector's --strict, the
// OpenAPI subset Gemini maps tools onto): no bare boolean where a schema
// object belongs, no type unions, no schema that constrains nothing, no
// reference outside the document, and no required field that could be
// null.
func TestSchemasStrict(t *testing.T) {
	for _, tool := range Inventory(nil) {
		raw := tool.Def.RawInputSchema
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", tool.Def.Name, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource("mem:///s.json", doc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Compile("mem:///s.json"); err != nil {
			t.Errorf("%s: not a valid JSON Schema 2020-12 document: %v", tool.Def.Name, err)
		}
		var s any
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for _, p := range strictProblems(s, "", "") {
			t.Errorf("%s: %s", tool.Def.Name, p)
		}
	}
}

// booleanKeywords may hold a bare true or false.
var booleanKeywords = map[string]bool{"additionalProperties": true, "unevaluatedProperties": true, "additionalItems": true, "unevaluatedItems": true}

// constraining are the keywords that make a schema say something of a
// value.
var constraining = strings.Fields(`type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum
	maxLength minLength pattern format maxItems minItems uniqueItems maxProperties minProperties required
	allOf anyOf oneOf not items prefixItems contains properties patternProperties additionalProperties $ref`)

// strictProblems walks a schema and its subschemas.
func strictProblems(v any, path, keyword string) []string {
	if b, ok := v.(bool); ok {
		if booleanKeywords[keyword] {
			return nil
		}
		return []string{fmt.Sprintf("%s: a bare %v where a schema object belongs", path, b)}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	if _, union := m["type"].([]any); union {
		out = append(out, fmt.Sprintf("%s: type is a union %v", path, m["type"]))
	}
	if ref, ok := m["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
		out = append(out, path+": $ref outside the document")
	}
	says := false
	for _, k := range constraining {
		if _, ok := m[k]; ok {
			says = true
		}
	}
	if !says && keyword != "not" {
		out = append(out, path+": constrains nothing")
	}
	if props, ok := m["properties"].(map[string]any); ok {
		req, _ := m["required"].([]any)
		for _, r := range req {
			if p, ok := props[fmt.Sprint(r)].(map[string]any); ok {
				if nullable(p) {
					out = append(out, fmt.Sprintf("%s.%v: required but may be null", path, r))
				}
			}
		}
		for name, p := range props {
			out = append(out, strictProblems(p, path+"."+name, "properties")...)
		}
	}
	for _, k := range []string{"items", "not", "additionalProperties", "contains"} {
		if sub, ok := m[k]; ok {
			out = append(out, strictProblems(sub, path+"."+k, k)...)
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if l, ok := m[k].([]any); ok {
			for i, sub := range l {
				out = append(out, strictProblems(sub, fmt.Sprintf("%s.%s[%d]", path, k, i), k)...)
			}
		}
	}
	return out
}

func nullable(p map[string]any) bool {
	switch t := p["type"].(type) {
	case string:
		return t == "null"
	case []any:
		for _, x := range t {
			if x == "null" {
				return true
			}
		}
	}
	return false
}

// TestNullListIsInvalidInput: null where a list belongs is invalid_input
// naming the field (it cleared a selection), for a required list and an
// optional one.
func TestNullListIsInvalidInput(t *testing.T) {
	tools := map[string]Tool{}
	for _, tool := range Inventory(nil) {
		tools[tool.Def.Name] = tool
	}
	for name, args := range map[string]map[string]any{
		"browser_select_option": {"target": "#a", "values": nil},
		"browser_click":         {"target": "#a", "modifiers": nil},
		"browser_batch":         {"steps": nil},
	} {
		err := tools[name].Check(args)
		te, ok := err.(*ToolError)
		if !ok || te.Type != ErrInvalidInput {
			t.Errorf("%s %v: %v, want invalid_input", name, args, err)
		}
	}
	if err := tools["browser_batch"].Check(map[string]any{"steps": []any{"back", map[string]any{"click": "e5"}}}); err != nil {
		t.Errorf("a batch of a text step and an object step: %v", err)
	}
}
