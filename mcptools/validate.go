package mcptools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// We check arguments against each tool's input schema ourselves rather than
// with mcp-go's validation, so that a bad argument is the same typed
// invalid_input error, naming the field, as every other bad input.

var printer = message.NewPrinter(language.English)

// plainNameRE is an argument name that reads well unquoted.
var plainNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// compileSchema compiles a tool's input schema; the schemas are generated
// from our own types, so a failure is a programming error.
func compileSchema(tool string, raw json.RawMessage) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool, err))
	}
	c := jsonschema.NewCompiler()
	url := "mem:///tools/" + tool + ".json"
	if err := c.AddResource(url, doc); err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool, err))
	}
	s, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool, err))
	}
	return s
}

// checkArgs validates a call's arguments against the tool's schema.
func checkArgs(s *jsonschema.Schema, args any) error {
	if args == nil {
		args = map[string]any{}
	}
	b, err := json.Marshal(args)
	if err != nil {
		return invalidInput("arguments", "not JSON: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return invalidInput("arguments", "not JSON: %v", err)
	}
	err = s.Validate(v)
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return invalidInput("arguments", "%v", err)
	}
	var problems []string
	field := ""
	for _, leaf := range leaves(verr) {
		f, msg := describeViolation(leaf)
		if field == "" {
			field = f
		} else {
			msg = f + ": " + msg
		}
		problems = append(problems, msg)
	}
	sort.Strings(problems[1:])
	return invalidInput(field, "%s", strings.Join(problems, "; "))
}

func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// describeViolation names the argument a violation is about and says what
// is wrong with it in words.
func describeViolation(e *jsonschema.ValidationError) (field, msg string) {
	field = strings.Join(e.InstanceLocation, ".")
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		if field == "" {
			field = strings.Join(k.Missing, ", ")
		}
		return field, fmt.Sprintf("missing required argument %s", strings.Join(k.Missing, ", "))
	case *kind.AdditionalProperties:
		if field == "" {
			field = strings.Join(k.Properties, ", ")
		}
		names := make([]string, len(k.Properties))
		for i, p := range k.Properties {
			names[i] = p
			if !plainNameRE.MatchString(p) {
				names[i] = strconv.Quote(p)
			}
		}
		return field, fmt.Sprintf("unknown argument %s: see the tool's input schema", strings.Join(names, ", "))
	}
	if field == "" {
		field = "arguments"
	}
	if k, ok := e.ErrorKind.(*kind.Enum); ok {
		got, _ := json.Marshal(k.Got)
		return field, fmt.Sprintf("%s is not one of the allowed values: %s", got, strings.TrimPrefix(e.ErrorKind.LocalizedString(printer), "value must be one of "))
	}
	return field, e.ErrorKind.LocalizedString(printer)
}

// Bounds of a call's arguments: no tool needs more, and a call holds its
// session (and memory) for as long as its arguments take to work through.
const (
	maxArgString = 1 << 20 // bytes of one string argument
	maxArgItems  = 1000    // items of one list or object
	maxArgDepth  = 16      // nesting of lists and objects
)

// checkSizes refuses arguments beyond the bounds, naming the first one.
func checkSizes(args any) error {
	return checkSize("", args, 0)
}

func checkSize(field string, v any, depth int) error {
	name := field
	if name == "" {
		name = "arguments"
	}
	if depth > maxArgDepth {
		return invalidInput(name, "nested more than %d levels deep", maxArgDepth)
	}
	switch x := v.(type) {
	case string:
		if len(x) > maxArgString {
			return invalidInput(name, "%d bytes; a string argument has at most %d (1 MiB)", len(x), maxArgString)
		}
	case []any:
		if len(x) > maxArgItems {
			return invalidInput(name, "%d items; a list has at most %d", len(x), maxArgItems)
		}
		for i, e := range x {
			if err := checkSize(fmt.Sprintf("%s[%d]", field, i), e, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		if len(x) > maxArgItems {
			return invalidInput(name, "%d entries; an object has at most %d", len(x), maxArgItems)
		}
		for k, e := range x {
			sub := k
			if field != "" {
				sub = field + "." + k
			}
			if err := checkSize(sub, e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
