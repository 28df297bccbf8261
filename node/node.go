package node

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// Config is what Start needs: everything already parsed and checked.
type Config struct {
	Home     string
	Log      zerolog.Logger
	Provider *ModelProvider
	// Agents configures every agent; Agents.Home is set to Home and
	// Agents.Secrets to Secrets.
	Agents  AgentOptions
	Secrets *secrets.Registry
	// Journal, when set, is the postgres:// URL of the journal, kept in
	// PostgreSQL instead of Badger under Home (see openPostgres).
	Journal string
	// DiskReserveMiB is the free space the journal keeps.
	DiskReserveMiB int64
	// ScrubInterval is the background scrub's period (0: none; negative
	// is refused with ErrConfig).
	ScrubInterval time.Duration
	// TrashRetention is how long deleted agents' archives stay in
	// HOME/trash before a start removes them (0: kept; negative is
	// refused with ErrConfig).
	TrashRetention time.Duration
	// Models is the model chain reported in the runtime status.
	Models []string

	// Listen, when set, is the TCP address the control API is also
	// served on, with Auth; TokenGenerated says the token is the
	// generated $HOLON_HOME/run/control.token (logged at start).
	Listen         string
	Auth           control.TCPAuth
	TokenGenerated bool
	Advertise      string
	PublicIngress  bool
	// Remote, when set, serves remote clients over the Proto.Actor
	// remote protocol with mutual TLS (its Log and Operator are filled
	// in by Start).
	Remote *gateway.Config
	// MaxEventStreams caps the event streams served at once.
	MaxEventStreams int
	// Fingerprint and Version are reported in runtime.json and status.
	Fingerprint, Version string
	// ShutdownTimeout bounds how long Shutdown waits for turns in flight.
	ShutdownTimeout time.Duration
	// Observability configures traces and metrics (telemetry.go).
	Observability Observability
	// Homes says where agents' home templates come from.
	Homes agenthome.Config
	// Cluster, when set, makes the node a cluster member (cluster.go).
	Cluster *ClusterConfig
}

// Node is a started runtime: store, runtime and control server.
type Node struct {
	cfg      Config
	socket   string
	instance string // control.InstanceEnv of the agents' commands
	store    persistence.Store
	rt       *actors.Runtime
	srv      *control.Server
	remote   *gateway.Node // serving remote clients, or nil
	// tel is the agents' telemetry; metricsSrv serves --metrics-listen
	// at metricsAddr (nil and "" when off).
	tel         *telemetry.Telemetry
	metricsSrv  *http.Server
	metricsAddr string
	mcp         *mcp.Manager // the agents' MCP servers, or nil
	due         *dueScan     // the PostgreSQL journal's due scanner, or nil
	cl          clusterState // the cluster membership (cluster.go)
	// served gets the end of each control server (unix, TCP) and of the
	// metrics server: sent by their goroutines, never closed, buffered
	// for all three.
	served chan error
	// shutdownRequested is closed by the control API's shutdown route.
	shutdownRequested chan struct{}
	// retention runs journal retention (retention.go).
	retention retentionRun
	// triggers is the control API's trigger store (cluster_triggers.go).
	triggers control.TriggerStore
}

// Start opens the store (taking the data-directory lock), recovers the
// agents, activates the default agent and serves the control socket. On
// failure it records it (unless another runtime owns the home:
// persistence.ErrLocked), closes what it opened and returns the error.
func Start(cfg Config) (*Node, error) {
	cfg.Agents.Home, cfg.Agents.Secrets = cfg.Home, cfg.Secrets
	n := &Node{cfg: cfg, served: make(chan error, 3), shutdownRequested: make(chan struct{})}
	if err := n.start(); err != nil {
		if !errors.Is(err, persistence.ErrLocked) { // not ours to record: another runtime owns the home
			n.recordFailure("startup", err)
		}
		n.stop()
		return nil, err
	}
	return n, nil
}

