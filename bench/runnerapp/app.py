"""A small shop for the runner benchmark (make bench's runner table).

Run as: python3 app.py PORT. Standard library only. Pages: sign-in, a
product list with search and a category filter, a product page, a cart
kept in the browser's localStorage, a checkout that posts the order, a todo
list, settings in tabs, an FAQ accordion, a contact form that validates,
and a delete confirmation dialog. The flows in flows/ drive it, under
`e2e-mcp run` and, converted, under Playwright Test.
"""
import http.server
import json
import sys

PRODUCTS = [
    {"id": i, "name": name, "category": cat, "price": price}
    for i, (name, cat, price) in enumerate(
        [
            ("Red kettle", "Kitchen", 39), ("Blue mug", "Kitchen", 9), ("Chef knife", "Kitchen", 59),
            ("Cutting board", "Kitchen", 25), ("Pepper mill", "Kitchen", 19), ("Tea towel", "Kitchen", 7),
            ("Desk lamp", "Office", 45), ("Notebook", "Office", 6), ("Fountain pen", "Office", 32),
            ("Stapler", "Office", 14), ("Paper tray", "Office", 12), ("Monitor stand", "Office", 49),
            ("Trail shoes", "Outdoor", 120), ("Rain jacket", "Outdoor", 95), ("Water bottle", "Outdoor", 18),
            ("Head torch", "Outdoor", 29), ("Camping stool", "Outdoor", 34), ("Sun hat", "Outdoor", 22),
            ("Yoga mat", "Sport", 30), ("Jump rope", "Sport", 11), ("Dumbbell", "Sport", 27),
            ("Tennis balls", "Sport", 8), ("Swim goggles", "Sport", 16), ("Bike light", "Sport", 24),
        ],
        start=1,
    )
]

STYLE = """<style>
body{font-family:sans-serif;margin:0}header{display:flex;gap:1em;padding:.5em 1em;background:#eee}
main{padding:1em}li{margin:.2em 0}.done{text-decoration:line-through}
[role=dialog]{position:fixed;top:30%;left:30%;background:#fff;border:1px solid #333;padding:1em}
.error{color:#b00}[hidden]{display:none}
</style>"""

NAV = """<header><nav aria-label="Main"><a href="/">Home</a> <a href="/products">Products</a>
<a href="/cart">Cart (<span id="cart-count">0</span>)</a> <a href="/todos">Todos</a>
<a href="/settings">Settings</a> <a href="/faq">FAQ</a> <a href="/contact">Contact</a>
<a href="/files">Files</a> <a href="/login">Sign in</a></nav></header>
<script>
function cart(){return JSON.parse(localStorage.getItem('cart')||'{}')}
function saveCart(c){localStorage.setItem('cart',JSON.stringify(c));showCount()}
function showCount(){const c=cart();document.getElementById('cart-count').textContent=Object.values(c).reduce((a,b)=>a+b,0)}
function addToCart(id,n){const c=cart();c[id]=(c[id]||0)+n;saveCart(c)}
document.addEventListener('DOMContentLoaded',showCount);
</script>"""


def page(title, body):
    return ("<!doctype html><html lang=en><head><meta charset=utf-8><title>%s</title>%s</head><body>%s<main>%s</main></body></html>"
            % (title, STYLE, NAV, body))


HOME = page("Acme shop", """<h1>Acme shop</h1><p>Everything for kitchen, office, outdoor and sport.</p>""")

LOGIN = page("Sign in", """<h1>Sign in</h1>
<form id="f"><label>Username <input name="user" autocomplete="off"></label>
<label>Password <input name="password" type="password"></label>
<button>Sign in</button></form><p role="status" id="status"></p>
<script>
document.getElementById('f').onsubmit = async e => {
  e.preventDefault();
  const d = new FormData(e.target);
  const r = await fetch('/api/login', {method: 'POST', body: JSON.stringify(Object.fromEntries(d))});
  const j = await r.json();
  document.getElementById('status').textContent = r.ok ? 'Signed in as ' + j.user : 'Wrong username or password';
};
</script>""")

