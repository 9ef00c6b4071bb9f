"""A shop for the heal tests (e2e/heal_test.go), in two versions. Run as:
python3 app.py PORT. It serves v1/ unless version.txt in the working
directory says v2, so a test records a flow on v1 and replays it on v2,
where the app changed under it: a button renamed (its test id kept), a
field wrapped in a new component that labels it anew (its placeholder
kept), a test id changed, a link moved into the menu, a heading reworded,
and a button split into two with near names (a decoy).
"""
import http.server
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        sys.stderr.write("request: " + (fmt % args) + "\n")

    def do_GET(self):
        version = "v1"
        if os.path.exists("version.txt"):
            version = open("version.txt").read().strip()
        name = self.path.split("?")[0].strip("/") or "index"
        path = os.path.join(HERE, version, name + ".html")
        if "/" in name or ".." in name or not os.path.exists(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
