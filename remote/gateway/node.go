package gateway

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote/guard"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// DefaultMaxInFlight is how many remote requests are answered at once by
// default.
const DefaultMaxInFlight = 256

// DefaultMaxConns is how many connections the node's remote port holds at
// once by default, handshakes included.
const DefaultMaxConns = 1024

// handshakeTimeout bounds a connection's TLS handshake: gRPC's own is 2
// minutes, which lets a peer without a certificate hold a connection
// slot that long.
const handshakeTimeout = 10 * time.Second

// remotePageBytes bounds an events page: well under gRPC's 4 MiB default
// message limit, which the receiving client's server applies.
const remotePageBytes = 1 << 20

// Config is a node's remote listener.
type Config struct {
	// Listen is the HOST:PORT remote serves on (port 0: any free port).
	Listen string
	// Advertise is the HOST:PORT peers reach this node at, when not
	// Listen's (behind NAT, in a container); its PIDs carry it.
	Advertise string
	// TLS are the node's member credentials: required.
	TLS *tlsca.Credentials
	// Operator answers the requests; its Surface is set to the remote
	// prompt surface.
	Operator control.Operator
	// MaxInFlight bounds the requests answered at once (0:
	// DefaultMaxInFlight).
	MaxInFlight int
	// MaxConns bounds the connections held at once, handshakes included
	// (0: DefaultMaxConns); one more is closed at once.
	MaxConns int
	// MaxQueuedReplies bounds the replies waiting in remote's queue for
	// one certificate's reply addresses, which do not read them (0:
	// DefaultMaxQueuedReplies): past it, the certificate's requests are
	// dropped unanswered and its stuck connections closed, and an
	// address's next request is answered replies_dropped.
	MaxQueuedReplies int
	// MaxQueuedReplyBytes bounds their bytes the same way (0:
	// DefaultMaxQueuedReplyBytes).
	MaxQueuedReplyBytes int
	// MaxInFlightPerClient bounds the requests of one certificate
	// answered at once (0: DefaultMaxInFlightPerClient); one more is
	// answered client_busy.
	MaxInFlightPerClient int
	Log                  zerolog.Logger
}

// Validate checks the addresses and the credentials.
func (c Config) Validate() error {
	if c.TLS == nil {
		return fmt.Errorf("%w: give --tls-dir with the node's member certificate (holon-actors ca issue --role member)", ErrNoTLS)
	}
	if c.TLS.Role != tlsca.RoleMember {
		return fmt.Errorf("%w: the node's certificate is a %s one; issue a member certificate", tlsca.ErrBadRole, c.TLS.Role)
	}
	if err := checkHostPort("remote listen address", c.Listen); err != nil {
		return err
	}
	if c.Advertise != "" {
		if err := checkHostPort("advertised address", c.Advertise); err != nil {
			return err
		}
	}
	return nil
}

func checkHostPort(what, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q is not HOST:PORT: %w", what, addr, err)
	}
	if host == "" {
		return fmt.Errorf("%s %q has no host: give one, e.g. 127.0.0.1:%s (0.0.0.0 for every interface)", what, addr, port)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%s %q: port %q is not 0 to 65535", what, addr, port)
	}
	return nil
}

// Node is a running remote listener with its gateway. Stop ends it.
type Node struct {
	sys    *actor.ActorSystem
	remote *remote.Remote
	pid    *actor.PID
	wg     *sync.WaitGroup
	log    zerolog.Logger
	book   *replyBook
	sub    *eventstream.Subscription
}

// Replies returns what the node knows of reply address addr: the replies
// waiting for it, the requests dropped, who holds it.
func (n *Node) Replies(addr string) ReplyStats { return n.book.stats(addr) }

