package runner

import (
	"cmp"
	"fmt"
	"time"

	"github.com/e2e-mcp/e2e-mcp/flow"
	"github.com/e2e-mcp/e2e-mcp/redact"
)

// The JSON report (run --reporter json) and the blob (run --reporter blob)
// are one document, runDoc: what a run found, flow by flow. A blob holds
// it with its files' paths relative to the blob's files, and
// merge-reports reads flows back into results (resultOf) that every
// reporter takes as a run's own. docOf and resultOf carry every field of
// flowResult (TestDocCarriesEveryField): a field added there is added
// here, or merged reports lose it.

// docVersion is the version of runDoc; merge-reports refuses another.
const docVersion = 1

// runDoc is a run as the JSON report and the blob say it.
type runDoc struct {
	Version int `json:"version"`
	// Shard is the part of the suite the run replayed, as --shard took
	// it ("" for all of it).
	Shard      string   `json:"shard,omitempty"`
	DurationMs int64    `json:"durationMs"`
	Stats      runStats `json:"stats"`
	// Heal and HealOK are the run's --heal and --heal-ok: a merge counts
	// and judges healed flows as the run did.
	Heal   bool      `json:"heal,omitempty"`
	HealOK bool      `json:"healOK,omitempty"`
	Flows  []flowDoc `json:"flows"`
}

// runStats count the flows by outcome.
type runStats struct {
	Flows   int `json:"flows"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Flaky   int `json:"flaky"`
	Healed  int `json:"healed"`
	Skipped int `json:"skipped"`
}

// flowDoc is one flow's result.
type flowDoc struct {
	Name       string    `json:"name"`
	File       string    `json:"file"`
	Outcome    outcome   `json:"outcome"`
	Attempts   int       `json:"attempts"`
	DurationMs int64     `json:"durationMs"`
	Steps      []stepDoc `json:"steps"`
	Error      *errorDoc `json:"error,omitempty"`
	Heals      []healDoc `json:"heals,omitempty"`
	// HealedFile is the repaired flow --heal wrote, HealDiff its diff and
	// HealNotes the healed steps it does not hold.
	HealedFile string   `json:"healedFile,omitempty"`
	HealDiff   string   `json:"healDiff,omitempty"`
	HealNotes  []string `json:"healNotes,omitempty"`
	// The flow's files: the failure's artifacts directory, its HTML
	// report, trace and video (and what the video holds).
	Artifacts string `json:"artifacts,omitempty"`
	Report    string `json:"report,omitempty"`
	Trace     string `json:"trace,omitempty"`
	Video     string `json:"video,omitempty"`
	VideoNote string `json:"videoNote,omitempty"`
	// Actors are each actor's report and trace (a flow with actor:
	// steps).
	Actors []actorDoc `json:"actors,omitempty"`
	// Earlier are the attempts that failed before this one (--retries),
	// first first, and Why says of a flaky flow where the last of them and
	// this one parted and what differed.
	Earlier []flowDoc `json:"earlier,omitempty"`
	Why     string    `json:"why,omitempty"`
	// Skipped says why a skipped flow did not run.
	Skipped string `json:"skipped,omitempty"`
}

// stepDoc is one step of a flow: what it did, where it is in the flow
// file, how it went.
// actorDoc is an actor's files.
type actorDoc struct {
	Actor  string `json:"actor"`
	Report string `json:"report,omitempty"`
	Trace  string `json:"trace,omitempty"`
}

type stepDoc struct {
	Action  string  `json:"action"`
	Title   string  `json:"title"`
	Line    int     `json:"line,omitempty"`
	Column  int     `json:"column,omitempty"`
	Outcome outcome `json:"outcome"`
}

// errorDoc is a failed flow's error: the step (0: before the first, while
// its session was prepared), its type and message (the headline), the
// whole answer, and the diagnosis of a drifted target.
type errorDoc struct {
	Step      int    `json:"step"`
	Title     string `json:"title"`
	Type      string `json:"type"`
	Message   string `json:"message"`
	Details   string `json:"details,omitempty"`
	Diagnosis string `json:"diagnosis,omitempty"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
}

// healDoc is a step --heal replayed on another element.
type healDoc struct {
	Step   int    `json:"step"`
	Action string `json:"action"`
	From   string `json:"from"`
	To     string `json:"to"`
	Why    string `json:"why"`
}

// docOf is the run that ended as s as runDoc, each flow's files' paths
// through path (the blob makes them relative to its files). What a
// result does not hold masked yet (the healed steps' locators) is masked
// with secrets.
func docOf(s summary, o Options, secrets *redact.Set, path func(string) string) runDoc {
	d := runDoc{Version: docVersion, Shard: o.Shard.String(), DurationMs: s.took.Milliseconds(),
		Heal: o.Heal != HealOff, HealOK: o.HealOK, Flows: []flowDoc{}}
	for _, r := range s.results {
		f := flowDocOf(r, secrets, path)
		d.Flows = append(d.Flows, f)
		d.Stats.count(f.Outcome)
	}
	return d
}

