// Package report renders what an agent's session (or a flow's replay) did as
// one self-contained HTML file a person can open from a CI artifact or on a
// phone: every step with its arguments, duration and result, a screenshot
// after each action, each failure's whole answer (its text and every image
// it carried, with captions), the console and network logs, and the dev
// server's command, URL and log tail.
//
// The file needs nothing from the network: its CSS is inline, its images are
// data: URIs, it has no script, and its Content-Security-Policy (default-src
// 'none') keeps a browser from fetching anything it might name. Every string
// goes through html/template, and known secrets are masked before rendering.
// It knows nothing of MCP: mcptools turns a session into a [Report].
package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strings"
	"time"
)

// Report is what one file shows.
type Report struct {
	Title string
	// Status is "passed", "failed" or "" (a session still running).
	Status string
	// Summary says the outcome in one line (the failing step and error).
	Summary   string
	Generated time.Time
	// Meta are facts about the run shown at the top (session, flow file).
	Meta  []KV
	Steps []Step
	// DroppedSteps counts the oldest steps the session no longer kept.
	DroppedSteps int
	Dev          *Dev
	Console      []Console
	// ConsoleNote and NetworkNote say what was left out of those logs.
	ConsoleNote string
	Network     []Request
	NetworkNote string
	// Notes are said at the top: what was left out to keep the file small.
	Notes []string
}

// KV is one labelled fact.
type KV struct{ Key, Value string }

// Step is one tool call.
type Step struct {
	Tool     string
	Args     map[string]any
	Start    time.Time
	Duration time.Duration
	OK       bool
	// Result is the answer's text, clipped.
	Result string
	// Shot is the screenshot taken after the action, if one was.
	Shot *Image
	// Failure is the whole answer of a failed step, in order.
	Failure []Part
}

// Part is one content item of an answer: text or an image.
type Part struct {
	Text  string
	Image *Image
}

// Image is an image as it travelled: its type and its bytes.
type Image struct {
	MIME    string
	Data    []byte
	Caption string
}

// Dev is the session's dev server.
type Dev struct {
	Command string
	URL     string
	LogNote string
	Log     []string
}

// Console is one console message.
type Console struct {
	// Tab names the tab it came from when the session had several.
	Tab      string
	Time     time.Time
	Level    string
	Text     string
	Location string
}

// Request is one network request.
type Request struct {
	// Tab names the tab it came from when the session had several.
	Tab                        string
	Method, URL, Type, Outcome string
	Failed                     bool
}

// Options bound what Render writes.
type Options struct {
	// Secrets are values that never appear in the file (typed passwords).
	Secrets []string
	// MaxBytes caps the file (0: DefaultMaxBytes): the oldest step
	// screenshots are left out first, then the oldest failure images.
	MaxBytes int
}

// DefaultMaxBytes is the size cap of a report file.
const DefaultMaxBytes = 8 << 20

//go:embed report.css
var css string

//go:embed report.html.tmpl
var page string

var tmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"img":  imgURL,
	"json": argsText,
	"ms": func(d time.Duration) string {
		if d < 10*time.Second {
			return fmt.Sprintf("%d ms", d.Milliseconds())
		}
		return fmt.Sprintf("%.1f s", d.Seconds())
	},
	"clock": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("15:04:05.000")
	},
	"inc": func(i int) int { return i + 1 },
	"css": func() template.CSS { return template.CSS(css) }, //nolint:gosec // our own embedded style sheet
}).Parse(page))

// imageTypes are the image types a report shows inline.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "image/gif": true}

