"""A small dev server for the failure-diagnostics tests.

Run as: python3 app.py PORT. It serves one shop page; POST /api/ship is
slow, fails with 500 and logs a stack trace to stderr, the way a real
framework does; GET /api/flood writes megabytes to stderr.
"""
import http.server
import sys
import time
import traceback

PAGE = b"""<!doctype html>
<title>Shop</title>
<h1>Shop</h1>
<p role="status" id="status">ready</p>
<button id="ship">Ship</button>
<button id="flood">Flood</button>
<button class="dup">Twin</button> <button class="dup">Twin</button>
<button disabled>Closed</button>
<script>
document.getElementById('ship').onclick = async () => {
  const r = await fetch('/api/ship', {method: 'POST'});
  if (!r.ok) {
    console.error('ship failed: ' + r.status);
    document.getElementById('status').textContent = 'Ship failed';
    return;
  }
  document.getElementById('status').textContent = 'Shipped';
};
document.getElementById('flood').onclick = async () => {
  for (let i = 0; i < 5000; i++) console.error('flood line ' + i + ' ' + 'x'.repeat(80));
  await fetch('/api/flood');
  document.getElementById('status').textContent = 'flooded';
};
</script>
"""


def ship():
    raise ValueError("warehouse offline")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        sys.stderr.write("request: " + (fmt % args) + "\n")
        sys.stderr.flush()

    def send(self, code, body, ctype="text/html"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/":
            self.send(200, PAGE)
        elif self.path == "/api/flood":
            line = "flood " + "y" * 200 + "\n"
            for _ in range(15000):  # about 3 MB
                sys.stderr.write(line)
            sys.stderr.write("flood done\n")
            sys.stderr.flush()
            self.send(200, b"{}", "application/json")
        else:
            self.send(404, b"not found", "text/plain")

    def do_POST(self):
        if self.path == "/api/ship":
            time.sleep(0.8)  # slower than an action's settling: the failure comes after the click returns
            try:
                ship()
            except ValueError:
                sys.stderr.write(traceback.format_exc())
                sys.stderr.flush()
            self.send(500, b'{"error":"internal"}', "application/json")
        else:
            self.send(404, b"not found", "text/plain")


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
