package netpolicy

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/e2e-mcp/e2e-mcp/redact"
)

// The DevTools Fetch domain sees the requests of a page and its iframes,
// but not those of shared and service workers, WebSockets or speculative
// prefetches, and it decides on a name before Chrome resolves it again for
// itself. A Proxy closes both holes: the browser context of a session sends
// every connection through it (Chrome takes a proxy per context), and it
// checks each one against the policy, then dials only addresses it checked,
// so a name cannot rebind to a private address in between.
//
// HTTPS and WebSockets (ws and wss) arrive as CONNECT host:port, plain HTTP
// as absolute-form requests. A refused CONNECT gets 403 (Chrome fails the
// request with ERR_TUNNEL_CONNECTION_FAILED), a refused request a 403 page;
// each refusal is reported. When the environment names a proxy (HTTP_PROXY,
// HTTPS_PROXY, NO_PROXY), connections go on through it: then only names
// are checked, since that proxy resolves them.

// Proxy is a forward proxy on loopback for one browser context.
type Proxy struct {
	policy  *Policy
	dev     func() []string
	refused func(url, rule string)
	ln      net.Listener
	srv     *http.Server
	fwd     *httputil.ReverseProxy
	tr      *http.Transport
	// upstream is the proxy of the environment for a URL, if any.
	upstream func(*url.URL) (*url.URL, error)

	mu      sync.Mutex
	tunnels map[net.Conn]struct{} // hijacked connections, closed by Close
	closed  bool
}

// proxyDialTimeout bounds connecting to a server.
const proxyDialTimeout = 10 * time.Second

// NewProxy starts a proxy for one browser context on a loopback port. dev
// returns the origins of the context's dev server(s), allowed whatever the
// rules say (a blocked-origins rule excepted); refused is told of every
// connection or request the proxy refuses.
func (p *Policy) NewProxy(dev func() []string, refused func(url, rule string)) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("request policy proxy: %w", err)
	}
	x := &Proxy{policy: p, dev: dev, refused: refused, ln: ln, tunnels: map[net.Conn]struct{}{},
		upstream: func(u *url.URL) (*url.URL, error) {
			if p.upstream != nil {
				return p.upstream.forURL(u), nil
			}
			up, err := http.ProxyFromEnvironment(&http.Request{URL: u})
			return up, redact.Err(err) // a bad HTTPS_PROXY is quoted whole, credentials and all
		}}
	x.tr = &http.Transport{
		Proxy:               func(r *http.Request) (*url.URL, error) { return x.upstream(r.URL) },
		DialContext:         x.dialChecked,
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     30 * time.Second,
		// Chrome asked for plain HTTP; what the server answers goes back as
		// it is (no decompression on the way).
		DisableCompression: true,
	}
	x.fwd = &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.Out.URL = r.In.URL; r.Out.Host = r.In.Host },
		Transport: x.tr,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			var ref *refusal
			if errors.As(err, &ref) {
				x.refuse(w, r.URL.String(), ref.rule)
				return
			}
			http.Error(w, "e2e-mcp proxy: "+err.Error(), http.StatusBadGateway)
		},
	}
	x.srv = &http.Server{Handler: x, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = x.srv.Serve(ln) }()
	return x, nil
}

// URL is the proxy's address, as Chrome's proxy setting takes it.
func (x *Proxy) URL() string { return "http://" + x.ln.Addr().String() }

// Close stops the proxy and cuts the connections going through it.
func (x *Proxy) Close() error {
	x.mu.Lock()
	x.closed = true
	for c := range x.tunnels {
		_ = c.Close()
	}
	x.tunnels = nil
	x.mu.Unlock()
	x.tr.CloseIdleConnections()
	return x.srv.Close()
}

// refusal is a connection the policy refused, carried through the
// transport's dial to the error handler.
type refusal struct{ rule string }

func (r *refusal) Error() string { return "blocked by the request policy: " + r.rule }

type checkedKey struct{}

// checked is what a request's check decided about its host: the addresses
// it may be dialled at (nil: dial the name).
type checked struct {
	host  string
	addrs []netip.Addr
}

// ServeHTTP checks a CONNECT or an absolute-form request and carries it on.
func (x *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		x.connect(w, r)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "e2e-mcp proxy: send absolute http:// URLs, or CONNECT for anything else", http.StatusBadRequest)
		return
	}
	v, addrs := x.decide(r.Context(), "http", r.URL.Host)
	if v.Blocked {
		x.refuse(w, r.URL.String(), v.Rule)
		return
	}
	ctx := context.WithValue(r.Context(), checkedKey{}, &checked{host: r.URL.Host, addrs: addrs})
	x.fwd.ServeHTTP(w, r.WithContext(ctx))
}

// decide checks a connection to hostport for one scheme (CONNECT carries
// https, wss or ws alike: see connectSchemes).
func (x *Proxy) decide(ctx context.Context, scheme, hostport string) (Verdict, []netip.Addr) {
	o, ok := parseOrigin(scheme + "://" + hostport)
	if !ok {
		return Verdict{Blocked: true, Rule: "the request has no host"}, nil
	}
	return x.policy.decide(ctx, o, x.dev(), netip.Addr{})
}

// connectSchemes are what a CONNECT may carry: a rule that blocks any of
// them for the host blocks the tunnel; an allowlist that names any of
// them allows it.
var connectSchemes = []string{"https", "wss", "http", "ws"}

