// Package bigpages builds large pages of the shapes real apps have (a data
// table, a docs article, a product grid, a comment thread, a settings form),
// for the tests and the benchmark of folded snapshots. Each page has one
// named control whose click changes the page, so a test can tell that an
// action reached the element it meant.
package bigpages

import (
	"fmt"
	"html"
	"strings"
)

// Page is one big page and the task on it.
type Page struct {
	Name   string // short key: orders, docs, grid, thread, settings
	Title  string
	HTML   string
	Role   string // the control to act on: its role and name
	Target string
	// Done is text the page shows once the control was clicked.
	Done string
}

// All returns the five pages.
func All() []Page {
	return []Page{Orders(1500, 1400), Docs(60, 47), Grid(300, 287), Thread(800, 640), Settings(150)}
}

// ByName returns the page with that name.
func ByName(name string) (Page, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return Page{}, false
}

// The page's reaction: the status line says what was done, and with a
// report URL (WithReport) the page also posts it there.
const script = `<script>
document.addEventListener('click', (e) => {
  const b = e.target.closest('[data-done]');
  if (!b) return;
  e.preventDefault();
  document.getElementById('status').textContent = b.dataset.done;
  if (document.body.dataset.report) fetch(document.body.dataset.report, {method: 'POST', body: b.dataset.done});
});
document.addEventListener('submit', (e) => {
  if (document.body.dataset.report) fetch(document.body.dataset.report, {method: 'POST', body: 'Settings saved'});
});
</script>`

// WithReport is the page's HTML that also posts what was done to url.
func (p Page) WithReport(url string) string {
	return strings.Replace(p.HTML, "<body>", `<body data-report="`+html.EscapeString(url)+`">`, 1)
}

func doc(title, body string) string {
	return "<!doctype html><html lang=en><head><meta charset=utf-8><title>" + html.EscapeString(title) +
		"</title><style>.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:8px}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.card{border:1px solid #ddd;padding:8px}</style></head><body>" +
		`<header class="app-bar"><a href="/" class="logo">Acme</a><nav aria-label="Main"><ul><li><a href="/orders">Orders</a></li><li><a href="/docs">Docs</a></li><li><a href="/shop">Shop</a></li><li><a href="/settings">Settings</a></li></ul></nav><button type="button" aria-label="Open user menu" aria-haspopup="menu" aria-expanded="false">AL</button></header>` +
		body + `<div role="status" id="status" aria-live="polite"></div><footer><p>© 2026 Acme Inc.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>` + script + "</body></html>"
}

// Orders is a data table of n orders; each row's last cell holds a Ship
// button and a link. The task: ship order `target`.
func Orders(n, target int) Page {
	var b strings.Builder
	b.WriteString(`<main><h1>Orders</h1><form role="search" class="filters"><label for="q">Search orders</label><input id="q" type="search" placeholder="Order, customer…"><label>Status <select><option>All</option><option>Pending</option><option>Shipped</option></select></label><button type="submit">Filter</button></form>`)
	fmt.Fprintf(&b, `<table class="MuiTable-root"><caption class="sr-only">Orders, %d rows</caption><thead><tr><th scope="col"><input type="checkbox" aria-label="Select all"></th><th scope="col">Order</th><th scope="col">Customer</th><th scope="col">Date</th><th scope="col">Total</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead><tbody>`, n)
	statuses := []string{"Pending", "Paid", "Pending", "Refunded"}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<tr class="MuiTableRow-root"><td><input type="checkbox" aria-label="Select order %d"></td><td>Order %d</td><td>Customer %d</td><td><time datetime="2026-03-%02d">Mar %d</time></td><td>$%d.%02d</td><td><span class="chip">%s</span></td><td><button type="button" class="btn" data-done="Order %d shipped">Ship %d</button> <a href="/orders/%d">Details</a></td></tr>`,
			i, i, (i*7)%311, i%28+1, i%28+1, 10+i%90, i%100, statuses[i%4], i, i, i)
	}
	b.WriteString(`</tbody></table><nav aria-label="Pagination"><button type="button">Previous</button><span>Page 1 of 1</span><button type="button">Next</button></nav></main>`)
	return Page{Name: "orders", Title: "Orders", HTML: doc("Orders", b.String()), Role: "button", Target: fmt.Sprintf("Ship %d", target), Done: fmt.Sprintf("Order %d shipped", target)}
}

// Docs is a long article: n sections of headings, paragraphs, code and
// lists of links, flat in the article as docs generators write them. The
// task: follow "reference target".
func Docs(n, target int) Page {
	var b strings.Builder
	b.WriteString(`<div class="layout"><aside><nav aria-label="Table of contents"><ol>`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<li><a href="#s%d">%d. Section %d</a></li>`, i, i, i)
	}
	b.WriteString(`</ol></nav></aside><main><article><h1>The Acme API guide</h1><p class="lead">Everything about the Acme API, from authentication to webhooks.</p>`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<h2 id="s%d">%d. Section %d</h2>`, i, i, i)
		fmt.Fprintf(&b, `<p>Section %d explains how requests are signed, retried and paginated. Each request carries a token in the Authorization header; tokens expire after an hour and are refreshed with the refresh endpoint. Rate limits apply per token and per IP address, and a 429 answer carries a Retry-After header saying when to try again.</p>`, i)
		fmt.Fprintf(&b, `<p>When a call fails, the body is a JSON object with a code and a message; log both. See <a href="/docs/errors#%d">the error table</a> for every code this section can return.</p>`, i)
		fmt.Fprintf(&b, `<pre><code>curl -H "Authorization: Bearer $TOKEN" https://api.acme.test/v1/items?page=%d</code></pre>`, i)
		fmt.Fprintf(&b, `<h3>Related</h3><ul><li><a href="/docs/ref/%d" data-done="Opened reference %d">reference %d</a></li><li><a href="/docs/guide/%d">guide %d</a></li><li><a href="/docs/faq/%d">FAQ %d</a></li></ul>`, i, i, i, i, i, i, i)
	}
	b.WriteString(`</article></main></div>`)
	return Page{Name: "docs", Title: "API guide", HTML: doc("API guide", b.String()), Role: "link", Target: fmt.Sprintf("reference %d", target), Done: fmt.Sprintf("Opened reference %d", target)}
}

