package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	pacluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/cluster/pgmembers"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// AgentKind is the cluster kind of agents; an agent's identity is its id.
const AgentKind = "agent"

// ErrAnyAddress refuses a node listening on every interface: a node binds
// the address its peers reach it at.
var ErrAnyAddress = errors.New("cluster: listen on a specific address (such as 127.0.0.1:7300 or 10.0.0.5:7300), not on every interface")

// Config is one node of a cluster.
type Config struct {
	// Name is the node's name, journaled in agent_activated; it must be
	// the runtime's AgentDeps.Node.
	Name string
	// Cluster names the cluster (members of others are ignored); "" is
	// "holon".
	Cluster string
	// Listen is the HOST:PORT the node's cluster port binds (port 0: any
	// free port); Advertise, when set, is what peers dial instead.
	Listen    string
	Advertise string
	// TLS are the node's member credentials: peers must present member
	// certificates of the same CA.
	TLS *tlsca.Credentials
	// Pool reaches the journal's database, which holds the membership
	// leases.
	Pool *pgxpool.Pool
	// Runtime runs the agents this node activates.
	Runtime *actors.Runtime
	// Lease is the membership lease (pgmembers.Config.Lease).
	Lease time.Duration
	// Lost is called when the node lost its membership: it must stop.
	Lost func(error)
	// API, when set, is the node's control API, which serves the
	// requests other nodes forward to the agents placed here (Call).
	API http.Handler
	Log zerolog.Logger
}

// Validate checks the addresses and the credentials.
func (c Config) Validate() error {
	if c.Name == "" {
		return errors.New("cluster: the node needs a name (--node-name)")
	}
	host, port, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("cluster: listen address %q: %w (give HOST:PORT)", c.Listen, err)
	}
	if _, err := strconv.Atoi(port); err != nil {
		return fmt.Errorf("cluster: listen address %q: port %q is not a number", c.Listen, port)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return fmt.Errorf("%w: %q", ErrAnyAddress, c.Listen)
	}
	if c.TLS == nil {
		return errors.New("cluster: the node needs its member certificate (holon-actors ca issue --role member)")
	}
	if c.Pool == nil || c.Runtime == nil {
		return errors.New("cluster: the node needs the journal's database and a runtime")
	}
	return nil
}

// attemptTimeout bounds one attempt of a request to an agent.
const attemptTimeout = 2 * time.Second

// Node is a running cluster member: it hosts the agents the cluster places
// on it and reaches the others'.
type Node struct {
	sys     *actor.ActorSystem
	c       *pacluster.Cluster
	name    string
	timeout time.Duration
	left    *departures
	unwatch func()
	members *pgmembers.Provider
}

// Start joins the cluster. It takes about a second (Proto.Actor's own
// start).
func Start(cfg Config) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Cluster == "" {
		cfg.Cluster = "holon"
	}
	host, port, _ := net.SplitHostPort(cfg.Listen)
	portN, _ := strconv.Atoi(port)
	log := cfg.Log.With().Str("component", "cluster").Str("node", cfg.Name).Logger()
	opts := []remote.ConfigOption{
		remote.WithServerOptions(grpc.Creds(credentials.NewTLS(cfg.TLS.ServerConfig(tlsca.RoleMember)))),
		remote.WithDialOptions(grpc.WithTransportCredentials(credentials.NewTLS(cfg.TLS.ClientConfig(tlsca.RoleMember)))),
	}
	if cfg.Advertise != "" {
		opts = append(opts, remote.WithAdvertisedHost(cfg.Advertise))
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(zerolog.NewSlogHandler(log.With().Str("source", "lib").Logger().Level(zerolog.WarnLevel)))
	}))
	prov := pgmembers.New(cfg.Pool, pgmembers.Config{Cluster: cfg.Cluster, Lease: cfg.Lease, Lost: cfg.Lost, Log: log})
	kind := pacluster.NewKind(AgentKind, actor.PropsFromProducer(func() actor.Actor {
		return &agentGrain{rt: cfg.Runtime, node: cfg.Name, log: log, api: cfg.API}
	}))
	pc := pacluster.New(sys, pacluster.Configure(cfg.Cluster, prov, disthash.New(),
		remote.Configure(host, portN, opts...), pacluster.WithKinds(kind)))
	if err := startMember(pc); err != nil {
		sys.Shutdown()
		return nil, fmt.Errorf("cluster: start node %s on %s: %w", cfg.Name, cfg.Listen, err)
	}
	log.Info().Str("addr", sys.Address()).Msg("cluster node started")
	left, unwatch := newDepartures(sys)
	return &Node{sys: sys, c: pc, name: cfg.Name, timeout: attemptTimeout, left: left, unwatch: unwatch, members: prov}, nil
}

// startMember starts pc, turning its panics (a failed listen, a provider
// that cannot register) into an error.
func startMember(pc *pacluster.Cluster) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	pc.StartMember()
	return nil
}

// Addr is the address peers reach the node at.
func (n *Node) Addr() string { return n.sys.Address() }

// Prompt admits req at its agent's activation, wherever the cluster
// places it, and returns what the agent answered.
func (n *Node) Prompt(ctx context.Context, req *remotepb.PromptRequest) (*remotepb.PromptAccepted, error) {
	res, err := n.request(ctx, req.GetAgentId(), req)
	if err != nil {
		return nil, fmt.Errorf("cluster: prompt agent %s: %w", req.GetAgentId(), err)
	}
	switch r := res.(type) {
	case *remotepb.PromptAccepted:
		return r, nil
	case *remotepb.Error:
		return nil, fmt.Errorf("cluster: prompt agent %s: %s: %s", req.GetAgentId(), r.GetCode(), r.GetMessage())
	default:
		return nil, fmt.Errorf("cluster: prompt agent %s: unexpected answer %T", req.GetAgentId(), res)
	}
}

// Close leaves the cluster (graceful: the others drop it at once) and
// stops the node's actor system; the runtime is the caller's.
func (n *Node) Close() {
	n.unwatch()
	n.c.Shutdown(true)
	if !n.sys.IsStopped() { // Cluster.Shutdown stops it (a second stop panics)
		n.sys.Shutdown()
	}
}

// Members returns the addresses of the cluster's members as this node
// sees them, sorted.
func (n *Node) Members() []string {
	var out []string
	for _, m := range n.c.MemberList.Members().Members() {
		out = append(out, m.Address())
	}
	slices.Sort(out)
	return out
}