// Socket is the control socket's path.
func (n *Node) Socket() string { return n.socket }

// Runtime is the running runtime.
func (n *Node) Runtime() *actors.Runtime { return n.rt }

func (n *Node) runDir() string { return persistence.RunDir(n.cfg.Home) }

func (n *Node) start() error {
	if err := os.MkdirAll(n.runDir(), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", n.runDir(), err)
	}
	if n.cfg.ScrubInterval < 0 {
		return invalid(fmt.Errorf("--scrub-interval %v is negative: give how often to scrub the journals (e.g. 24h), or 0 for no scrub", n.cfg.ScrubInterval))
	}
	if n.cfg.TrashRetention < 0 {
		return invalid(fmt.Errorf("--trash-retention %v is negative: give how long to keep deleted agents' archives (e.g. 168h), or 0 to keep them", n.cfg.TrashRetention))
	}
	if err := n.checkCluster(); err != nil {
		return err
	}
	if err := n.openStore(); err != nil {
		return err
	}
	if err := secrets.Undumpable(); err != nil {
		n.cfg.Log.Warn().Err(err).Msg("processes of this user can read the runtime's memory, keys included")
	}
	if err := exec.BecomeSubreaper(); err != nil {
		n.cfg.Log.Warn().Err(err).Msg("escaped command processes will be found by their token only")
	}
	if err := n.startTelemetry(); err != nil {
		return err
	}
	if err := n.startRuntime(); err != nil {
		return err
	}
	if err := n.serve(); err != nil {
		return err
	}
	return n.startCluster()
}

// openStore opens the journal (Badger under Home, or PostgreSQL with
// Config.Journal) and notes how the previous run ended.
func (n *Node) openStore() error {
	if n.cfg.Journal != "" {
		return n.openPostgres()
	}
	so := persistence.DefaultOptions(persistence.DataDir(n.cfg.Home))
	so.Logger = SlogOf(n.cfg.Log)
	so.MinFreeBytes = n.cfg.DiskReserveMiB << 20
	so.Redact = n.cfg.Secrets.RedactBytes
	ran := previousRun(n.cfg.Home)
	store, err := persistence.Open(so)
	if err != nil {
		return err
	}
	n.store = store
	n.noteUncleanExit(ran) // we own the home now
	n.noteDiskReserve()
	return nil
}

// startRuntime builds the runtime, recovers the agents with open work,
// activates the default agent and starts the scrub.
func (n *Node) startRuntime() error {
	// Every command the agents run carries this run's instance marker, so
	// the control API knows it for a tool process even once it has left
	// the runtime's process tree.
	n.instance = rand.Text()
	opts := n.cfg.Agents
	opts.ExtraEnv = append(opts.ExtraEnv[:len(opts.ExtraEnv):len(opts.ExtraEnv)], control.InstanceEnv+"="+n.instance)
	deps, err := opts.Deps(n.store, n.cfg.Provider, n.cfg.Log)
	if err != nil {
		return err
	}
	deps.Telemetry = n.tel
	deps.Node = n.nodeName()
	if err := n.startMCP(&deps); err != nil {
		return err
	}
	if n.rt, err = actors.NewRuntime(deps, actors.RuntimeOptions{Logger: SlogOf(n.cfg.Log)}); err != nil {
		return err
	}
	n.cfg.Provider.UseTransports(n.rt)
	n.sweepTrash()
	n.seedHomes()
	if n.clustered() {
		return n.startClusterRuntime()
	}
	began := time.Now()
	recovered, err := n.rt.Recover(context.Background())
	if err != nil {
		return fmt.Errorf("recover agents: %w", err)
	}
	n.registerGauges(time.Since(began))
	if len(recovered) > 0 {
		n.cfg.Log.Info().Strs("agents", recovered).Msg("resumed agents with open work")
	}
	switch err := n.rt.Activate(context.Background(), opts.DefaultAgent); {
	case errors.Is(err, actors.ErrJournalQuarantined):
		// Contained: reported in status and to the operator; the other
		// agents are served.
		n.cfg.Log.Error().Err(err).Msg("the default agent's journal is quarantined; serving the other agents")
	case err != nil:
		return fmt.Errorf("start the default agent: %w", err)
	}
	n.rt.StartScrub(n.cfg.ScrubInterval) // the runtime stops it when it halts
	n.startRetention()
	return n.startDueScan()
}

