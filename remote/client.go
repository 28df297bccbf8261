package remote

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	parem "github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/guard"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// Client talks to one node's gateway. It is safe for concurrent use.
type Client struct {
	opts Options
	sys  *actor.ActorSystem
	rem  *parem.Remote
	// gateways are the nodes' gateways (Addr, then Fallback), cur the
	// index of the one in use (failover.go).
	gateways []*actor.PID
	cur      atomic.Int32
	self     string // the address the node answers to
	// dropped counts the messages that reached a request's reply PID
	// without answering it.
	dropped atomic.Int64
}

// Dropped is how many messages reached the client's reply PIDs that did
// not answer the request waiting there (another request's reply, or one
// not from the node): they were dropped.
func (c *Client) Dropped() int64 { return c.dropped.Load() }

// Dial starts the client's endpoint and returns a client of the node at
// o.Addr. It does not wait for the node: the first request finds out
// whether it answers. Close releases the endpoint.
func Dial(ctx context.Context, o Options) (*Client, error) {
	o = o.withDefaults()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	creds, err := tlsca.Load(o.TLSDir, tlsca.RoleClient)
	if err != nil {
		return nil, fmt.Errorf("remote: %s: %w", o.TLSDir, err)
	}
	host, port, err := listenParts(o)
	if err != nil {
		return nil, err
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}))
	g := guard.New(zerolog.Nop(), "")
	opts := []parem.ConfigOption{
		// The node answers by dialling back: only a member certificate of
		// the CA may reach this endpoint, and the node must show one too.
		parem.WithServerOptions(append([]grpc.ServerOption{grpc.Creds(credentials.NewTLS(creds.ServerConfig(tlsca.RoleMember)))},
			// and even a node cannot crash it with upstream's known inputs
			g.ServerOptions()...)...),
		parem.WithDialOptions(grpc.WithTransportCredentials(credentials.NewTLS(clientTLS(creds)))),
	}
	if o.Advertise != "" {
		opts = append(opts, parem.WithAdvertisedHost(o.Advertise))
	}
	rem := parem.NewRemote(sys, parem.Configure(host, port, opts...))
	if err := start(rem); err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("remote: listen on %s: %w", o.Listen, err)
	}
	g.Bind(sys.Address())
	return &Client{opts: o, sys: sys, rem: rem, gateways: nodes(o), self: sys.Address()}, nil
}

// clientTLS is the dialer's config: present the client certificate,
// accept only a member (a node).
func clientTLS(c *tlsca.Credentials) *tls.Config { return c.ClientConfig(tlsca.RoleMember) }

// listenParts splits Listen for the remote config, refusing a wildcard
// address nobody could dial back without Advertise.
func listenParts(o Options) (string, int, error) {
	host, p, _ := net.SplitHostPort(o.Listen) // Validate checked it
	port, _ := strconv.Atoi(p)
	if unspecified(host) && o.Advertise == "" {
		return "", 0, fmt.Errorf("remote: listen address %s is every interface: give the HOST:PORT the node reaches this client on (advertise)", o.Listen)
	}
	return host, port, nil
}

// start runs the remote's Start, which panics when it cannot listen.
func start(r *parem.Remote) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	r.Start()
	return nil
}

// Address is the address the node answers this client on.
func (c *Client) Address() string { return c.self }

// closeGrace is how long Close lets remote shut down gracefully (closing
// its connections to the node) before it cuts the node's stream to this
// client, which the node keeps open and would hold the shutdown for
// remote's own 10 s.
const closeGrace = 100 * time.Millisecond

// Close stops the client's endpoint and its connections to the node.
// Requests in flight fail.
func (c *Client) Close() {
	_ = guard.Shutdown(c.rem, closeGrace) // a recovered upstream panic: the endpoint is stopped all the same
	c.sys.Shutdown()
}

// ErrNoAnswer is returned when the node did not answer a request in time:
// it is down, unreachable, or cannot reach this client back. It is also
// control.ErrNotRunning, so callers treat it as "no runtime there".
var ErrNoAnswer = errors.New("remote: no answer from the node")

// noAnswer is ErrNoAnswer with where and how long.
type noAnswer struct {
	addr, self string
	after      time.Duration
}

func (e *noAnswer) Error() string {
	return fmt.Sprintf("no runtime answered at %s within %s over the cluster protocol (is it running with --remote-listen, and can it reach this client at %s?)",
		e.addr, e.after, e.self)
}

func (e *noAnswer) Is(target error) bool {
	return target == ErrNoAnswer || target == control.ErrNotRunning
}

// ask sends req to the gateway and waits for its answer: the reply T, or
// the node's refusal as a *control.Error (the HTTP API's status, kind,
// message and hint). wait extends the call timeout for a long poll.
func ask[T proto.Message](ctx context.Context, c *Client, req proto.Message, wait time.Duration) (T, error) {
	var zero T
	timeout := c.opts.CallTimeout + wait
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < timeout {
		timeout = time.Until(dl)
	}
	if timeout <= 0 {
		return zero, context.DeadlineExceeded
	}
	proc := &replyProcess{req: req, got: make(chan any, 1), dropped: func() { c.dropped.Add(1) }}
	pid, ok := c.sys.ProcessRegistry.Add(proc, replyName())
	if !ok {
		return zero, errors.New("remote: a reply name collided") // 128 random bits: never
	}
	defer c.sys.ProcessRegistry.Remove(pid)
	gw := c.current()
	c.sys.Root.RequestWithCustomSender(gw, req, pid)
	t := time.NewTimer(timeout)
	defer t.Stop()
	var msg any // nil: no answer in time
	select {
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-t.C:
	case msg = <-proc.got:
	}
	switch m := msg.(type) {
	case nil:
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		c.failover(gw)
		return zero, &noAnswer{addr: gw.Address, self: c.self, after: timeout}
	case T:
		return m, nil
	case *remotepb.Error:
		return zero, refusal(m)
	case *actor.DeadLetterResponse:
		c.failover(gw)
		return zero, &noAnswer{addr: gw.Address, self: c.self, after: timeout}
	default:
		return zero, fmt.Errorf("remote: the node answered %T to %T", msg, req)
	}
}

// refusal is the node's error as the HTTP client returns it.
func refusal(e *remotepb.Error) *control.Error {
	return &control.Error{Status: int(e.GetHttpStatus()), Kind: e.GetCode(), Message: e.GetMessage(), Hint: e.GetHint(),
		ValidChoices: e.GetValidChoices()}
}