// count adds a flow of outcome o.
func (st *runStats) count(o outcome) {
	st.Flows++
	switch o {
	case outcomePassed:
		st.Passed++
	case outcomeFailed:
		st.Failed++
	case outcomeFlaky:
		st.Flaky++
	case outcomeHealed:
		st.Healed++
	case outcomeSkipped:
		st.Skipped++
	}
}

// flowDocOf is one result as flowDoc.
func flowDocOf(r flowResult, secrets *redact.Set, path func(string) string) flowDoc {
	f := flowDoc{Name: r.name, File: r.file, Outcome: r.outcome(), Skipped: r.skipped, Attempts: r.tries(), DurationMs: r.took.Milliseconds(),
		Steps: []stepDoc{}, HealedFile: r.healedFile, HealDiff: r.healDiff, HealNotes: r.healNotes,
		Artifacts: path(r.artifacts), Report: path(r.report), Trace: path(r.trace), Video: path(r.video), VideoNote: r.videoNote}
	for _, a := range r.actorFiles {
		f.Actors = append(f.Actors, actorDoc{Actor: a.actor, Report: path(a.report), Trace: path(a.trace)})
	}
	for i, st := range r.steps {
		f.Steps = append(f.Steps, stepDoc{Action: st.action, Title: st.title, Line: st.pos.Line, Column: st.pos.Column, Outcome: r.stepOutcome(i + 1)})
	}
	if r.failed {
		at := r.failedAt()
		f.Error = &errorDoc{Step: r.failedStep, Title: r.step, Type: r.errType, Message: r.headline, Details: r.message,
			Diagnosis: r.diagnosis, Line: at.Line, Column: at.Column}
	}
	for _, h := range r.heals {
		f.Heals = append(f.Heals, healDoc{Step: h.step, Action: h.action, From: secrets.String(h.from), To: secrets.String(h.to), Why: secrets.String(h.why)})
	}
	for _, e := range r.earlier {
		f.Earlier = append(f.Earlier, flowDocOf(e, secrets, path))
	}
	f.Why = r.why
	return f
}

// resultOf is a flow of a blob as a result, its files' paths through
// path (merge-reports puts them under its directory); an outcome this
// version does not know is an error.
func resultOf(f flowDoc, path func(string) string) (flowResult, error) {
	r := flowResult{file: f.File, name: f.Name, took: time.Duration(f.DurationMs) * time.Millisecond, why: f.Why,
		healedFile: f.HealedFile, healDiff: f.HealDiff, healNotes: f.HealNotes,
		artifacts: path(f.Artifacts), report: path(f.Report), trace: path(f.Trace), video: path(f.Video), videoNote: f.VideoNote}
	switch f.Outcome {
	case outcomeFailed:
		if f.Error == nil {
			return r, fmt.Errorf("flow %s failed with no error", f.Name)
		}
	case outcomeSkipped:
		r.skipped = cmp.Or(f.Skipped, "not run")
	case outcomePassed, outcomeFlaky, outcomeHealed:
	default:
		return r, fmt.Errorf("flow %s: outcome %q is none of %v", f.Name, f.Outcome, outcomes)
	}
	if e := f.Error; e != nil {
		r.failed, r.failedStep, r.step, r.errType, r.headline, r.message, r.diagnosis = true, e.Step, e.Title, e.Type, e.Message, e.Details, e.Diagnosis
	}
	for _, a := range f.Actors {
		r.actorFiles = append(r.actorFiles, actorFiles{actor: a.Actor, report: path(a.Report), trace: path(a.Trace)})
	}
	for _, st := range f.Steps {
		r.steps = append(r.steps, stepInfo{action: st.Action, title: st.Title, pos: flow.Pos{Line: st.Line, Column: st.Column}})
	}
	for _, h := range f.Heals {
		r.heals = append(r.heals, heal{step: h.Step, action: h.Action, from: h.From, to: h.To, why: h.Why})
	}
	for _, e := range f.Earlier {
		er, err := resultOf(e, path)
		if err != nil {
			return r, fmt.Errorf("flow %s, an earlier attempt: %w", f.Name, err)
		}
		r.earlier = append(r.earlier, er)
	}
	if r.tries() != f.Attempts {
		return r, fmt.Errorf("flow %s: %d attempts, but it holds %d", f.Name, f.Attempts, r.tries())
	}
	if got := r.outcome(); got != f.Outcome {
		return r, fmt.Errorf("flow %s: outcome %q, but its steps, attempts and heals say %q", f.Name, f.Outcome, got)
	}
	return r, nil
}

// samePath is the identity: the JSON report's paths are the run's.
func samePath(p string) string { return p }
