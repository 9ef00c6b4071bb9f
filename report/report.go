// Package report renders what an agent's session (or a flow's replay) did as
// one self-contained HTML file a person can open from a CI artifact or on a
// phone: every step with its arguments, duration and result, a screenshot
// after each action, each failure's whole answer (its text and every image
// it carried, with captions), the console and network logs, and the dev
// server's command, URL and log tail.
//
// The file needs nothing from the network: its CSS is inline, its images are
// data: URIs, it has no script, and its Content-Security-Policy (default-src
// 'none') keeps a browser from fetching anything it might name. The one
// exception is the session's video, a file beside it (a video is too big to
// inline): a report with one lets images load from its own origin ('self',
// which for a file: report is files) and names only that one. Every string
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
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// Report is what one file shows.
type Report struct {
	Title string
	// Status is "passed", "failed", "flaky" (a flow that passed on a
	// retry) or "" (a session still running).
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
	// Video is the session's video, a file beside the report (the one
	// thing it loads that is not in it), if one was kept.
	Video *Video
}

// Video is a video file the report plays in an <img> (an animated PNG).
type Video struct {
	// Src is its path relative to the report's directory.
	Src     string
	Caption string
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
	// ShotAs, for a step with no Shot, is the (1-based) earlier step
	// whose picture stands for this one: the page looked the same, and
	// the picture is not written twice.
	ShotAs int
	// ShotLeftOut says Render left this step's Shot out (the size cap):
	// a later step's ShotAs then says so.
	ShotLeftOut bool
	// Failure is the whole answer of a failed step, in order.
	Failure []Part
	// Group names the groups of a flow's steps it is in (`- group:`, as
	// Playwright's test.step), outermost first; GroupStart says it is
	// the first of a run of steps in them: a heading goes before it.
	Group      []string
	GroupStart bool
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
	// Secrets masks every string the file shows (redact: the values
	// marked secret, secret-looking arguments and headers). Nil masks
	// secret-looking arguments only.
	Secrets *redact.Set
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
	// leftOut says whether step n's (1-based) picture was left out.
	"leftOut": func(steps []Step, n int) bool { return n >= 1 && n <= len(steps) && steps[n-1].ShotLeftOut },
	"path":    func(names []string) string { return strings.Join(names, " › ") },
	"css":     func() template.CSS { return template.CSS(css) }, //nolint:gosec // our own embedded style sheet
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
// string first, then, while the file is over its cap, leaves out what a
// reader misses least: the oldest images, then the oldest console and
// network entries, then the longest texts of steps (clipped), so that the
// cap holds whatever the session logged (escaping can make markup several
// times its size).
func Render(r Report, o Options) ([]byte, error) {
	maxBytes := o.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	secrets := o.Secrets
	if secrets == nil {
		secrets = redact.NewSet(nil)
	}
	r = masked(r, secrets)
	var out bytes.Buffer
	var left leftOut
	for {
		out.Reset()
		view := r
		view.Notes = append(append([]string{}, r.Notes...), left.notes(maxBytes)...)
		if err := tmpl.Execute(&out, view); err != nil {
			return nil, err
		}
		over := out.Len() - maxBytes
		if over <= 0 {
			return out.Bytes(), nil
		}
		switch {
		case left.add(&left.images, dropOldestImages(&r, over)):
		case left.add(&left.logs, dropOldestLogs(&r, over)):
		case left.add(&left.texts, clipTexts(&r, over)):
		default:
			return out.Bytes(), nil // only the skeleton is left
		}
	}
}

// leftOut counts what Render left out to keep a file under its cap.
type leftOut struct{ images, logs, texts int }

// add counts n into *to and says whether anything was left out.
func (l *leftOut) add(to *int, n int) bool {
	*to += n
	return n > 0
}

func (l leftOut) notes(maxBytes int) []string {
	var out []string
	mb := maxBytes >> 20
	if l.images > 0 {
		out = append(out, fmt.Sprintf("%d screenshot(s) left out (the oldest first) to keep this file under %d MB.", l.images, mb))
	}
	if l.logs > 0 {
		out = append(out, fmt.Sprintf("%d console and network entries left out (the oldest first) to keep this file under %d MB.", l.logs, mb))
	}
	if l.texts > 0 {
		out = append(out, fmt.Sprintf("%d step text(s) clipped to keep this file under %d MB.", l.texts, mb))
	}
	return out
}

// dropOldestLogs leaves out the oldest console messages and requests, from
// the longer log first, until about over bytes are gone; it returns how
// many entries it left out.
func dropOldestLogs(r *Report, over int) int {
	n, freed := 0, 0
	for freed < over && (len(r.Console) > 0 || len(r.Network) > 0) {
		if len(r.Console) >= len(r.Network) && len(r.Console) > 0 {
			c := r.Console[0]
			freed += htmlSize(c.Text) + htmlSize(c.Location) + 64
			r.Console = r.Console[1:]
		} else {
			q := r.Network[0]
			freed += htmlSize(q.URL) + 64
			r.Network = r.Network[1:]
		}
		n++
	}
	return n
}

// clipTexts clips the longest step results and failure texts to a tenth
// of what they were (at least 1 KB kept each), longest first, until about
// over bytes are gone; it returns how many it clipped.
func clipTexts(r *Report, over int) int {
	type ref struct{ s *string }
	var all []ref
	for i := range r.Steps {
		st := &r.Steps[i]
		all = append(all, ref{&st.Result})
		for j := range st.Failure {
			all = append(all, ref{&st.Failure[j].Text})
		}
	}
	sort.Slice(all, func(i, j int) bool { return len(*all[i].s) > len(*all[j].s) })
	n, freed := 0, 0
	for _, t := range all {
		if freed >= over || len(*t.s) <= 2<<10 {
			break
		}
		keep := max(len(*t.s)/10, 1<<10)
		before := htmlSize(*t.s)
		*t.s = clipUTF8(*t.s, keep) + fmt.Sprintf("\n(clipped from %d bytes to keep the report small)", len(*t.s))
		freed += before - htmlSize(*t.s)
		n++
	}
	return n
}

// clipUTF8 is the first n bytes of s, not cutting a character.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// htmlSize is about what s takes in the file, escaped.
func htmlSize(s string) int {
	return len(s) + 4*strings.Count(s, "<") + 4*strings.Count(s, ">") + 4*strings.Count(s, "&") + 5*strings.Count(s, `"`) + 4*strings.Count(s, "'")
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
			r.Steps[i].Shot, r.Steps[i].ShotLeftOut = nil, true
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

// Masked is what a secret is shown as.
const Masked = redact.Mask

// masked is r with the secrets masked in every string it shows.
func masked(r Report, secrets *redact.Set) Report {
	m := secrets.String
	r.Title, r.Summary = m(r.Title), m(r.Summary)
	r.Meta = append([]KV{}, r.Meta...)
	for i := range r.Meta {
		r.Meta[i].Value = m(r.Meta[i].Value)
	}
	r.Notes = append([]string{}, r.Notes...)
	for i := range r.Notes {
		r.Notes[i] = m(r.Notes[i])
	}
	if r.Video != nil {
		v := *r.Video
		v.Caption = m(v.Caption)
		r.Video = &v
	}
	r.Steps = append([]Step{}, r.Steps...)
	for i := range r.Steps {
		s := &r.Steps[i]
		s.Args = secrets.Args(s.Args)
		s.Result = m(s.Result)
		s.Group = append([]string{}, s.Group...)
		for j := range s.Group {
			s.Group[j] = m(s.Group[j])
		}
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
