package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	osexec "os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"
)

// State is where a server's connection is.
type State string

// The server states.
const (
	StateIdle        State = "idle"        // not started: no agent has needed it yet
	StateStarting    State = "starting"    // connecting
	StateReady       State = "ready"       // connected, tools listed
	StateRestarting  State = "restarting"  // crashed, waiting for its backoff to reconnect
	StateQuarantined State = "quarantined" // crashed too often: not restarted until the runtime restarts
	StateClosed      State = "closed"      // the runtime shut it down
)

// The server errors.
var (
	// ErrQuarantined: the server crashed too often and is not restarted.
	ErrQuarantined = errors.New("mcp server quarantined after repeated crashes")
	// ErrRestarting: the server crashed and is waiting to be restarted.
	ErrRestarting = errors.New("mcp server restarting")
	// ErrClosed: the runtime is shutting down.
	ErrClosed = errors.New("mcp server closed")
)

// Options tune the supervision of every server.
type Options struct {
	// Backoff is the wait before the first restart, doubled after each
	// crash up to MaxBackoff (defaults 1s and 30s).
	Backoff, MaxBackoff time.Duration
	// MaxCrashes is how many crashes in a row (no successful call in
	// between) quarantine a server (default 3).
	MaxCrashes int
	// ConnectTimeout bounds starting a server and listing its tools
	// (default 30s).
	ConnectTimeout time.Duration
	// Getenv reads the variables named by env and headers.
	Getenv func(string) string
	// Environ is a stdio server's base environment (the runtime's, less
	// its secrets).
	Environ []string
	// Procs records a stdio server's process group, so orphans of a
	// killed runtime are found at the next start; nil records nothing.
	Procs *ProcTable
	Log   zerolog.Logger
	// OnQuarantine is called (in its own goroutine) when a server is
	// quarantined, with what the agents using it should be told.
	OnQuarantine func(server, message string)
	// OnToolsChanged is called after a server's tool list was listed
	// again on notifications/tools/list_changed.
	OnToolsChanged func(server string)
}

func (o Options) withDefaults() Options {
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 30 * time.Second
	}
	if o.MaxCrashes <= 0 {
		o.MaxCrashes = 3
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 30 * time.Second
	}
	return o
}

// Server supervises the connection to one MCP server, shared by every
// agent that uses it: it connects on first use, lists the server's tools
// and lists them again on notifications/tools/list_changed, reconnects
// with backoff after a crash and gives up (quarantine) after MaxCrashes in
// a row. It is safe for concurrent use. Its goroutines (a watcher per
// session, the restart timer, list refreshes) are its own: Close stops
// them and waits.
type Server struct {
	name string
	cfg  ServerConfig
	opts Options
	log  zerolog.Logger

	mu       sync.Mutex
	state    State
	session  *sdk.ClientSession
	tools    []*sdk.Tool
	lastErr  string
	crashes  int
	restarts int
	retry    *time.Timer    // the pending restart, or nil
	dialing  chan struct{}  // closed when the connect in flight ends; nil when none
	wg       sync.WaitGroup // watchers, refreshes, restarts, the actor's connects
	pid      *actor.PID     // the server's actor once spawned (Manager.Spawn), else nil
	root     *actor.RootContext
}

// NewServer returns the supervisor of server name; nothing starts until
// it is first used.
func NewServer(name string, cfg ServerConfig, opts Options) *Server {
	opts = opts.withDefaults()
	return &Server{name: name, cfg: cfg, opts: opts, state: StateIdle,
		log: opts.Log.With().Str("mcp_server", name).Logger()}
}

// Name is the server's configured name.
func (s *Server) Name() string { return s.name }

// Config is the server's configuration.
func (s *Server) Config() ServerConfig { return s.cfg }

// Status is a server's state as the operator sees it.
type Status struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"` // stdio or http
	State     State    `json:"state"`
	Tools     []string `json:"tools"`
	LastError string   `json:"last_error,omitempty"`
	Crashes   int      `json:"crashes"`
	Restarts  int      `json:"restarts"`
}

// Status reports the server's state, its offered tools and last error.
func (s *Server) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.name, Transport: "http", State: s.state, LastError: s.lastErr, Crashes: s.crashes,
		Restarts: s.restarts, Tools: []string{}}
	if s.cfg.Stdio() {
		st.Transport = "stdio"
	}
	for _, t := range s.tools {
		st.Tools = append(st.Tools, t.Name)
	}
	return st
}

