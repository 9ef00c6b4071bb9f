package mcptools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// portableSchema rewrites a schema derived from Go types into the form
// every client takes (the MCP Inspector's --strict, the OpenAPI subset
// Gemini maps tools onto), keeping the order of its properties (the order
// the model reads them in). Go's nil-able slices and pointers come out as
// "type": ["null", "array"], a type union strict clients refuse, which also
// let a required list be null (browser_select_option {"values": null}
// cleared the selection): a list is a list, never null. A list of any
// ([]any: browser_batch's flow steps) comes out as "items": true, a bare
// boolean schema: a flow step is a text ("back") or an object.
func portableSchema(raw json.RawMessage) json.RawMessage {
	v, err := readOrdered(json.NewDecoder(bytes.NewReader(raw)))
	if err != nil {
		return raw
	}
	var b bytes.Buffer
	writeOrdered(&b, fixSchema(v))
	return b.Bytes()
}

// ordered is a JSON object with its keys in their order.
type ordered struct {
	keys []string
	vals map[string]any
}

func (o *ordered) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// fixSchema applies portableSchema's rules to a schema and its
// subschemas (properties, items, $defs).
func fixSchema(v any) any {
	o, ok := v.(*ordered)
	if !ok {
		return v
	}
	if types, ok := o.vals["type"].([]any); ok {
		var kept []any
		for _, t := range types {
			if t != "null" {
				kept = append(kept, t)
			}
		}
		if len(kept) == 1 {
			o.vals["type"] = kept[0]
		} else {
			o.vals["type"] = kept
		}
	}
	if b, ok := o.vals["items"].(bool); ok && b {
		o.vals["items"] = &ordered{keys: []string{"anyOf"}, vals: map[string]any{"anyOf": []any{
			&ordered{keys: []string{"type"}, vals: map[string]any{"type": "string"}},
			&ordered{keys: []string{"type"}, vals: map[string]any{"type": "object"}},
		}}}
	}
	for _, k := range []string{"properties", "$defs"} {
		if props, ok := o.vals[k].(*ordered); ok {
			for _, name := range props.keys {
				props.vals[name] = fixSchema(anyJSON(props.vals[name]))
			}
		}
	}
	if it, ok := o.vals["items"]; ok {
		o.vals["items"] = fixSchema(it)
	}
	return o
}

// anyJSON is a property that takes any JSON value (an `any` field:
// browser_request's json body), which comes out as a schema of nothing but
// its description, as the anyOf of JSON's types that strict clients take
// (a list of scalars or objects). Any other schema is returned as it is.
func anyJSON(v any) any {
	o, ok := v.(*ordered)
	if !ok {
		return v
	}
	for _, k := range o.keys {
		if k != "description" {
			return v
		}
	}
	typ := func(t string) *ordered { return &ordered{keys: []string{"type"}, vals: map[string]any{"type": t}} }
	scalarOrObject := []any{typ("object"), typ("string"), typ("number"), typ("boolean")}
	list := &ordered{keys: []string{"type", "items"}, vals: map[string]any{"type": "array",
		"items": &ordered{keys: []string{"anyOf"}, vals: map[string]any{"anyOf": scalarOrObject}}}}
	out := &ordered{vals: map[string]any{}}
	out.set("anyOf", append([]any{list}, scalarOrObject...))
	if d, ok := o.vals["description"]; ok {
		out.set("description", d)
	}
	return out
}

// readOrdered reads one JSON value, objects as *ordered.
func readOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &ordered{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v", kt)
				}
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			_, err := dec.Token() // }
			return o, err
		case '[':
			var l []any
			for dec.More() {
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := dec.Token() // ]
			if l == nil {
				l = []any{}
			}
			return l, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	}
	return tok, nil
}

// writeOrdered writes a value readOrdered read.
func writeOrdered(w io.Writer, v any) {
	switch x := v.(type) {
	case *ordered:
		_, _ = io.WriteString(w, "{")
		for i, k := range x.keys {
			if i > 0 {
				_, _ = io.WriteString(w, ",")
			}
			kb, _ := json.Marshal(k)
			_, _ = w.Write(kb)
			_, _ = io.WriteString(w, ":")
			writeOrdered(w, x.vals[k])
		}
		_, _ = io.WriteString(w, "}")
	case []any:
		_, _ = io.WriteString(w, "[")
		for i, e := range x {
			if i > 0 {
				_, _ = io.WriteString(w, ",")
			}
			writeOrdered(w, e)
		}
		_, _ = io.WriteString(w, "]")
	default:
		b, _ := json.Marshal(x)
		_, _ = w.Write(b)
	}
}
