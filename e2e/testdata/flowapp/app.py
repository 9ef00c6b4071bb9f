"""A sign-up app for the flow tests. Run as: python3 app.py PORT.

The button's label comes from label.txt in the working directory (default
"Sign up"), so a test can change the app under a recorded flow. A label the
app's message catalog lacks is shown as it is, and the failed lookup's stack
trace goes to stderr, the way a framework logs an error it recovers from.
"""
import http.server
import json
import os
import sys
import traceback

CATALOG = {"Sign up": "Sign up"}


def translate(key):
    return CATALOG[key]

PAGE = """<!doctype html>
<title>Sign up</title>
<h1>Create your account</h1>
<label>Name <input id="name"></label>
<label>Password <input id="pw" type="password"></label>
<button id="go">%s</button>
<p role="status" id="status"></p>
<script>
document.getElementById('go').onclick = async () => {
  const name = document.getElementById('name').value;
  const r = await fetch('/api/signup', {method: 'POST', body: JSON.stringify({name})});
  const j = await r.json();
  document.getElementById('status').textContent = 'Welcome, ' + j.name + '!';
};
</script>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        sys.stderr.write("request: " + (fmt % args) + "\n")

    def send(self, code, body, ctype):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        label = "Sign up"
        if os.path.exists("label.txt"):
            label = open("label.txt").read().strip()
        try:
            label = translate(label)
        except KeyError:
            sys.stderr.write("missing translation, showing the key:\n" + traceback.format_exc())
            sys.stderr.flush()
        self.send(200, (PAGE % label).encode(), "text/html; charset=utf-8")

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        self.send(200, json.dumps({"name": body.get("name", "")}).encode(), "application/json")


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
