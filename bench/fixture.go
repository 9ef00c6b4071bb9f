package main

import (
	"context"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/internal/bigpages"
)

// bigRows is the number of rows of the big table page.
const bigRows = 1500

// Names the scenarios look for in the snapshots.
const (
	formText      = "free 14-day trial" // the form page's paragraph: is page text in the snapshot?
	submitName    = "Create account"
	welcomeText   = "Welcome, Ada Lovelace"
	bigClickRow   = 750
	bigShippedFmt = "Order %d shipped"
)

// fixture serves the pages every server is driven through, on loopback, and
// records what the pages post back so a scenario can check that its fill and
// click really reached the page.
type fixture struct {
	srv  *http.Server
	base string

	mu      sync.Mutex
	signups []string
	shipped []string
	done    []string        // what the big pages of the task scenario report
	pings   map[string]bool // the concurrent scenario's clicks, by "client-visit"

	formPage, tablePage []byte
}

func newFixture() (*fixture, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &fixture{base: "http://" + ln.Addr().String(), formPage: []byte(formHTML), tablePage: tableHTML(bigRows), pings: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /form", f.page(f.formPage))
	mux.HandleFunc("GET /table", f.page(f.tablePage))
	mux.HandleFunc("GET /viewport", f.page([]byte(viewportHTML)))
	mux.HandleFunc("GET /page/{n}", func(w http.ResponseWriter, r *http.Request) {
		f.page([]byte(smallPage(r.PathValue("n"))))(w, r)
	})
	mux.HandleFunc("GET /c/{client}/{visit}", func(w http.ResponseWriter, r *http.Request) {
		c, err1 := strconv.Atoi(r.PathValue("client"))
		v, err2 := strconv.Atoi(r.PathValue("visit"))
		if err1 != nil || err2 != nil {
			http.NotFound(w, r)
			return
		}
		f.page([]byte(clientPage(c, v)))(w, r)
	})
	mux.HandleFunc("POST /api/ping", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 64))
		f.mu.Lock()
		f.pings[string(b)] = true
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("POST /api/signup", func(w http.ResponseWriter, r *http.Request) {
		f.record(&f.signups, r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("POST /api/ship", func(w http.ResponseWriter, r *http.Request) {
		f.record(&f.shipped, r)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	for _, p := range bigpages.All() {
		mux.HandleFunc("GET /big/"+p.Name, f.page([]byte(p.WithReport("/api/done"))))
	}
	mux.HandleFunc("POST /api/done", func(w http.ResponseWriter, r *http.Request) {
		f.record(&f.done, r)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	f.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = f.srv.Serve(ln) }()
	return f, nil
}

func (f *fixture) page(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	}
}

func (f *fixture) record(into *[]string, r *http.Request) {
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	f.mu.Lock()
	*into = append(*into, string(b))
	f.mu.Unlock()
}

// reset forgets what was posted, before a scenario that checks it.
func (f *fixture) reset() {
	f.mu.Lock()
	f.signups, f.shipped, f.done = nil, nil, nil
	f.mu.Unlock()
}

// posted waits up to d for a post into list containing all of want.
func (f *fixture) posted(list *[]string, d time.Duration, want ...string) (string, bool) {
	deadline := time.Now().Add(d)
	for {
		f.mu.Lock()
		var last string
		for _, s := range *list {
			last = s
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(s, w)
			}
			if ok {
				f.mu.Unlock()
				return s, true
			}
		}
		f.mu.Unlock()
		if time.Now().After(deadline) {
			return last, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pinged says whether the page of this client and visit posted its ping.
func (f *fixture) pinged(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pings[id]
}

func (f *fixture) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = f.srv.Shutdown(ctx)
}

func (f *fixture) url(path string) string { return f.base + path }

const formHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign up</title>
<style>body{font-family:sans-serif;max-width:40em;margin:2em auto} label{display:block;margin:.5em 0}</style></head>
<body>
<header><nav aria-label="Main"><a href="/page/1">Home</a> <a href="/page/2">Pricing</a> <a href="/page/3">Docs</a></nav></header>
<main>
<h1>Sign up</h1>
<p>Create your account to start a free 14-day trial. No credit card needed.</p>
<form id="signup">
  <label>Full name <input name="name" autocomplete="name" required></label>
  <label>Email <input name="email" type="email" autocomplete="email" required></label>
  <label>Password <input name="password" type="password" autocomplete="new-password" required minlength="8"></label>
  <label>Plan <select name="plan"><option>Free</option><option>Team</option><option>Enterprise</option></select></label>
  <label><input type="checkbox" name="news"> Send me product news</label>
  <button type="submit">Create account</button>
</form>
<p id="status" role="status"></p>
</main>
<footer><p>Already have an account? <a href="/page/4">Log in</a></p></footer>
<script>
document.getElementById('signup').addEventListener('submit', async (e) => {
  e.preventDefault();
  const data = Object.fromEntries(new FormData(e.target));
  await fetch('/api/signup', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(data)});
  e.target.hidden = true;
  document.getElementById('status').textContent = 'Welcome, ' + data.name + '! We sent a confirmation link to ' + data.email + '.';
});
</script>
</body></html>`

func smallPage(n string) string {
	n = html.EscapeString(n)
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ` + n + `</title></head><body>
<nav aria-label="Main"><a href="/page/1">Home</a> <a href="/page/2">Pricing</a> <a href="/form">Sign up</a></nav>
<main><h1>Page ` + n + `</h1><p>A short page for warm navigations: a heading, a paragraph and a few links.</p>
<ul><li><a href="/page/5">Changelog</a></li><li><a href="/page/6">Status</a></li></ul>
<button type="button">Subscribe</button></main></body></html>`
}

// clientLabel is the heading of one client's page in the concurrent
// scenario: its snapshot must show this one and no other client's.
func clientLabel(client, visit int) string { return fmt.Sprintf("Client %d visit %d", client, visit) }

// clientPage is the page a concurrent client opens on one visit: a heading
// naming the client and the visit, and a button that posts "client-visit".
func clientPage(client, visit int) string {
	label, id := clientLabel(client, visit), fmt.Sprintf("%d-%d", client, visit)
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>` + label + `</title></head><body>
<main><h1>` + label + `</h1><p>One agent's page among many running at once.</p>
<button type="button" id="ping">Ping ` + id + `</button><p id="status" role="status"></p></main>
<script>
document.getElementById('ping').addEventListener('click', async () => {
  await fetch('/api/ping', {method: 'POST', body: '` + id + `'});
  document.getElementById('status').textContent = 'Pinged ` + id + `';
});
</script></body></html>`
}

// tableHTML is a page of n order rows, each a text cell, a cell with a button
// and a cell with a link.
func tableHTML(n int) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title>
<style>td{padding:2px 8px}</style></head><body><main><h1>Orders</h1><p id="msg" role="status">` + fmt.Sprint(n) + ` open orders</p>
<table><thead><tr><th>Order</th><th>Action</th><th>Details</th></tr></thead><tbody>
`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<tr><td>Order %d from customer %d, %d items</td><td><button type="button" data-id="%d">Ship order %d</button></td><td><a href="/page/o%d">Order %d details</a></td></tr>
`, i, 1000+i, i%7+1, i, i, i, i)
	}
	b.WriteString(`</tbody></table></main>
<script>
document.querySelector('tbody').addEventListener('click', async (e) => {
  const btn = e.target.closest('button');
  if (!btn) return;
  const id = btn.dataset.id;
  await fetch('/api/ship', {method: 'POST', body: 'id=' + id});
  btn.closest('tr').cells[0].textContent = 'Order ' + id + ' shipped';
  document.getElementById('msg').textContent = 'Order ' + id + ' shipped';
});
</script></body></html>`)
	return []byte(b.String())
}

// viewportHTML names the page's viewport in a button, which every server's
// snapshot shows (agent-browser's leaves out plain text): the size a
// server gives a fresh session.
const viewportHTML = `<!doctype html><title>Viewport</title><button id="v">viewport ?</button>
<script>document.getElementById("v").textContent = "viewport " + innerWidth + "x" + innerHeight</script>`