PRODUCTS_PAGE = page("Products", """<h1>Products</h1>
<label>Search <input type="search" id="q"></label>
<label>Category <select id="cat"><option value="">All</option><option>Kitchen</option><option>Office</option>
<option>Outdoor</option><option>Sport</option></select></label>
<p id="shown" role="status"></p><ul id="list"></ul>
<script>
let all = [];
function render(){
  const q = document.getElementById('q').value.toLowerCase(), c = document.getElementById('cat').value;
  const ps = all.filter(p => p.name.toLowerCase().includes(q) && (!c || p.category === c));
  document.getElementById('shown').textContent = ps.length + ' products';
  const ul = document.getElementById('list'); ul.replaceChildren();
  for (const p of ps) {
    const li = document.createElement('li'); li.dataset.testid = 'product-' + p.id;
    const a = document.createElement('a'); a.href = '/product/' + p.id; a.textContent = p.name;
    const b = document.createElement('button'); b.textContent = 'Add ' + p.name + ' to cart';
    b.onclick = () => { addToCart(p.id, 1); b.textContent = 'Added ' + p.name; };
    li.append(a, ' $' + p.price + ' ', b); ul.append(li);
  }
}
fetch('/api/products').then(r => r.json()).then(j => { all = j; render(); });
document.getElementById('q').oninput = render;
document.getElementById('cat').onchange = render;
</script>""")

PRODUCT_PAGE = """<h1 id="name">Loading</h1><p id="price"></p>
<label>Quantity <input type="number" id="qty" value="1" min="1"></label>
<button id="add">Add to cart</button><p role="status" id="status"></p>
<script>
fetch('/api/products/%d').then(r => r.json()).then(p => {
  document.getElementById('name').textContent = p.name;
  document.title = p.name;
  document.getElementById('price').textContent = 'Price: $' + p.price;
  document.getElementById('add').onclick = () => {
    const n = Number(document.getElementById('qty').value);
    addToCart(p.id, n);
    document.getElementById('status').textContent = n + ' in your cart';
  };
});
</script>"""

CART = page("Cart", """<h1>Cart</h1><table><thead><tr><th>Item</th><th>Quantity</th><th>Price</th><th></th></tr></thead>
<tbody id="rows"></tbody></table><p id="total" role="status"></p><a href="/checkout">Checkout</a>
<script>
fetch('/api/products').then(r => r.json()).then(all => {
  function render(){
    const c = cart(), body = document.getElementById('rows'); body.replaceChildren(); let total = 0;
    for (const [id, n] of Object.entries(c)) {
      const p = all.find(x => x.id == id); total += p.price * n;
      const tr = document.createElement('tr');
      tr.innerHTML = '<td></td><td></td><td></td><td><button></button></td>';
      tr.cells[0].textContent = p.name; tr.cells[1].textContent = n; tr.cells[2].textContent = '$' + p.price * n;
      const b = tr.querySelector('button'); b.textContent = 'Remove ' + p.name;
      b.onclick = () => { const c = cart(); delete c[id]; saveCart(c); render(); };
      body.append(tr);
    }
    document.getElementById('total').textContent = Object.keys(c).length ? 'Total: $' + total : 'Your cart is empty';
  }
  render();
});
</script>""")

CHECKOUT = page("Checkout", """<h1>Checkout</h1>
<form id="f"><label>Full name <input name="name"></label>
<label>Address <input name="address"></label>
<label>Shipping <select name="shipping"><option value="standard">Standard</option><option value="express">Express</option></select></label>
<label><input type="checkbox" name="terms"> I accept the terms</label>
<button>Place order</button></form><p role="status" id="status"></p>
<script>
document.getElementById('f').onsubmit = async e => {
  e.preventDefault();
  const d = Object.fromEntries(new FormData(e.target));
  if (!d.terms) { document.getElementById('status').textContent = 'Please accept the terms'; return; }
  d.items = cart();
  const r = await fetch('/api/order', {method: 'POST', body: JSON.stringify(d)});
  const j = await r.json();
  saveCart({});
  document.getElementById('status').textContent = 'Order confirmed for ' + j.name + ' (' + j.shipping + ')';
};
</script>""")

