package httpapi

import (
	"crypto/sha256"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// Defaults of the server.
const (
	// DefaultAddr is where `sift serve` listens unless told otherwise.
	DefaultAddr = "127.0.0.1:7777"
	// DefaultWriteTimeout bounds one write to a client. A stream is
	// written in chunks, each with a fresh deadline, so a long stream to a
	// reading client is fine and a client that stops reading is dropped.
	DefaultWriteTimeout = 30 * time.Second
	// MaxBodyBytes is the largest request body accepted.
	MaxBodyBytes = 64 << 10
	// DefaultLimit and MaxLimit bound every list.
	DefaultLimit = 100
	MaxLimit     = 500
)

// Options configures a Server.
type Options struct {
	// Store is the session store. Required.
	Store Store
	// LogsDir is the root the captured streams live under. Required; it
	// must exist.
	LogsDir string
	// Token is the bearer token. Off loopback it is required, and every
	// request but GET /healthz must carry it; on loopback, when set, POST
	// /decisions requires it.
	Token string
	// Loopback says the listener is bound to a loopback address only:
	// reads need no token then, and requests must name a loopback host
	// (a defence against DNS rebinding). Without Loopback, New refuses an
	// empty Token.
	Loopback bool
	// WriteTimeout bounds each write to a client; 0 means
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Reviewer is the reviewer of a decision posted without one, as `sift
	// decide` defaults to the OS user.
	Reviewer string
	// ClaimTTL is how long a claim posted without minutes holds; 0 is
	// review.DefaultClaimTTL.
	ClaimTTL time.Duration
	// Summary is the base of on-demand analyses (stall threshold, token
	// spike thresholds, prices).
	Summary summary.Options
	// Logger receives internal errors, which clients never see; nil
	// discards them.
	Logger *slog.Logger
	// Resume builds a follow-up's resume command, the program's one
	// (core/capture.ResumeCommand); nil gives none, saying so.
	Resume func(*review.Followup) review.Resume
}

// Server is the HTTP API. It implements http.Handler.
type Server struct {
	store        Store
	logs         *logsRoot
	token        string
	tokenSum     [sha256.Size]byte
	loopback     bool
	writeTimeout time.Duration
	reviewer     string
	claimTTL     time.Duration
	resume       func(*review.Followup) review.Resume
	summaryOpts  atomic.Pointer[summary.Options]
	log          *slog.Logger
	reg          *agents.Registry
	mux          *http.ServeMux
	cop          *http.CrossOriginProtection
	flights      flights
}

var _ http.Handler = (*Server)(nil)

// New returns a Server. Close it to release the logs root.
func New(opt Options) (*Server, error) {
	if opt.Store == nil {
		return nil, errors.New("httpapi: no store")
	}
	opt.Token = strings.TrimSpace(opt.Token)
	if !opt.Loopback && opt.Token == "" {
		return nil, ErrNeedToken
	}
	logs, err := openLogsRoot(opt.LogsDir)
	if err != nil {
		return nil, err
	}
	s := &Server{
		store:        opt.Store,
		logs:         logs,
		token:        opt.Token,
		tokenSum:     sha256.Sum256([]byte(opt.Token)),
		loopback:     opt.Loopback,
		writeTimeout: opt.WriteTimeout,
		reviewer:     opt.Reviewer,
		claimTTL:     opt.ClaimTTL,
		resume:       opt.Resume,
		log:          opt.Logger,
		reg:          agents.Default(),
		cop:          http.NewCrossOriginProtection(),
	}
	s.SetSummaryOptions(opt.Summary)
	if s.writeTimeout <= 0 {
		s.writeTimeout = DefaultWriteTimeout
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.routes()
	return s, nil
}

// SetSummaryOptions replaces the options of on-demand analyses, for a
// configuration reloaded while serving. It is safe to call at any time.
func (s *Server) SetSummaryOptions(o summary.Options) { s.summaryOpts.Store(&o) }

// Close releases the logs root.
func (s *Server) Close() error { return s.logs.Close() }

// ErrNeedToken is New's error for a listener that is not loopback-only
// and no token: such a server would hand every prompt, output and note to
// whoever can reach it.
var ErrNeedToken = errors.New("a server on an address other than loopback needs a bearer token")

// WritesAllowed reports whether POST /decisions can ever succeed: a token
// is configured, or the listener is loopback-only.
func (s *Server) WritesAllowed() bool { return s.token != "" || s.loopback }

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /workitems/{id}/agent-streams", s.handleListStreams)
	m.HandleFunc("GET /workitems/{id}/agent-streams/{fileName}", s.handleStream)
	m.HandleFunc("GET /workitems/{id}/agent-streams/{fileName}/summary", s.handleSummary)
	m.HandleFunc("GET /sessions", s.handleSessions)
	m.HandleFunc("GET /search", s.handleSearch)
	m.HandleFunc("GET /sessions/{id}/decisions", s.handleDecisions)
	m.HandleFunc("GET /sessions/{workItemId}/{fileName}/decisions", s.handleDecisions)
	m.HandleFunc("POST /decisions", s.handleDecide)
	m.HandleFunc("GET /followups", s.handleFollowups)
	m.HandleFunc("POST /sessions/{workItemId}/{fileName}/claim", s.handleClaim)
	s.mux = m
}

// ServeHTTP implements http.Handler: it checks the request line and host,
// sets the write deadline, and routes. Requests no route matches get a
// JSON 404 or 405 instead of the mux's plain text.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !safeRequestPath(r) {
		writeError(w, http.StatusBadRequest, CodeInvalidPath, "the request path is not allowed")
		return
	}
	if s.loopback && !loopbackHost(r.Host) {
		writeError(w, http.StatusForbidden, CodeForbidden, "this server answers to loopback host names only")
		return
	}
	// Off loopback every request but the health check carries the token,
	// checked before routing so that a client without it learns nothing,
	// not even which paths exist.
	if !s.loopback && r.URL.Path != "/healthz" && !s.bearerOK(r) {
		unauthorized(w)
		return
	}
	// A web page may not read either: loopback GETs need no token, so
	// any page the reviewer opens could otherwise read the store.
	if crossSite(r) {
		writeError(w, http.StatusForbidden, CodeForbidden, "cross-origin requests may not read or write")
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.writeTimeout))
	if _, pattern := s.mux.Handler(r); pattern == "" {
		s.noRoute(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// noRoute answers a request that matches no route, asking the mux only
// whether it would have said 404 or 405.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	h, _ := s.mux.Handler(r)
	rec := &statusRecorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", rec.header.Get("Allow"))
		writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed, "method "+r.Method+" is not allowed here")
		return
	}
	writeError(w, http.StatusNotFound, CodeNotFound, "no such endpoint")
}