// serve listens on the control socket (and TCP), serves the control API
// and writes runtime.json.
func (n *Node) serve() error {
	n.socket = filepath.Join(n.runDir(), SocketName)
	l, err := control.ListenUnix(n.socket)
	if err != nil {
		return err
	}
	var tl net.Listener
	if n.cfg.Listen != "" {
		if tl, err = net.Listen("tcp", n.cfg.Listen); err != nil {
			l.Close()
			return fmt.Errorf("listen on %s: %w", n.cfg.Listen, err)
		}
	}
	info := control.RuntimeInfo{PID: os.Getpid(), HomeDir: n.cfg.Home, SocketPath: n.socket,
		Version: n.cfg.Version, ConfigFingerprint: n.cfg.Fingerprint, StartedAt: time.Now().UTC(),
		Models: n.cfg.Models}
	if tl != nil {
		info.HTTPAddr = tl.Addr().String()
	}
	triggers, err := n.openTriggers()
	if err != nil {
		l.Close()
		if tl != nil {
			tl.Close()
		}
		return err
	}
	n.triggers = triggers
	n.srv = control.NewServer(control.Config{Runtime: n.rt, Store: n.store, Info: info, Log: n.cfg.Log,
		DefaultAgentID: n.cfg.Agents.DefaultAgent, Triggers: triggers, Advertise: n.cfg.Advertise,
		PublicIngress: n.cfg.PublicIngress, Instance: n.instance, MaxEventStreams: n.cfg.MaxEventStreams,
		Shutdown: func() { close(n.shutdownRequested) }, LastFailure: n.lastFailure, Metrics: n.tel.Metrics().Handler(),
		Homes: agentHomes{home: n.cfg.Home, cfg: n.cfg.Homes}, Forward: n.forwarder(), Cluster: n.clusterStatus()})
	n.registerStreams()
	go func() { n.served <- n.srv.Serve(l) }()
	if tl != nil {
		ev := n.cfg.Log.Info().Str("addr", info.HTTPAddr).Str("access", string(n.cfg.Auth.Access))
		if n.cfg.TokenGenerated {
			ev = ev.Str("token_file", filepath.Join(n.runDir(), control.TokenFileName))
		}
		ev.Msg("control API on TCP")
		go func() { n.served <- n.srv.ServeTCP(tl, n.cfg.Auth) }()
	}
	if err := n.startRemote(); err != nil {
		return err
	}
	if err := n.serveMetrics(); err != nil {
		return err
	}
	rf := RuntimeFile{PID: info.PID, HomeDir: n.cfg.Home, SocketPath: n.socket, HTTPAddr: info.HTTPAddr, RemoteAddr: n.RemoteAddr(),
		ConfigFingerprint: info.ConfigFingerprint, Version: info.Version, StartedAt: info.StartedAt}
	if err := WriteJSONFile(filepath.Join(n.runDir(), RuntimeFileName), rf); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(n.runDir(), FailureFileName)) // a healthy start clears the last failure
	return nil
}

// Wait blocks until ctx ends, a shutdown is requested over the control
// API, or a control server stops, and logs which.
func (n *Node) Wait(ctx context.Context) {
	select {
	case <-ctx.Done():
		n.cfg.Log.Info().Msg("signal received: shutting down")
	case <-n.shutdownRequested:
		n.cfg.Log.Info().Msg("shutdown requested over the control API")
	case err := <-n.served:
		n.cfg.Log.Error().Err(err).Msg("control server stopped")
	case err := <-n.lostCh():
		n.cl.lostErr = err
		n.cfg.Log.Error().Err(err).Msg("lost the cluster membership: stopping")
	}
}

