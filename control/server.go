package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Limits of the control API.
const (
	// MaxBodyBytes bounds a request body; larger ones get 413.
	MaxBodyBytes = 1 << 20
	// MaxJSONDepth bounds the nesting of a request body; deeper ones get 400.
	MaxJSONDepth = 32
	// DefaultPageLimit and MaxPageLimit bound an events page.
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
	// MaxPageBytes bounds the events of a page by their stored size too:
	// a page of large events holds fewer than its limit (one at least).
	MaxPageBytes = 4 << 20
	// readHeaderTimeout and readTimeout drop slow clients.
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	// keepAlive is how often an idle event stream gets a comment line.
	keepAlive = 15 * time.Second
	// DefaultStreamWriteTimeout is Config.StreamWriteTimeout's default.
	DefaultStreamWriteTimeout = time.Minute
)

// Config is what a Server serves.
type Config struct {
	Runtime Runtime
	// Forward, when set, serves at another node the requests about agents
	// placed there (forward.go); LocalHandler never forwards.
	Forward Forwarder
	// Cluster, when set, is the node's cluster status (cluster_status.go).
	Cluster func() *ClusterStatus
	// Homes makes a new agent's home from a template or instructions;
	// nil refuses both.
	Homes AgentHomes
	Store persistence.Store
	// Metrics serves GET /metrics (the runtime's Prometheus metrics);
	// nil answers 404.
	Metrics http.Handler
	// DefaultAgentID is the agent of the /status and /state aliases.
	DefaultAgentID string
	// Info describes the runtime process for GET /control/runtime/status.
	Info RuntimeInfo
	// Shutdown is called (once, in its own goroutine) by POST
	// /control/runtime/shutdown; it must stop the runtime gracefully.
	Shutdown func()
	// Triggers stores the agents' external trigger capabilities; nil
	// turns triggers off.
	Triggers TriggerStore
	// Advertise is the base URL external callers use (trigger URLs).
	Advertise string
	// PublicIngress enables POST /ingress/agents/{id}/messages for
	// untrusted input without a token.
	PublicIngress bool
	// PublicRate and PublicBurst bound every unauthenticated request
	// together (requests per second, burst); 0 means 50/s, burst 100.
	PublicRate  float64
	PublicBurst int
	// Instance, when set, is the value of InstanceEnv in the environment
	// of the agents' commands: a caller carrying it is refused like one the
	// runtime started.
	Instance string
	// MaxEventStreams caps the event streams (GET …/events as
	// text/event-stream) open at once; one more is refused with 429 and
	// Retry-After. 0 means DefaultMaxEventStreams.
	MaxEventStreams int
	// StreamWriteTimeout is how long an event stream may wait for its
	// client to take a page (or a keep-alive) before it is dropped, so a
	// client that stopped reading gives back its place and its page; 0
	// means DefaultStreamWriteTimeout.
	StreamWriteTimeout time.Duration
	// FrameCacheBytes bounds the encoded events the streams share (each
	// event is read and encoded once for all of them); 0 means
	// DefaultFrameCacheBytes.
	FrameCacheBytes int
	// LastFailure, when set, reports the last startup or shutdown failure
	// the owner recorded.
	LastFailure func() *Failure
	Clock       clockwork.Clock
	Log         zerolog.Logger
}

// RuntimeInfo is the static part of the runtime status.
type RuntimeInfo struct {
	PID               int       `json:"pid"`
	HomeDir           string    `json:"home_dir"`
	SocketPath        string    `json:"socket_path"`
	HTTPAddr          string    `json:"http_addr,omitempty"`
	DefaultAgentID    string    `json:"default_agent_id"`
	Version           string    `json:"version"`
	ConfigFingerprint string    `json:"config_fingerprint"`
	StartedAt         time.Time `json:"started_at"`
	// Models is the runtime's model chain: its model, then its fallbacks.
	Models []string `json:"models,omitempty"`
}

// Server serves the control API. Close ends open event streams.
type Server struct {
	cfg      Config
	mux      *http.ServeMux
	ctx      context.Context // cancelled by Close: ends event streams
	cancel   context.CancelFunc
	shutdown sync.Once

	public  *limiters
	gate    *gate
	streams *streamGate
	frames  *frameCache

	mu      sync.Mutex
	servers []*http.Server // guarded by mu
}