func (x *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	hostport := r.Host
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		http.Error(w, "e2e-mcp proxy: CONNECT wants host:port", http.StatusBadRequest)
		return
	}
	var allowed *checked
	var refusedBy string
	for _, s := range connectSchemes {
		v, addrs := x.decide(r.Context(), s, hostport)
		switch {
		case v.Blocked && !strings.HasPrefix(v.Rule, "allowed-origins"):
			x.refuse(w, "https://"+hostport, v.Rule) // a blocked-origins or private-network rule wins
			return
		case v.Blocked && refusedBy == "":
			refusedBy = v.Rule // https's rule: the scheme a CONNECT is reported as
		case v.Blocked:
		case allowed == nil:
			allowed = &checked{host: hostport, addrs: addrs}
		}
	}
	if allowed == nil {
		x.refuse(w, "https://"+hostport, refusedBy)
		return
	}
	server, err := x.dialTunnel(r.Context(), allowed)
	if err != nil {
		var ref *refusal
		if errors.As(err, &ref) {
			x.refuse(w, "https://"+hostport, ref.rule)
			return
		}
		http.Error(w, "e2e-mcp proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = server.Close()
		http.Error(w, "e2e-mcp proxy: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		_ = server.Close()
		return
	}
	if !x.track(client, server) {
		return
	}
	defer x.untrack(client, server)
	if _, err := client.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		// What the client sent after its CONNECT may already be buffered.
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Peek(n)
			if _, err := server.Write(b); err != nil {
				done <- struct{}{}
				return
			}
		}
		_, _ = io.Copy(server, client)
		closeWrite(server)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, server)
		closeWrite(client)
		done <- struct{}{}
	}()
	<-done
	<-done
}

// closeWrite half-closes a TCP connection, so that the other side sees the
// end of what this side sends and the copy the other way can finish.
func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		return
	}
	_ = c.Close()
}

// track registers a tunnel's two ends for Close; false when closed.
func (x *Proxy) track(conns ...net.Conn) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	for _, c := range conns {
		x.tunnels[c] = struct{}{}
	}
	return true
}

func (x *Proxy) untrack(conns ...net.Conn) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(x.tunnels, c)
	}
}

// dialTunnel connects a CONNECT to its server: through the environment's
// proxy when it names one for the host, else to a checked address.
func (x *Proxy) dialTunnel(ctx context.Context, c *checked) (net.Conn, error) {
	up, err := x.upstream(&url.URL{Scheme: "https", Host: c.host})
	if err != nil {
		return nil, err
	}
	if up == nil {
		return x.dial(ctx, c)
	}
	d := net.Dialer{Timeout: proxyDialTimeout}
	conn, err := d.DialContext(ctx, "tcp", canonicalHostPort(up))
	if err != nil {
		return nil, fmt.Errorf("the upstream proxy %s: %w", up.Host, err)
	}
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: c.host}, Host: c.host, Header: http.Header{}}
	if u := up.User; u != nil {
		req.Header.Set("Proxy-Authorization", "Basic "+basicAuth(u))
	}
	_ = conn.SetDeadline(time.Now().Add(proxyDialTimeout))
	if err := req.Write(conn); err != nil {
		_ = conn.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_ = conn.Close()
		return nil, fmt.Errorf("the upstream proxy %s answered CONNECT with %s", up.Host, resp.Status)
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, nil
}

func canonicalHostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

func basicAuth(u *url.Userinfo) string {
	pw, _ := u.Password()
	return base64.StdEncoding.EncodeToString([]byte(u.Username() + ":" + pw))
}

// dialChecked is the transport's dial for plain HTTP: to the addresses the
// request's check approved.
func (x *Proxy) dialChecked(ctx context.Context, _, addr string) (net.Conn, error) {
	c, _ := ctx.Value(checkedKey{}).(*checked)
	if c == nil || !sameHostPort(c.host, addr) {
		// A connection for a host no check approved (a redirect is a new
		// request, checked on its own): check it here.
		v, addrs := x.decide(ctx, "http", addr)
		if v.Blocked {
			return nil, &refusal{rule: v.Rule}
		}
		c = &checked{host: addr, addrs: addrs}
	}
	return x.dial(ctx, c)
}

func sameHostPort(a, b string) bool {
	withPort := func(s string) string {
		if _, _, err := net.SplitHostPort(s); err != nil {
			return net.JoinHostPort(strings.Trim(s, "[]"), "80")
		}
		return s
	}
	return strings.EqualFold(withPort(a), withPort(b))
}

// dial connects to a checked host: to the addresses its check resolved and
// approved, in order, or by name when its check needed no addresses (an
// origin allowed by rule, localhost).
func (x *Proxy) dial(ctx context.Context, c *checked) (net.Conn, error) {
	host, port, err := net.SplitHostPort(c.host)
	if err != nil {
		host, port = c.host, "80"
	}
	d := net.Dialer{Timeout: proxyDialTimeout}
	if len(c.addrs) == 0 {
		return d.DialContext(ctx, "tcp", net.JoinHostPort(strings.Trim(host, "[]"), port))
	}
	var errs []error
	for _, a := range c.addrs {
		conn, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a, portNum(port)).String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

func portNum(p string) uint16 {
	n, _ := strconv.ParseUint(p, 10, 16)
	return uint16(n)
}

// refuse answers a refused request or tunnel and reports it.
func (x *Proxy) refuse(w http.ResponseWriter, u, rule string) {
	if x.refused != nil {
		x.refused(u, rule)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_, _ = io.WriteString(w, "blocked by e2e-mcp's request policy: "+rule+"\n")
}