// Tools returns the server's offered tools (its allow and deny lists
// applied), connecting first when it is idle. A crashed or quarantined
// server has none.
func (s *Server) Tools(ctx context.Context) ([]*sdk.Tool, error) {
	if _, err := s.acquire(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools, nil
}

// Session returns the live session, connecting when the server is idle;
// one connect runs at a time and the others wait for it.
func (s *Server) Session(ctx context.Context) (*sdk.ClientSession, error) {
	for {
		s.mu.Lock()
		switch s.state {
		case StateReady:
			cs := s.session
			s.mu.Unlock()
			return cs, nil
		case StateQuarantined:
			err := fmt.Errorf("%w: %s (last error: %s)", ErrQuarantined, s.name, s.lastErr)
			s.mu.Unlock()
			return nil, err
		case StateClosed:
			s.mu.Unlock()
			return nil, fmt.Errorf("%w: %s", ErrClosed, s.name)
		case StateRestarting:
			err := fmt.Errorf("%w: %s crashed (%s)", ErrRestarting, s.name, s.lastErr)
			s.mu.Unlock()
			return nil, err
		}
		if s.dialing == nil {
			s.dialing = make(chan struct{})
			s.state = StateStarting
			done := s.dialing
			s.mu.Unlock()
			s.dial()
			close(done)
			continue
		}
		done := s.dialing
		s.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// dial connects and lists the tools; on failure it counts a crash.
func (s *Server) dial() {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.ConnectTimeout)
	defer cancel()
	cs, err := s.connect(ctx)
	var list []*sdk.Tool
	if err == nil {
		if list, err = s.list(ctx, cs); err != nil {
			_ = cs.Close()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dialing = nil
	if s.state == StateClosed || s.state == StateQuarantined {
		if cs != nil && err == nil {
			go func() { _ = cs.Close() }()
		}
		return
	}
	if err != nil {
		s.crashedLocked(fmt.Sprintf("start: %v", err))
		return
	}
	s.state, s.session, s.tools = StateReady, cs, list
	s.log.Info().Int("tools", len(list)).Msg("mcp server ready")
	s.wg.Add(1)
	go s.watch(cs)
}

// connect starts the transport and the MCP session.
func (s *Server) connect(ctx context.Context) (*sdk.ClientSession, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "holon-actors", Version: "1"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			s.refresh()
		},
	})
	t, err := s.transport()
	if err != nil {
		return nil, err
	}
	return client.Connect(ctx, t, nil)
}

// transport builds the stdio or Streamable HTTP transport of the config.
func (s *Server) transport() (sdk.Transport, error) {
	if !s.cfg.Stdio() {
		hdr := http.Header{}
		for k, v := range s.cfg.Headers {
			val := s.getenv(v)
			if val == "" {
				return nil, fmt.Errorf("header %s: the environment variable %s is not set", k, v)
			}
			hdr.Set(k, val)
		}
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, MaxRetries: -1,
			HTTPClient: &http.Client{Transport: headerTransport{hdr: hdr}}}, nil
	}
	cmd := osexec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Dir = s.cfg.Cwd
	cmd.Env = append([]string(nil), s.opts.Environ...)
	for k, v := range s.cfg.Env {
		val, ok := s.lookupEnv(v)
		if !ok {
			return nil, fmt.Errorf("env %s: the environment variable %s is not set", k, v)
		}
		cmd.Env = append(cmd.Env, k+"="+val)
	}
	// Its own process group (killed whole), killed with the runtime.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return &groupTransport{CommandTransport: sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second},
		procs: s.opts.Procs, server: s.name}, nil
}

func (s *Server) getenv(name string) string {
	v, _ := s.lookupEnv(name)
	return v
}

func (s *Server) lookupEnv(name string) (string, bool) {
	if s.opts.Getenv == nil {
		return "", false
	}
	v := s.opts.Getenv(name)
	return v, v != ""
}

// list lists the server's tools, keeping those its allow and deny lists offer.
func (s *Server) list(ctx context.Context, cs *sdk.ClientSession) ([]*sdk.Tool, error) {
	var out []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		if s.cfg.Offers(t.Name) && toolName.MatchString(t.Name) {
			out = append(out, t)
		}
	}
	return out, nil
}