// NewServer builds a server over cfg.
func NewServer(cfg Config) *Server {
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	if cfg.StreamWriteTimeout <= 0 {
		cfg.StreamWriteTimeout = DefaultStreamWriteTimeout
	}
	if cfg.DefaultAgentID == "" {
		cfg.DefaultAgentID = actors.DefaultAgentID
	}
	cfg.Info.DefaultAgentID = cfg.DefaultAgentID
	s := &Server{cfg: cfg, mux: http.NewServeMux(), public: newLimiters(cfg.PublicRate, cfg.PublicBurst),
		gate:    &gate{callers: newCallers(cfg.Instance), failures: newFailures(cfg.Clock), log: cfg.Log},
		streams: newStreamGate(cfg.MaxEventStreams), frames: newFrameCache(cfg.Store, cfg.FrameCacheBytes)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.routes()
	return s
}

// Handler returns the API's handler, for tests and custom listeners.
func (s *Server) Handler() http.Handler { return s }

// ServeHTTP implements http.Handler: every route's errors are JSON.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if seg, ok := dotSegment(r.URL.Path); ok {
		// The mux would clean the path and redirect to another route:
		// GET /agents/../status to the default agent's /status.
		writeError(w, errorf(http.StatusBadRequest, KindBadRequest, "an agent id is "+messages.AgentIDRule,
			"path %s has a %q segment: %q is not a valid agent id", r.URL.Path, seg, seg))
		return
	}
	if s.forwarded(w, r) {
		return
	}
	if h, pattern := s.mux.Handler(r); pattern == "" {
		// The mux answers 404 or 405 in plain text; say it in JSON.
		rec := &statusRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if rec.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", rec.header.Get("Allow"))
			writeError(w, errorf(http.StatusMethodNotAllowed, KindMethod, "allowed: "+rec.header.Get("Allow"),
				"%s is not allowed on %s", r.Method, r.URL.Path))
			return
		}
		writeError(w, errorf(http.StatusNotFound, KindNotFound, "see GET /openapi.json for the routes",
			"no route %s %s", r.Method, r.URL.Path))
		return
	}
	s.mux.ServeHTTP(w, r) // routes again, setting the path values
}

// statusRecorder captures the mux's answer for unmatched requests.
type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *statusRecorder) WriteHeader(code int)        { r.status = code }

// Serve serves the API on the unix socket listener l until Close; callers
// of another uid, and the runtime's own tool processes, are refused. It returns http.ErrServerClosed after Close.
func (s *Server) Serve(l net.Listener) error {
	return s.serve(l, s.gate.unix(s), s.gate.callers.unixContext)
}

// ServeTCP serves the API on the TCP listener l with auth's checks (check
// the address first with auth.CheckListen: ServeTCP refuses to serve
// what it refuses, a listener without a token included). The runtime's own tool
// processes are refused, as on the socket, when the kernel tells which
// local process holds the client's end.
func (s *Server) ServeTCP(l net.Listener, auth TCPAuth) error {
	if err := auth.CheckListen(l.Addr().String()); err != nil {
		return fmt.Errorf("serve TCP: %w", err)
	}
	return s.serve(l, s.gate.tcp(auth, s), s.gate.callers.tcpContext)
}

func (s *Server) serve(l net.Listener, h http.Handler, connCtx func(context.Context, net.Conn) context.Context) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		BaseContext: func(net.Listener) context.Context { return s.ctx }, ConnContext: connCtx}
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		return http.ErrServerClosed
	}
	s.servers = append(s.servers, hs)
	s.mu.Unlock()
	return hs.Serve(l)
}

// Close ends event streams and stops every listener, waiting up to ctx
// for requests in flight.
func (s *Server) Close(ctx context.Context) error {
	s.cancel()
	s.mu.Lock()
	servers := s.servers
	s.mu.Unlock()
	var errs []error
	for _, hs := range servers {
		if err := hs.Shutdown(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ListenUnix creates the control socket at path: its directory 0700, the
// socket 0600. A stale socket file (nothing answers on it) is replaced; a
// live one, or any other file, is left alone and reported.
func ListenUnix(path string) (net.Listener, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("socket path %s is %d bytes, longer than the %d a unix socket allows: use a shorter --home",
			path, len(path), maxSocketPath)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create socket directory %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("restrict socket directory %s: %w", dir, err)
	}
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	// The directory is 0700, so nobody else reaches the socket before the
	// chmod below.
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("restrict socket %s: %w", path, err)
	}
	return l, nil
}

// maxSocketPath is the longest unix socket path every platform accepts
// (sun_path is 104 bytes on macOS, 108 on Linux, NUL included).
const maxSocketPath = 103

// ErrSocketInUse is returned by ListenUnix when a live process answers on
// the socket path.
var ErrSocketInUse = errors.New("control socket is in use by a running process")

// removeStaleSocket removes path if it is a socket nobody listens on.
func removeStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("inspect %s: %w", path, err)
	case fi.Mode()&os.ModeSocket == 0:
		return fmt.Errorf("%s exists and is not a socket: move it away", path)
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("%s: %w", path, ErrSocketInUse)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove stale socket %s: %w", path, err)
	}
	return nil
}

// decodeBody reads a JSON request body into v: bounded in size (413) and
// depth (400), unknown fields refused (400) so a typo is not ignored.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) *Error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return errorf(http.StatusRequestEntityTooLarge, KindTooLarge, "send at most 1 MiB",
			"request body is larger than %d bytes", MaxBodyBytes)
	case err != nil:
		return errorf(http.StatusBadRequest, KindBadRequest, "send the whole body", "read request body: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if err := checkDepth(body, MaxJSONDepth); err != nil {
		return errorf(http.StatusBadRequest, KindBadRequest, "flatten the JSON", "%v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, KindBadRequest, "send a JSON object with the documented fields (GET /openapi.json)",
			"request body is not valid: %v", err)
	}
	if dec.More() {
		return errorf(http.StatusBadRequest, KindBadRequest, "send exactly one JSON object", "request body has data after the JSON object")
	}
	return nil
}

// checkDepth reports JSON nested deeper than max, without decoding.
func checkDepth(b []byte, max int) error {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			if depth > max {
				return fmt.Errorf("request body nests deeper than %d levels", max)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// dotSegment returns the first "." or ".." segment of path.
func dotSegment(path string) (string, bool) {
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "." || seg == ".." {
			return seg, true
		}
	}
	return "", false
}