// Shutdown stops taking requests, lets turns in flight finish within the
// shutdown timeout, then stops agents and the store and leaves the
// clean-shutdown marker. A failure is recorded and returned.
func (n *Node) Shutdown() error {
	if err := n.drainAndStop(); err != nil {
		n.recordFailure("shutdown", err)
		return err
	}
	return nil
}

func (n *Node) drainAndStop() error {
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.ShutdownTimeout)
	defer cancel()
	if err := n.srv.Close(ctx); err != nil {
		n.cfg.Log.Warn().Err(err).Msg("control requests still open at shutdown")
	}
	if err := n.stopRemote(); err != nil {
		n.cfg.Log.Warn().Err(err).Msg("remote clients at shutdown")
	}
	n.waitTurns(ctx)
	n.leaveCluster()
	if err := n.stop(); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(n.runDir(), RuntimeFileName))
	if err := os.WriteFile(filepath.Join(n.runDir(), CleanMarkerName), []byte(time.Now().UTC().Format(time.RFC3339Nano)+"\n"), 0o600); err != nil {
		return fmt.Errorf("write clean-shutdown marker: %w", err)
	}
	n.cfg.Log.Info().Msg("runtime stopped cleanly")
	return nil
}

// waitTurns waits until no active agent has a turn in flight, or ctx ends.
// An agent that cannot answer before ctx ends counts as busy: the warning
// is not lost when the timeout falls during a scan.
func (n *Node) waitTurns(ctx context.Context) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline, _ := ctx.Deadline()
	for {
		busy := 0
		for _, id := range n.rt.Active() {
			in, err := n.rt.Info(ctx, id)
			// The ask's own timeout is ctx's deadline, and can fire a moment
			// before ctx reports it: past the deadline, no answer is busy.
			late := ctx.Err() != nil || (!deadline.IsZero() && !time.Now().Before(deadline))
			if (err == nil && in.TurnInFlight) || (err != nil && late) {
				busy++
			}
		}
		if busy == 0 {
			return
		}
		select {
		case <-ctx.Done():
			n.cfg.Log.Warn().Int("agents", busy).Msg("shutdown timeout: turns in flight resume at the next start")
			return
		case <-tick.C:
		}
	}
}

// stop closes what start opened, in reverse order.
func (n *Node) stop() error {
	n.leaveCluster()
	errs := []error{n.stopRemote()}
	if n.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		errs = append(errs, n.srv.Close(ctx))
		cancel()
	}
	n.stopDueScan()
	if n.rt != nil {
		errs = append(errs, n.rt.Close())
	}
	errs = append(errs, n.stopTelemetry())
	errs = append(errs, n.closeMCP())
	n.stopRetention()
	if n.store != nil {
		errs = append(errs, n.store.Close())
	}
	return errors.Join(errs...)
}

// recordFailure keeps the last startup or shutdown failure for status.
func (n *Node) recordFailure(phase string, err error) {
	f := control.Failure{OccurredAt: time.Now().UTC(), Summary: n.cfg.Secrets.Redact(err.Error()), Phase: phase,
		DetailHint: "holon-actors daemon logs"}
	if werr := WriteJSONFile(filepath.Join(n.runDir(), FailureFileName), f); werr != nil {
		n.cfg.Log.Error().Err(werr).Msg("record the failure")
	}
	n.cfg.Log.Error().Err(err).Str("phase", phase).Msg("runtime failure")
}

// lastFailure reads the recorded failure, if any.
func (n *Node) lastFailure() *control.Failure { return ReadFailure(n.cfg.Home) }