TODOS = page("Todos", """<h1>Todos</h1>
<input aria-label="New todo" id="new" placeholder="What needs doing?">
<ul id="list"></ul><p id="left" role="status"></p>
<div role="group" aria-label="Filter"><button data-f="all">All</button><button data-f="active">Active</button><button data-f="done">Completed</button></div>
<script>
let todos = [], filter = 'all';
function render(){
  const ul = document.getElementById('list'); ul.replaceChildren();
  todos.filter(t => filter === 'all' || (filter === 'done') === t.done).forEach(t => {
    const li = document.createElement('li'); const l = document.createElement('label');
    const cb = document.createElement('input'); cb.type = 'checkbox'; cb.checked = t.done;
    cb.onchange = () => { t.done = cb.checked; render(); };
    l.append(cb, ' ' + t.text); li.append(l); if (t.done) li.className = 'done'; ul.append(li);
  });
  const n = todos.filter(t => !t.done).length;
  document.getElementById('left').textContent = n + (n === 1 ? ' item left' : ' items left');
}
document.getElementById('new').onkeydown = e => {
  if (e.key === 'Enter' && e.target.value.trim()) { todos.push({text: e.target.value.trim(), done: false}); e.target.value = ''; render(); }
};
document.querySelectorAll('[data-f]').forEach(b => b.onclick = () => { filter = b.dataset.f; render(); });
render();
</script>""")

SETTINGS = page("Settings", """<h1>Settings</h1>
<div role="tablist" aria-label="Settings"><button role="tab" id="t1" aria-selected="true" aria-controls="p1">Profile</button>
<button role="tab" id="t2" aria-selected="false" aria-controls="p2">Notifications</button></div>
<div role="tabpanel" id="p1" aria-labelledby="t1"><label>Display name <input id="display"></label>
<label>Language <select id="lang"><option>English</option><option>Deutsch</option><option>Français</option></select></label></div>
<div role="tabpanel" id="p2" aria-labelledby="t2" hidden><label><input type="checkbox" id="email" checked> Email me</label>
<label><input type="checkbox" id="sms"> Text me</label></div>
<button id="save">Save settings</button><p role="status" id="status"></p>
<script>
document.querySelectorAll('[role=tab]').forEach(t => t.onclick = () => {
  document.querySelectorAll('[role=tab]').forEach(u => { u.setAttribute('aria-selected', u === t); document.getElementById(u.getAttribute('aria-controls')).hidden = u !== t; });
});
document.getElementById('save').onclick = async () => {
  const s = {display: document.getElementById('display').value, lang: document.getElementById('lang').value,
             email: document.getElementById('email').checked, sms: document.getElementById('sms').checked};
  const r = await fetch('/api/settings', {method: 'POST', body: JSON.stringify(s)});
  const j = await r.json();
  document.getElementById('status').textContent = 'Saved: ' + j.display + ', ' + j.lang + ', ' + (j.sms ? 'texts on' : 'texts off');
};
</script>""")

FAQ = page("FAQ", """<h1>Frequently asked questions</h1>""" + "".join(
    "<details><summary>%s</summary><p>%s</p></details>" % (q, a) for q, a in [
        ("How long does shipping take?", "Standard shipping takes 3 to 5 working days."),
        ("Can I return an item?", "Yes, within 30 days, unused and in its box."),
        ("Do you ship abroad?", "We ship to every country in the European Union."),
        ("How do I pay?", "By card or bank transfer."),
    ]))

