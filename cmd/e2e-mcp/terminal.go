package main

import (
	"fmt"
	"io"
	"os"
)

// stdioHint is what a person who starts the stdio server at a terminal
// reads: the server answers only a client, so without it the silent
// prompt looks like a hang.
const stdioHint = "e2e-mcp speaks MCP over stdin/stdout and waits for a client: an agent starts it " +
	"(see the README's Quick start). Ctrl-D or Ctrl-C ends it."

// hintAtTerminal writes stdioHint on stderr when stdin is a terminal.
// Stdout is left alone: it carries the protocol.
func hintAtTerminal(stdin io.Reader, stderr io.Writer) {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintln(stderr, stdioHint)
	}
}