// refresh lists the tools again after notifications/tools/list_changed.
func (s *Server) refresh() {
	s.mu.Lock()
	cs := s.session
	if s.state != StateReady || cs == nil {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), s.opts.ConnectTimeout)
		defer cancel()
		list, err := s.list(ctx, cs)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil || s.session != cs {
			return
		}
		s.tools = list
		s.log.Info().Int("tools", len(list)).Msg("mcp tools changed")
		if f := s.opts.OnToolsChanged; f != nil {
			s.wg.Add(1)
			go func() { defer s.wg.Done(); f(s.name) }()
		}
	}()
}

// watch waits for session cs to end; an end the runtime did not ask for
// is a crash.
func (s *Server) watch(cs *sdk.ClientSession) {
	defer s.wg.Done()
	err := cs.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != cs || s.state != StateReady {
		return
	}
	s.session, s.tools = nil, nil
	msg := "the connection ended"
	if err != nil {
		msg += ": " + err.Error()
	}
	s.crashedLocked(msg)
}

// crashedLocked counts a crash: quarantine after MaxCrashes in a row,
// otherwise a restart after the backoff.
func (s *Server) crashedLocked(msg string) {
	s.crashes++
	s.lastErr = msg
	s.log.Warn().Int("crashes", s.crashes).Str("error", msg).Msg("mcp server crashed")
	if s.crashes >= s.opts.MaxCrashes {
		s.quarantineLocked(fmt.Sprintf("crashed %d times in a row", s.crashes), msg)
		return
	}
	s.state = StateRestarting
	wait := s.opts.Backoff << (s.crashes - 1)
	if wait > s.opts.MaxBackoff || wait <= 0 {
		wait = s.opts.MaxBackoff
	}
	s.wg.Add(1)
	s.retry = time.AfterFunc(wait, func() {
		defer s.wg.Done()
		s.mu.Lock()
		if s.state != StateRestarting {
			s.mu.Unlock()
			return
		}
		s.state, s.retry = StateIdle, nil
		s.restarts++
		s.mu.Unlock()
		_, _ = s.Session(context.Background())
	})
}

// quarantineLocked stops restarting the server and tells its agents
// (through OnQuarantine) why.
func (s *Server) quarantineLocked(why, lastErr string) {
	s.state = StateQuarantined
	if f := s.opts.OnQuarantine; f != nil {
		text := fmt.Sprintf("MCP server %s %s and is quarantined; its tools are gone until the runtime restarts (last error: %s).",
			s.name, why, lastErr)
		s.wg.Add(1)
		go func() { defer s.wg.Done(); f(s.name, text) }()
	}
}

// quarantine quarantines the server after its actor panicked too often,
// ending its session (a stdio server's process group with it).
func (s *Server) quarantine(reason string) {
	s.mu.Lock()
	s.lastErr = reason
	s.log.Error().Str("error", reason).Msg("mcp server actor gave up")
	cs := s.session
	s.session, s.tools = nil, nil
	if s.retry != nil && s.retry.Stop() {
		s.wg.Done() // the stopped restart never runs
	}
	s.retry = nil
	s.quarantineLocked("stopped after its actor panicked repeatedly", reason)
	s.mu.Unlock()
	if cs != nil {
		_ = cs.Close()
	}
}

// succeeded notes a successful call: the crash count starts again.
func (s *Server) succeeded() {
	s.mu.Lock()
	s.crashes = 0
	s.mu.Unlock()
}

// Close ends the session (a stdio server's whole process group with it)
// and waits for the server's goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.state != StateQuarantined { // a quarantine stays visible
		s.state = StateClosed
	}
	cs := s.session
	s.session = nil
	if s.retry != nil && s.retry.Stop() {
		s.wg.Done() // the stopped restart never runs
	}
	s.retry = nil
	dialing := s.dialing
	s.mu.Unlock()
	if dialing != nil {
		<-dialing
	}
	var err error
	if cs != nil {
		err = cs.Close()
	}
	s.wg.Wait()
	return err
}

// CallTool calls tool with args within the server's timeout.
func (s *Server) CallTool(ctx context.Context, tool string, args map[string]any) (*sdk.CallToolResult, error) {
	cs, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout())
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err == nil {
		s.succeeded()
	}
	return res, err
}

// headerTransport adds the configured headers to every request.
type headerTransport struct{ hdr http.Header }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.hdr {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

// schemaOf is a tool's input schema as JSON.
func schemaOf(t *sdk.Tool) json.RawMessage {
	b, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil
	}
	return b
}
