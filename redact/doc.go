// Package redact is the one layer secrets are masked through. A secret is
// marked once, where it enters (a password typed or filled, an HTTP
// credential, a secret-looking header or argument, a flow's E2E_SECRET_n,
// the operator's own credentials), in the [Set] of its scope; every writer
// (tool answers and their structured content, session_errors, the client's
// log, the server's log at every level, flows, Playwright specs, reports,
// JUnit files and artifacts) renders what it writes through a Set. A
// session's set masks its own secrets and the process's; [Process] holds
// every secret of every scope and masks only the server's own log, so no
// answer ever tells one client anything of another's secrets.
package redact