// statusRecorder captures the status and headers a fallback handler of the
// mux writes, and drops its plain-text body.
type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header { return r.header }
func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return len(b), nil
}

// safeRequestPath refuses, before any routing, request paths that try to
// step out of a directory: dot segments (plain or percent-encoded), encoded
// slashes and backslashes, raw backslashes, NUL bytes and empty segments.
// No legitimate id or file name needs any of them.
func safeRequestPath(r *http.Request) bool {
	raw := r.RequestURI
	if raw == "" {
		raw = r.URL.EscapedPath()
	}
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		raw = raw[:i]
	}
	low := strings.ToLower(raw)
	for _, bad := range []string{"%2e", "%2f", "%5c", "%00", "\\"} {
		if strings.Contains(low, bad) {
			return false
		}
	}
	p := r.URL.Path
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	if p == "/" {
		return true
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// crossSite reports whether a browser sent r from another origin: its
// Sec-Fetch-Site says so, or, from a browser without it, its Origin names
// another host. Requests from programs (curl, the inbox) carry neither.
func crossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return false
	case "":
	default:
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	return err != nil || !strings.EqualFold(u.Host, r.Host)
}

// HTTPServer returns an http.Server for h with the API's timeouts: a bound
// on reading the request header and on idle keep-alive connections. There
// is no whole-response write timeout, because a stream may be long; the
// handler bounds every write instead.
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// IsLoopbackListener reports whether a listener accepts loopback
// connections only.
func IsLoopbackListener(l net.Listener) bool {
	a, ok := l.Addr().(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}
