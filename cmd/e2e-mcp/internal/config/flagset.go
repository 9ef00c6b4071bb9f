package config

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// NewFlagSet is a subcommand's flag set. It prints nothing itself: its
// caller says a mistake in one line (cmd/e2e-mcp's flagsFailed), and the
// help on -h.
func NewFlagSet(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet("e2e-mcp "+cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// PrintFlags writes the flags of fs, as flag.PrintDefaults does.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// FlagMistake words a flag package error for a person.
func FlagMistake(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + name
	}
	// "invalid value "x" for flag -name: why" as one says it on the
	// command line: "--name x: why".
	for _, prefix := range []string{"invalid value ", "invalid boolean value "} {
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			if v, err := strconv.QuotedPrefix(rest); err == nil {
				rest = rest[len(v):]
				for _, mid := range []string{" for flag -", " for -"} {
					if r, ok := strings.CutPrefix(rest, mid); ok {
						if name, why, ok := strings.Cut(r, ": "); ok {
							return fmt.Sprintf("--%s %s: %s", name, v, why)
						}
					}
				}
			}
		}
	}
	return msg
}
