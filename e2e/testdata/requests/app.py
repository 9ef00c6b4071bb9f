"""A small app for the request-step and actor tests. Run as: python3 app.py PORT.

Who you are is a cookie (user), set by POST /api/login {"name": ...}. Each
user has a shopping list (POST /api/items {"name"} answers 201 and the
item; GET /api/items lists yours; /items.html shows it) and everyone shares
one chat room (POST /api/messages {"text"}; /chat.html shows who you are
and the messages, polling). A call that needs a user and has none answers
401 with the Authorization header it got (so that a test sees it masked).
"""
import http.server
import json
import sys
import threading
from http.cookies import SimpleCookie

LOCK = threading.Lock()
ITEMS = []  # {"id", "name", "owner"}
MESSAGES = []  # {"from", "text"}

ITEMS_PAGE = """<!doctype html>
<title>Items</title>
<h1>Your list</h1>
<ul id="items"></ul>
<script>
fetch('/api/items').then(r => r.json()).then(j => {
  for (const it of j.items) {
    const li = document.createElement('li');
    li.textContent = it.name;
    document.getElementById('items').appendChild(li);
  }
});
</script>
"""

CHAT_PAGE = """<!doctype html>
<title>Chat</title>
<h1 id="who">Chat</h1>
<label>Message <input id="text"></label>
<button id="send">Send</button>
<ul id="log" aria-label="Messages"></ul>
<script>
fetch('/api/me').then(r => r.json()).then(j => { document.getElementById('who').textContent = 'Chat as ' + (j.user || 'nobody'); });
document.getElementById('send').onclick = async () => {
  const t = document.getElementById('text');
  await fetch('/api/messages', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({text: t.value})});
  t.value = '';
};
async function poll() {
  const j = await (await fetch('/api/messages')).json();
  const log = document.getElementById('log');
  if (log.children.length !== j.messages.length) {
    log.replaceChildren(...j.messages.map(m => { const li = document.createElement('li'); li.textContent = m.from + ': ' + m.text; return li; }));
  }
  setTimeout(poll, 100);
}
poll();
</script>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        sys.stderr.write("request: " + (fmt % args) + "\n")

    def send(self, code, body, ctype="application/json", cookie=None):
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.end_headers()
        self.wfile.write(body)

    def user(self):
        c = SimpleCookie(self.headers.get("Cookie", ""))
        return c["user"].value if "user" in c else None

    def unauthorized(self):
        self.send(401, {"error": "sign in first", "authorization": self.headers.get("Authorization", "")})

    def body(self):
        n = int(self.headers.get("Content-Length", "0") or 0)
        return json.loads(self.rfile.read(n) or b"{}")

    def do_GET(self):
        path = self.path.split("?")[0]
        if path in ("/", "/items.html"):
            self.send(200, ITEMS_PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/chat.html":
            self.send(200, CHAT_PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/api/me":
            self.send(200, {"user": self.user()})
        elif path == "/api/items":
            u = self.user()
            if not u:
                return self.unauthorized()
            with LOCK:
                mine = [i for i in ITEMS if i["owner"] == u]
            self.send(200, {"items": mine})
        elif path == "/api/messages":
            with LOCK:
                self.send(200, {"messages": list(MESSAGES)})
        else:
            self.send(404, {"error": "not found"})

    def do_POST(self):
        path = self.path.split("?")[0]
        if path == "/api/login":
            name = self.body().get("name", "")
            self.send(200, {"user": name}, cookie="user=%s; Path=/; HttpOnly" % name)
            return
        u = self.user()
        if not u:
            return self.unauthorized()
        if path == "/api/items":
            with LOCK:
                item = {"id": len(ITEMS) + 1, "name": self.body().get("name", ""), "owner": u}
                ITEMS.append(item)
            self.send(201, {"item": item})
        elif path == "/api/messages":
            with LOCK:
                MESSAGES.append({"from": u, "text": self.body().get("text", "")})
            self.send(201, {"ok": True})
        else:
            self.send(404, {"error": "not found"})


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
