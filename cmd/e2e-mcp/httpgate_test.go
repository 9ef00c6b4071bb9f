package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSessionOwners(t *testing.T) {
	o := newSessionOwners(time.Hour)
	if !o.mayUse("s1", "alice") {
		t.Error("a session no principal made is left to the transport")
	}
	o.bind("s1", "alice")
	if !o.mayUse("s1", "alice") || o.mayUse("s1", "bob") || o.mayUse("s1", "") {
		t.Error("s1 is alice's alone")
	}
	o.forget("s1")
	if !o.mayUse("s1", "bob") {
		t.Error("a forgotten (deleted) session is unknown again")
	}
	o.bind("s2", "alice")
	e := o.m["s2"]
	e.used = time.Now().Add(-2 * time.Hour)
	o.m["s2"] = e
	if !o.mayUse("s2", "bob") {
		t.Error("an entry past its time-to-live is forgotten")
	}
}

func TestReadUpTo(t *testing.T) {
	b, err := readUpTo(strings.NewReader("hello"), -1, 5)
	if err != nil || string(b) != "hello" {
		t.Errorf("at the limit: %q %v", b, err)
	}
	if _, err := readUpTo(strings.NewReader("hello!"), -1, 5); !errors.Is(err, errTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	big := bytes.Repeat([]byte("x"), 1<<20)
	if _, err := readUpTo(bytes.NewReader(big), 10, 1000); !errors.Is(err, errTooLarge) {
		t.Errorf("a body longer than declared: %v", err)
	}
}
