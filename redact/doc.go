// Package redact is the one layer secrets are masked through. A secret is
// marked once, where it enters (a password typed or filled, an HTTP
// credential, a secret-looking header or argument, a flow's E2E_SECRET_n,
// the operator's own credentials), in the [Set] of its scope; every writer
// (tool answers and their structured content, session_errors, the client's
// log, the server's log at every level, flows, Playwright specs, reports,
// JUnit files and artifacts) renders what it writes through a Set. A set
// masks its own values and its parent's; [Find] says where a value stands
// in a text (a short one only as a whole word, so a password "short"
// leaves "shortcuts" alone), and [Set.Positions] masks only where values
// stand, for the arguments an answer repeats to the agent that gave them.
// [Process] masks the server's own log with the values of every set not
// closed, so no answer ever tells one client anything of another's
// secrets.
package redact