CONTACT = page("Contact", """<h1>Contact us</h1>
<form id="f" novalidate><label>Email <input name="email" id="email"></label>
<label>Message <textarea name="message" id="message"></textarea></label>
<button>Send</button></form><ul id="errors" class="error" aria-label="Errors"></ul><p role="status" id="status"></p>
<script>
document.getElementById('f').onsubmit = async e => {
  e.preventDefault();
  const email = document.getElementById('email').value, msg = document.getElementById('message').value;
  const errs = [];
  if (!/^[^@ ]+@[^@ ]+$/.test(email)) errs.push('Enter a valid email');
  if (msg.length < 10) errs.push('The message needs at least 10 characters');
  const ul = document.getElementById('errors'); ul.replaceChildren(...errs.map(t => { const li = document.createElement('li'); li.textContent = t; return li; }));
  if (errs.length) { document.getElementById('status').textContent = ''; return; }
  await fetch('/api/contact', {method: 'POST', body: JSON.stringify({email, msg})});
  document.getElementById('status').textContent = 'Thanks, we will write to ' + email;
};
</script>""")

FILES = page("Files", """<h1>Files</h1><ul id="files"></ul><p role="status" id="status"></p>
<div role="dialog" aria-modal="true" aria-labelledby="dt" id="dlg" hidden><h2 id="dt">Delete file?</h2><p id="dq"></p>
<button id="yes">Delete</button> <button id="no">Cancel</button></div>
<script>
let files = ['report.pdf', 'budget.xlsx', 'photo.jpg', 'notes.txt'], pending = null;
function render(){
  const ul = document.getElementById('files'); ul.replaceChildren();
  for (const f of files) { const li = document.createElement('li'); const b = document.createElement('button');
    b.textContent = 'Delete ' + f; b.onclick = () => { pending = f; document.getElementById('dq').textContent = 'Delete ' + f + ' for good?'; document.getElementById('dlg').hidden = false; };
    li.append(f + ' ', b); ul.append(li); }
}
document.getElementById('no').onclick = () => { document.getElementById('dlg').hidden = true; document.getElementById('status').textContent = 'Kept ' + pending; };
document.getElementById('yes').onclick = () => { files = files.filter(f => f !== pending); document.getElementById('dlg').hidden = true; render();
  document.getElementById('status').textContent = 'Deleted ' + pending + ', ' + files.length + ' files left'; };
render();
</script>""")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def send(self, code, body, ctype="text/html; charset=utf-8"):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, code, v):
        self.send(code, json.dumps(v), "application/json")

    def do_GET(self):
        path = self.path.split("?")[0]
        pages = {"/": HOME, "/login": LOGIN, "/products": PRODUCTS_PAGE, "/cart": CART, "/checkout": CHECKOUT,
                 "/todos": TODOS, "/settings": SETTINGS, "/faq": FAQ, "/contact": CONTACT, "/files": FILES}
        if path in pages:
            return self.send(200, pages[path])
        if path == "/api/products":
            return self.json(200, PRODUCTS)
        for prefix, fn in (("/api/products/", self.product_json), ("/product/", self.product_page)):
            if path.startswith(prefix) and path[len(prefix):].isdigit():
                n = int(path[len(prefix):])
                if 1 <= n <= len(PRODUCTS):
                    return fn(n)
        self.send(404, "not found", "text/plain")

    def product_json(self, n):
        self.json(200, PRODUCTS[n - 1])

    def product_page(self, n):
        self.send(200, page("Product", PRODUCT_PAGE % n))

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if self.path == "/api/login":
            if body.get("password") == "s3cret-pass":
                return self.json(200, {"user": body.get("user", "")})
            return self.json(401, {"error": "wrong password"})
        if self.path == "/api/order":
            return self.json(200, {"name": body.get("name", ""), "shipping": body.get("shipping", "")})
        if self.path in ("/api/settings", "/api/contact"):
            return self.json(200, body)
        self.send(404, "not found", "text/plain")


if __name__ == "__main__":
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
