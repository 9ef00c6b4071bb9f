package runner

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/e2e-mcp/e2e-mcp/mcptools"
)

// htmlIndex is run --reporter html: beside each flow's HTML report (the
// htmlReports flow writer, in the same directory), an index.html listing
// every flow with its outcome, its failure or healed steps, and links to
// its report, trace and video. merge-reports writes the same page over
// the flows of every shard.
type htmlIndex struct {
	dir   string
	title string
}

func (h *htmlIndex) flowEnded(flowResult) {}

func (h *htmlIndex) runEnded(s summary) error {
	b, err := renderIndex(h.dir, h.title, s)
	if err != nil {
		return err
	}
	if err := mcptools.WriteUserFile(h.dir, indexStem+".html", b); err != nil {
		return fmt.Errorf("the HTML index: %w", err)
	}
	return nil
}

// indexRow is one flow in the index.
type indexRow struct {
	Name, File, Outcome, Took, Detail string
	Report, Trace, Video              string // links relative to the index
	Actors                            []indexActor
}

// indexActor is an actor's links in the index.
type indexActor struct{ Name, Report, Trace string }

// renderIndex is the index page of the results, its links relative to
// dir. Every text goes through html/template; each was masked where it
// entered the result.
func renderIndex(dir, title string, s summary) ([]byte, error) {
	var st runStats
	var rows []indexRow
	link := func(p string) string {
		if p == "" {
			return ""
		}
		return relativeTo(dir, p)
	}
	for _, r := range s.results {
		o := r.outcome()
		st.count(o)
		row := indexRow{Name: r.name, File: r.file, Outcome: string(o), Took: fmt.Sprintf("%.1fs", r.took.Seconds()),
			Report: link(r.report), Trace: link(r.trace), Video: link(r.video)}
		for _, a := range r.actorFiles {
			row.Actors = append(row.Actors, indexActor{Name: a.actor, Report: link(a.report), Trace: link(a.trace)})
		}
		switch o {
		case outcomeFailed:
			row.Detail = fmt.Sprintf("step %d, %s: %s", r.failedStep, r.step, r.headline)
		case outcomeHealed:
			row.Detail = stepsHealed(len(r.heals))
		case outcomeFlaky:
			row.Detail = fmt.Sprintf("passed on attempt %d", r.tries())
		}
		rows = append(rows, row)
	}
	var b bytes.Buffer
	err := indexPage.Execute(&b, map[string]any{"Title": title, "Stats": statsLine(st, s), "Rows": rows})
	return b.Bytes(), err
}

// indexPage is the index: self-contained (inline style, no script), and
// its Content-Security-Policy lets it fetch nothing; its links open the
// reports beside it.
var indexPage = template.Must(template.New("index").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1f2328}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #d0d7de;vertical-align:top}
.outcome{font-weight:600;text-transform:uppercase;font-size:12px}
.passed{color:#1a7f37}.failed{color:#cf222e}.flaky,.healed{color:#9a6700}.skipped{color:#656d76}
.file,.took{color:#656d76}
</style></head><body>
<h1>{{.Title}}</h1>
<p id="stats">{{.Stats}}</p>
<table><thead><tr><th>outcome</th><th>flow</th><th>file</th><th>time</th><th>what happened</th><th>files</th></tr></thead><tbody>
{{range .Rows}}<tr class="flow {{.Outcome}}">
<td class="outcome {{.Outcome}}">{{.Outcome}}</td>
<td class="name">{{if .Report}}<a class="report" href="{{.Report}}">{{.Name}}</a>{{else}}{{.Name}}{{end}}</td>
<td class="file">{{.File}}</td><td class="took">{{.Took}}</td><td class="detail">{{.Detail}}</td>
<td>{{if .Trace}}<a class="trace" href="{{.Trace}}">trace</a> {{end}}{{if .Video}}<a class="video" href="{{.Video}}">video</a>{{end}}{{range .Actors}}
<br><span class="actor">{{.Name}}:</span> {{if .Report}}<a class="actor-report" href="{{.Report}}">report</a> {{end}}{{if .Trace}}<a class="actor-trace" href="{{.Trace}}">trace</a>{{end}}{{end}}</td>
</tr>
{{end}}</tbody></table>
</body></html>
`))

// indexTitle is the index page's title: the run, or the shard it was.
func indexTitle(o Options) string {
	if o.title != "" {
		return o.title
	}
	if o.Shard.Total > 0 {
		return "e2e-mcp run, shard " + o.Shard.String()
	}
	return "e2e-mcp run"
}
