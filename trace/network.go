package trace

import (
	"fmt"
	"mime"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// network is trace.network: one resource-snapshot line (a HAR entry with
// Playwright's fields) per request, in the order they started. Bodies
// are kept within the budgets (MaxBody, MaxBodies), the rest said.
func (t *Trace) network(a *archive) (jsonl []byte, note string) {
	reqs := append([]Request(nil), t.Requests...)
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Start.Before(reqs[j].Start) })
	b := &bodyBudget{left: MaxBodies}
	var out []any
	for _, r := range reqs {
		out = append(out, map[string]any{"type": "resource-snapshot", "snapshot": harEntry(a, b, r)})
	}
	return lines(out), b.note()
}

// harEntry is one request as a HAR entry, as the viewer's network tab
// reads it.
func harEntry(a *archive, b *bodyBudget, r Request) map[string]any {
	ms := float64(r.Duration.Microseconds()) / 1000
	req := map[string]any{"method": r.Method, "url": r.URL, "httpVersion": "HTTP/1.1", "cookies": []any{},
		"headers": headers(r.RequestHeaders), "queryString": queryString(r.URL), "headersSize": -1, "bodySize": len(r.PostData)}
	if len(r.PostData) > 0 {
		pd := map[string]any{"mimeType": headerValue(r.RequestHeaders, "Content-Type")}
		data, comment := b.keep(r.PostData, pd["mimeType"].(string))
		switch {
		case data == nil:
		case utf8.Valid(data):
			pd["text"] = string(data)
		default:
			pd["_file"] = a.add("resources", data, ".dat")
		}
		if comment != "" {
			pd["comment"] = comment
		}
		req["postData"] = pd
	}
	status := r.Status
	if status == 0 && r.Failure != "" {
		status = -1 // no response: the viewer says "canceled", as for Playwright's own
	}
	mimeType := r.MIME
	if mimeType == "" {
		mimeType = "x-unknown"
	}
	content := map[string]any{"size": len(r.Body), "mimeType": mimeType, "compression": 0}
	switch {
	case len(r.Body) > 0:
		data, comment := b.keep(r.Body, mimeType)
		if data != nil {
			content["_file"] = a.add("resources", data, extension(mimeType))
		}
		if comment != "" {
			content["comment"] = comment
		}
	case r.BodyNote != "":
		content["comment"] = "no body: " + r.BodyNote
	}
	resp := map[string]any{"status": status, "statusText": r.StatusText, "httpVersion": "HTTP/1.1", "cookies": []any{},
		"headers": headers(r.ResponseHeaders), "content": content, "headersSize": -1, "bodySize": len(r.Body),
		"redirectURL": headerValue(r.ResponseHeaders, "Location"), "_transferSize": -1}
	if r.Failure != "" {
		resp["_failureText"] = r.Failure
	}
	e := map[string]any{"startedDateTime": r.Start.UTC().Format(time.RFC3339Nano), "time": ms,
		"request": req, "response": resp, "cache": map[string]any{},
		"timings":        map[string]any{"dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": ms, "receive": 0},
		"_monotonicTime": mono(r.Start), "_resourceType": strings.ToLower(r.Type)}
	if r.Page != "" {
		e["pageref"] = r.Page
	}
	return e
}

// bodyBudget keeps bodies within MaxBody each and MaxBodies in all, and
// counts what it clipped and left out.
type bodyBudget struct {
	left             int
	clipped, dropped int
}

// keep is what the trace keeps of a body, nil for nothing, and what the
// entry says of it.
func (b *bodyBudget) keep(data []byte, mimeType string) ([]byte, string) {
	if b.left <= 0 {
		b.dropped++
		return nil, fmt.Sprintf("left out: the trace's bodies reached %d MB", MaxBodies>>20)
	}
	if len(data) <= MaxBody && len(data) <= b.left {
		b.left -= len(data)
		return data, ""
	}
	limit := min(MaxBody, b.left)
	if !isText(mimeType, data) {
		b.dropped++
		return nil, fmt.Sprintf("left out: %d bytes, over the %d KB a trace keeps of one body", len(data), limit>>10)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	b.left -= cut
	b.clipped++
	return data[:cut], fmt.Sprintf("clipped: the first %d of %d bytes", cut, len(data))
}

// note says what the budget clipped and left out, or "".
func (b *bodyBudget) note() string {
	var parts []string
	if b.clipped > 0 {
		parts = append(parts, fmt.Sprintf("%d text bodies clipped", b.clipped))
	}
	if b.dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d bodies left out", b.dropped))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("network: %s (a trace keeps %d KB of a body and %d MB in all; each entry's content comment says what it left out)",
		strings.Join(parts, ", "), MaxBody>>10, MaxBodies>>20)
}

// isText says whether a body is text, which can be clipped and still read.
func isText(mimeType string, data []byte) bool {
	m, _, _ := mime.ParseMediaType(mimeType)
	switch {
	case strings.HasPrefix(m, "text/"), strings.HasSuffix(m, "json"), strings.HasSuffix(m, "+xml"),
		strings.Contains(m, "javascript"), m == "application/xml", m == "application/x-www-form-urlencoded":
		return true
	}
	return m == "" && utf8.Valid(data[:min(len(data), 1024)])
}

// extension is a file extension for a body of this type, so that the
// viewer serves it as what it is.
func extension(mimeType string) string {
	m, _, _ := mime.ParseMediaType(mimeType)
	switch {
	case m == "text/html":
		return ".html"
	case strings.HasSuffix(m, "json"):
		return ".json"
	case m == "text/css":
		return ".css"
	case strings.Contains(m, "javascript"):
		return ".js"
	case strings.HasPrefix(m, "text/"):
		return ".txt"
	case strings.HasPrefix(m, "image/"):
		if sub := strings.TrimPrefix(m, "image/"); !strings.ContainsAny(sub, "+.;/") {
			return "." + sub
		}
	}
	return ".dat"
}

// headers are HAR headers, sorted by name.
func headers(hs []Header) []any {
	sorted := append([]Header(nil), hs...)
	sort.SliceStable(sorted, func(i, j int) bool { return strings.ToLower(sorted[i].Name) < strings.ToLower(sorted[j].Name) })
	out := make([]any, len(sorted))
	for i, h := range sorted {
		out[i] = h
	}
	return out
}

// headerValue is the first value of the header name (any case), or "".
func headerValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// queryString is a URL's query as HAR's name and value pairs.
func queryString(raw string) []any {
	u, err := url.Parse(raw)
	out := []any{}
	if err != nil || u.RawQuery == "" {
		return out
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if dk, err := url.QueryUnescape(k); err == nil {
			k = dk
		}
		if dv, err := url.QueryUnescape(v); err == nil {
			v = dv
		}
		out = append(out, Header{Name: k, Value: v})
	}
	return out
}