// Start validates cfg, starts remote with mutual TLS and the guard, and
// spawns the gateway.
func Start(cfg Config) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = DefaultMaxInFlight
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.MaxQueuedReplies <= 0 {
		cfg.MaxQueuedReplies = DefaultMaxQueuedReplies
	}
	if cfg.MaxQueuedReplyBytes <= 0 {
		cfg.MaxQueuedReplyBytes = DefaultMaxQueuedReplyBytes
	}
	if cfg.MaxInFlightPerClient <= 0 {
		cfg.MaxInFlightPerClient = DefaultMaxInFlightPerClient
	}
	op := cfg.Operator
	op.Surface = messages.SurfaceRemoteControlPrompt
	if op.MaxPageBytes <= 0 || op.MaxPageBytes > remotePageBytes {
		op.MaxPageBytes = remotePageBytes
	}
	log := cfg.Log.With().Str("component", "remote").Logger()
	host, port, _ := net.SplitHostPort(cfg.Listen)
	portN, _ := strconv.Atoi(port)
	g := guard.New(log, GatewayName, RequestTypes()...)
	dialTLS := cfg.TLS.ClientConfig(tlsca.RoleMember, tlsca.RoleClient)
	book := newReplyBook(cfg.MaxQueuedReplies, cfg.MaxQueuedReplyBytes, cfg.MaxInFlightPerClient, probeTLS(dialTLS))
	opts := []remote.ConfigOption{
		remote.WithServerOptions(append(g.ServerOptions(), grpc.ConnectionTimeout(handshakeTimeout),
			grpc.Creds(guard.LimitConns(credentials.NewTLS(cfg.TLS.ServerConfig(tlsca.RoleMember, tlsca.RoleClient)), cfg.MaxConns)))...),
		// Replies go back on a connection the node dials to the sender's
		// address: a client's own listener, with its client certificate,
		// which the book records, with the replies it has yet to send.
		remote.WithDialOptions(grpc.WithTransportCredentials(&dialCreds{TransportCredentials: credentials.NewTLS(dialTLS), book: book}),
			grpc.WithStreamInterceptor(book.countSent)),
	}
	if cfg.Advertise != "" {
		opts = append(opts, remote.WithAdvertisedHost(cfg.Advertise))
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(zerolog.NewSlogHandler(log.With().Str("source", "lib").Logger()))
	}))
	r := remote.NewRemote(sys, remote.Configure(host, portN, opts...))
	if err := startRemote(r); err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("%w on %s: %w", ErrListen, cfg.Listen, err)
	}
	g.Bind(sys.Address())
	sub := sys.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*remote.EndpointTerminatedEvent); ok {
			book.terminated(t.Address)
		}
	})
	n := &Node{sys: sys, remote: r, wg: &sync.WaitGroup{}, log: log, book: book, sub: sub}
	gw := &gateway{op: op, log: log, slots: make(chan struct{}, cfg.MaxInFlight), wg: n.wg, book: book}
	pid, err := sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return gw }), GatewayName)
	if err != nil {
		r.Shutdown(false)
		sys.Shutdown()
		return nil, fmt.Errorf("spawn the gateway: %w", err)
	}
	n.pid = pid
	log.Info().Str("addr", n.Addr()).Str("node", cfg.TLS.Name).Msg("remote clients served")
	return n, nil
}

// startRemote starts r, turning its panic on a failed listen into an
// error.
func startRemote(r *remote.Remote) (err error) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", p)
			}
		}
	}()
	r.Start()
	return nil
}

// Addr is the address the node's PIDs carry: the advertised one, else the
// one it listens on (with the port chosen for port 0).
func (n *Node) Addr() string { return n.sys.Address() }

// stopRemote stops remote at once: its server closes every connection.
// Remote's graceful stop, which asks each peer to disconnect first, races
// with a stream closing at that moment upstream (it sends on the stream's
// channel as the stream closes it: the race detector's report, or a panic
// that guard.Shutdown recovers); a node that is going away has nothing to
// say to its peers that their connection's end does not.
func (n *Node) stopRemote() { n.remote.Shutdown(false) }

// endpointSupervisor is the name of remote's actor that supervises its
// connections to peers (one writer and one watcher each).
const endpointSupervisor = "EndpointSupervisor"

// stopEndpoints closes the node's connections to reply addresses (a
// writer stuck sending to one that does not read then returns) and stops
// remote's writers, waiting for them: a writer closes its gRPC
// connection as it stops, which writes gRPC's global logger, and must not
// outlive the node (another node started in the process then races with
// it, as upstream's remote does).
func (n *Node) stopEndpoints() {
	n.book.closeAll()
	if err := n.sys.Root.StopFuture(actor.NewPID(n.sys.Address(), endpointSupervisor)).Wait(); err != nil {
		n.log.Warn().Err(err).Msg("remote: the connections to clients did not stop in time")
	}
}

// Stop stops the gateway (cancelling the requests in flight, then waiting
// for them), then remote.
func (n *Node) Stop() error {
	var errs []error
	if err := n.sys.Root.StopFuture(n.pid).Wait(); err != nil {
		errs = append(errs, fmt.Errorf("stop the gateway: %w", err))
	}
	n.wg.Wait()
	n.sys.EventStream.Unsubscribe(n.sub)
	n.stopEndpoints()
	n.stopRemote()
	n.sys.Shutdown()
	n.log.Info().Msg("remote clients no longer served")
	return errors.Join(errs...)
}