// Grid is a product grid of n cards built as component libraries build
// them (div cards, an image, a heading, a price, a rating, a button). The
// task: add product target to the cart.
func Grid(n, target int) Page {
	var b strings.Builder
	b.WriteString(`<main><h1>Shop</h1><div class="toolbar"><label>Sort by <select><option>Popular</option><option>Price</option></select></label><button type="button" aria-pressed="false">Only in stock</button></div><div class="grid">`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<div class="MuiCard-root card"><div class="MuiCardMedia-root"><img src="data:," alt="Product %d photo" width="120" height="80"></div><div class="MuiCardContent-root"><h3 class="MuiTypography-h6">Product %d</h3><p class="price">$%d.99</p><div class="rating" role="img" aria-label="Rated %d out of 5"></div><p class="desc">A sturdy everyday item, number %d in our catalogue.</p></div><div class="MuiCardActions-root"><button type="button" class="MuiButton-root" data-done="Product %d added to cart">Add Product %d to cart</button><button type="button" aria-label="Save Product %d for later">♡</button></div></div>`,
			i, i, 5+i%95, 1+i%5, i, i, i, i)
	}
	b.WriteString(`</div></main>`)
	return Page{Name: "grid", Title: "Shop", HTML: doc("Shop", b.String()), Role: "button", Target: fmt.Sprintf("Add Product %d to cart", target), Done: fmt.Sprintf("Product %d added to cart", target)}
}

// Thread is a discussion of n comments, every fourth with a nested reply.
// The task: reply to comment target.
func Thread(n, target int) Page {
	var b strings.Builder
	b.WriteString(`<main><h1>Release 4.2 discussion</h1><form class="new-comment"><label for="new">Add a comment</label><textarea id="new"></textarea><button type="submit">Comment</button></form><section aria-label="Comments"><ul class="comments">`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<li><article class="comment" aria-labelledby="c%d-a"><header><a id="c%d-a" href="/u/%d">user%d</a> <time datetime="2026-05-01">2 days ago</time></header><p>Comment %d: the new release fixed the sync issue for me, but the export still times out on large projects. Has anyone found a workaround?</p><div class="actions"><button type="button" data-done="Replying to comment %d">Reply to comment %d</button><button type="button" aria-pressed="false">Like</button></div>`, i, i, i%97, i%97, i, i, i)
		if i%4 == 0 {
			fmt.Fprintf(&b, `<ul class="replies"><li><article class="comment reply" aria-labelledby="r%d-a"><header><a id="r%d-a" href="/u/maint">maintainer</a></header><p>Thanks for the report on comment %d, we are looking into it.</p></article></li></ul>`, i, i, i)
		}
		b.WriteString(`</article></li>`)
	}
	b.WriteString(`</ul></section></main>`)
	return Page{Name: "thread", Title: "Discussion", HTML: doc("Discussion", b.String()), Role: "button", Target: fmt.Sprintf("Reply to comment %d", target), Done: fmt.Sprintf("Replying to comment %d", target)}
}

// Settings is a form of n fields in fieldsets of ten (text boxes, selects,
// checkboxes, radio groups), saved by the button at its end.
func Settings(n int) Page {
	var b strings.Builder
	b.WriteString(`<main><h1>Settings</h1><form class="settings" onsubmit="event.preventDefault(); document.getElementById('status').textContent='Settings saved'">`)
	for i := 1; i <= n; i++ {
		if i%10 == 1 {
			fmt.Fprintf(&b, `<fieldset><legend>Group %d</legend>`, (i+9)/10)
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `<div class="field"><label><input type="checkbox" name="f%d"> Enable option %d</label></div>`, i, i)
		case 1:
			fmt.Fprintf(&b, `<div class="field"><label for="f%d">Setting %d</label><input id="f%d" name="f%d" value="value %d"><small>Shown to team members.</small></div>`, i, i, i, i, i)
		case 2:
			fmt.Fprintf(&b, `<div class="field"><label for="f%d">Choice %d</label><select id="f%d"><option>Low</option><option selected>Medium</option><option>High</option></select></div>`, i, i, i)
		default:
			fmt.Fprintf(&b, `<div class="field" role="radiogroup" aria-label="Mode %d"><label><input type="radio" name="m%d" checked> Auto</label><label><input type="radio" name="m%d"> Manual</label></div>`, i, i, i)
		}
		if i%10 == 0 || i == n {
			b.WriteString(`</fieldset>`)
		}
	}
	b.WriteString(`<div class="form-actions"><button type="reset">Reset</button><button type="submit">Save settings</button></div></form></main>`)
	return Page{Name: "settings", Title: "Settings", HTML: doc("Settings", b.String()), Role: "button", Target: "Save settings", Done: "Settings saved"}
}
