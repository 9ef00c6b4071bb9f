package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// setupTree is a suite of setup flows: checkout and cart need login,
// admin needs login and staff; staff needs login; solo needs nothing.
func setupTree(t *testing.T) string {
	dir := t.TempDir()
	fl := func(name, needs string) string {
		s := "name: " + name + "\n"
		if needs != "" {
			s += "needs: " + needs + "\n"
		}
		return s + "steps: [back]\n"
	}
	writeTree(t, dir, map[string]string{
		"setup/login.yaml":   fl("log in", ""),
		"setup/staff.yaml":   fl("staff", "login.yaml"),
		"shop/checkout.yaml": fl("checkout", "../setup/login.yaml"),
		"shop/cart.yaml":     fl("cart", "../setup/login.yaml"),
		"admin.yaml":         fl("admin", "[setup/login.yaml, setup/staff.yaml]"),
		"solo.yaml":          fl("solo", ""),
	})
	return dir
}

// testNames are the tests' names, with the names of the setup flows each
// needs ("cart<log in"), and a * for a setup flow.
func testNames(s *Suite) string {
	var out []string
	for _, tc := range s.tests {
		n := tc.name
		if len(tc.needs) > 0 {
			n += "<" + strings.Join(tc.needNames(), "+")
		}
		if tc.setup != nil {
			n += "*"
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}

// TestLoadSetups: a flow's needs run before it, once each however many
// flows need them and however often --repeat-each runs the others; a
// needed flow --grep did not select runs all the same, and --list shows
// what each flow needs.
func TestLoadSetups(t *testing.T) {
	dir := setupTree(t)
	p := func(f string) string { return filepath.Join(dir, f) }
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Files: []string{p("shop/checkout.yaml"), p("shop/cart.yaml")}}, "log in*, checkout<log in, cart<log in"},
		{Options{Files: []string{p("admin.yaml")}}, "log in*, staff<log in*, admin<log in+staff"},
		// A setup flow named too runs once, before the flows that need it.
		{Options{Files: []string{p("shop/checkout.yaml"), p("setup/login.yaml"), p("solo.yaml")}}, "log in*, checkout<log in, solo"},
		{Options{Files: []string{dir}, Grep: "checkout|solo"}, "log in*, checkout<log in, solo"},
		{Options{Files: []string{p("shop/cart.yaml"), p("solo.yaml")}, RepeatEach: 2}, "log in*, cart<log in, solo, cart (2)<log in, solo (2)"},
	} {
		s, err := Load(c.o)
		if err != nil {
			t.Fatalf("%+v: %v", c.o, err)
		}
		if got := testNames(s); got != c.want {
			t.Errorf("%v grep %q: %s, want %s", c.o.Files, c.o.Grep, got, c.want)
		}
	}
	s, err := Load(Options{Files: []string{p("admin.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	List(s, &out, &errs)
	want := "Listing flows:\n  " + p("setup/login.yaml") + " › log in\n  " + p("setup/staff.yaml") + " › staff (needs log in)\n  " +
		p("admin.yaml") + " › admin (needs log in, staff)\nTotal: 3 flows in 3 files\n"
	if out.String() != want {
		t.Errorf("List:\n%s\nwant\n%s", out.String(), want)
	}
}

// TestLoadSetupErrors: a needs: naming a missing file, and flows that
// need each other, stop the run before it starts, naming the files.
func TestLoadSetupErrors(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.yaml":      "name: a\nneeds: b.yaml\nsteps: [back]\n",
		"b.yaml":      "name: b\nneeds: sub/c.yaml\nsteps: [back]\n",
		"sub/c.yaml":  "name: c\nneeds: ../a.yaml\nsteps: [back]\n",
		"self.yaml":   "name: self\nneeds: self.yaml\nsteps: [back]\n",
		"lost.yaml":   "name: lost\nneeds: [b.yaml, gone/login.yaml]\nsteps: [back]\n",
		"bad.yaml":    "name: bad\nneeds: broken.yaml\nsteps: [back]\n",
		"broken.yaml": "name: broken\nsteps: [jump]\n",
	})
	p := func(f string) string { return filepath.Join(dir, f) }
	for file, want := range map[string]string{
		"a.yaml":    "flows that need each other: " + p("a.yaml") + " needs " + p("b.yaml") + " needs " + p("sub/c.yaml") + " needs " + filepath.Join(dir, "sub", "../a.yaml"),
		"self.yaml": "flows that need each other: " + p("self.yaml") + " needs " + p("self.yaml"),
		"bad.yaml":  p("bad.yaml") + ": needs broken.yaml: " + p("broken.yaml") + `: line 2: unknown action "jump"`,
	} {
		_, err := Load(Options{Files: []string{p(file)}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", file, err, want)
		}
	}
	// lost.yaml needs b.yaml, whose cycle is found first; alone, gone/.
	writeTree(t, dir, map[string]string{"lost.yaml": "name: lost\nneeds: [gone/login.yaml]\nsteps: [back]\n"})
	_, err := Load(Options{Files: []string{p("lost.yaml")}})
	if err == nil || !strings.Contains(err.Error(), p("lost.yaml")+": needs gone/login.yaml: open "+p("gone/login.yaml")+": no such file") {
		t.Errorf("a missing setup flow: %v", err)
	}
}

// TestShardSetups: --shard splits the flows no other needs, and a shard
// runs the setup flows its flows need: each shard that needs log in runs
// it, and the shards together run every other flow once.
func TestShardSetups(t *testing.T) {
	dir := setupTree(t)
	seen := map[string]int{}
	for i := 1; i <= 2; i++ {
		s, err := Load(Options{Files: []string{dir}, Shard: Shard{Current: i, Total: 2}})
		if err != nil {
			t.Fatal(err)
		}
		got := testNames(s)
		for _, tc := range s.tests {
			seen[tc.name]++
		}
		want := map[int]string{1: "log in*, staff<log in*, admin<log in+staff, cart<log in", 2: "log in*, checkout<log in, solo"}[i]
		if got != want {
			t.Errorf("shard %d/2: %s, want %s", i, got, want)
		}
	}
	for name, n := range seen {
		if n != 1 && name != "log in" {
			t.Errorf("%s runs in %d shards", name, n)
		}
	}
}