// imgURL is an image as a data: URI; an image of another type shows nothing
// (its caption says what it was).
func imgURL(im *Image) template.URL {
	if im == nil || !imageTypes[im.MIME] {
		return ""
	}
	// The type is one of ours and base64 has no character a URL parser
	// could read otherwise.
	return template.URL("data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)) //nolint:gosec // see above
}

// Render writes the report as one HTML file. It masks the secrets in every
// string first, then leaves out the oldest images until the file fits.
func Render(r Report, o Options) ([]byte, error) {
	maxBytes := o.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	r = masked(r, o.Secrets)
	var out bytes.Buffer
	dropped := 0
	for {
		out.Reset()
		view := r
		if dropped > 0 {
			view.Notes = append(append([]string{}, r.Notes...),
				fmt.Sprintf("%d screenshot(s) left out (the oldest first) to keep this file under %d MB.", dropped, maxBytes>>20))
		}
		if err := tmpl.Execute(&out, view); err != nil {
			return nil, err
		}
		if out.Len() <= maxBytes {
			return out.Bytes(), nil
		}
		n := dropOldestImages(&r, out.Len()-maxBytes)
		if n == 0 {
			return out.Bytes(), nil // nothing more to leave out: text only
		}
		dropped += n
	}
}

// dropOldestImages leaves out images, step screenshots before failure
// images and the oldest first, until about over bytes of base64 are gone.
// It returns how many it left out.
func dropOldestImages(r *Report, over int) int {
	n, freed := 0, 0
	for i := range r.Steps {
		if freed >= over {
			return n
		}
		if s := r.Steps[i].Shot; s != nil {
			freed += base64.StdEncoding.EncodedLen(len(s.Data))
			r.Steps[i].Shot = nil
			n++
		}
	}
	for i := range r.Steps {
		for j, p := range r.Steps[i].Failure {
			if freed >= over {
				return n
			}
			if p.Image != nil && p.Image.Data != nil {
				freed += base64.StdEncoding.EncodedLen(len(p.Image.Data))
				im := *p.Image
				im.Data, im.MIME = nil, "left out"
				r.Steps[i].Failure[j].Image = &im
				n++
			}
		}
	}
	return n
}

// argsText renders arguments for the step's line, keys sorted.
func argsText(args map[string]any) string {
	if len(args) == 0 {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the template escapes
	if err := enc.Encode(args); err != nil {
		return fmt.Sprint(args)
	}
	return strings.TrimSpace(b.String())
}

// secretKey matches the names of arguments whose values are never shown.
var secretKey = regexp.MustCompile(`(?i)pass(word|wd|phrase)?$|secret|token|api_?key|authorization|cookie`)

// MaskArgs returns a copy of args with the values of secret-looking keys
// masked, at any depth.
func MaskArgs(args map[string]any) map[string]any {
	if args == nil {
		return nil
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		if secretKey.MatchString(k) {
			if _, isStr := v.(string); isStr {
				out[k] = Masked
				continue
			}
		}
		out[k] = maskValue(v)
	}
	return out
}

func maskValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return MaskArgs(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskValue(e)
		}
		return out
	}
	return v
}

// Masked is what a secret is shown as.
const Masked = "•••"

// Mask replaces every secret in s with [Masked].
func Mask(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 3 && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Masked)
		}
	}
	return s
}

// masked is r with the secrets masked in every string it shows.
func masked(r Report, secrets []string) Report {
	var sec []string
	for _, s := range secrets {
		if len(s) >= 3 {
			sec = append(sec, s)
		}
	}
	if len(sec) == 0 {
		return r
	}
	m := func(s string) string { return Mask(s, sec) }
	r.Title, r.Summary = m(r.Title), m(r.Summary)
	r.Meta = append([]KV{}, r.Meta...)
	for i := range r.Meta {
		r.Meta[i].Value = m(r.Meta[i].Value)
	}
	r.Notes = append([]string{}, r.Notes...)
	for i := range r.Notes {
		r.Notes[i] = m(r.Notes[i])
	}
	r.Steps = append([]Step{}, r.Steps...)
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Args = maskStrings(MaskArgs(s.Args), m).(map[string]any)
		s.Result = m(s.Result)
		parts := make([]Part, len(s.Failure))
		for j, p := range s.Failure {
			parts[j] = Part{Text: m(p.Text)}
			if p.Image != nil {
				im := *p.Image
				im.Caption = m(im.Caption)
				parts[j].Image = &im
			}
		}
		s.Failure = parts
	}
	if r.Dev != nil {
		d := *r.Dev
		d.Command, d.URL = m(d.Command), m(d.URL)
		d.Log = append([]string{}, d.Log...)
		for i := range d.Log {
			d.Log[i] = m(d.Log[i])
		}
		r.Dev = &d
	}
	r.Console = append([]Console{}, r.Console...)
	for i := range r.Console {
		r.Console[i].Text, r.Console[i].Location = m(r.Console[i].Text), m(r.Console[i].Location)
	}
	r.Network = append([]Request{}, r.Network...)
	for i := range r.Network {
		r.Network[i].URL = m(r.Network[i].URL)
	}
	return r
}

func maskStrings(v any, m func(string) string) any {
	switch x := v.(type) {
	case string:
		return m(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = maskStrings(e, m)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskStrings(e, m)
		}
		return out
	}
	return v
}
