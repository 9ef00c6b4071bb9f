package eventlog

import (
	"sync"
	"time"
)

// ActionWait is how an action waited for its element to become actionable
// (browser's Page.actionable): what held it back, in order, and whether it
// went on. A tab keeps the newest maxActionWaits ([Waits]), so that two
// replays of a flow can be compared where one failed (e2e-mcp run
// --retries).
type ActionWait struct {
	// Target is the ref or selector the action was given.
	Target string
	Start  time.Time
	Took   time.Duration
	// States are what the element was while the action waited, each from
	// when it began: "missing" (the target matched nothing yet), or the
	// engine's refusal (not_visible, disabled, covered, not_stable...)
	// with its words ("covered by div#toast"). None when it was ready at
	// the first check.
	States []WaitState
	// Ready: the element became actionable and the action went on.
	Ready bool
}

// WaitState is one state of an element an action waited on.
type WaitState struct {
	// Code is "missing" or the engine's refusal code.
	Code string
	// Message says it in words, as a failure would.
	Message string
	// At is when it began, from the wait's start.
	At time.Duration
}

// WaitMissing is the State of a target that matched no element yet.
const WaitMissing = "missing"

const (
	maxActionWaits = 64 // waits a tab keeps
	maxWaitStates  = 12 // states a wait keeps: the first ones, and the last
)

// Waits are a tab's newest action waits. The zero value is empty.
type Waits struct {
	mu    sync.Mutex
	waits ring[ActionWait]
}

// WaitNote follows one action's wait while it runs; [Waits.Done] adds it
// to the tab's waits.
type WaitNote struct {
	w ActionWait
}

// NewWaitNote starts following the wait of an action on target.
func NewWaitNote(target string) *WaitNote {
	return &WaitNote{w: ActionWait{Target: keep(target, MaxURLKept), Start: time.Now()}}
}

// State notes the element's state at a check, when it changed.
func (n *WaitNote) State(code, message string) {
	s := n.w.States
	code, message = keep(code, MaxShortKept), keep(message, MaxShortKept)
	if k := len(s); k > 0 && s[k-1].Code == code && s[k-1].Message == message {
		return
	}
	st := WaitState{Code: code, Message: message, At: time.Since(n.w.Start)}
	if len(s) == maxWaitStates {
		s[len(s)-1] = st // the last state is the one the wait ended in
		return
	}
	n.w.States = append(s, st)
}

// Done ends the wait n, ready or not, and keeps it.
func (l *Waits) Done(n *WaitNote, ready bool) {
	n.w.Took, n.w.Ready = time.Since(n.w.Start), ready
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waits.max == 0 {
		l.waits.max = maxActionWaits
	}
	l.waits.add(n.w)
}

// List is the waits kept, oldest first.
func (l *Waits) List() []ActionWait {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waits.list()
}
