package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/providers/scripted"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// Files under $HOLON_HOME/run.
const (
	socketName      = "control.sock"
	runtimeFileName = "runtime.json"      // who is running: pid, socket, fingerprint
	cleanMarkerName = "clean-shutdown"    // written last by a clean shutdown
	failureFileName = "last-failure.json" // the last startup or shutdown failure
)

// noModelHint is what a prompt's failure brief says when no model is set.
const noModelHint = "start the runtime with --model (or HOLON_MODEL, or \"model\" in $HOLON_HOME/config.json), " +
	"e.g. --model anthropic/claude-sonnet-4-5 with ANTHROPIC_API_KEY set, or --model scripted --script demo.json; " +
	"see the README's model configuration"

// runCmd is `holon-actors run`, the foreground runtime owner.
type runCmd struct {
	Model           string        `help:"Model the agents use: a ref such as openai/gpt-5, anthropic/claude-sonnet-4-5, openai-codex/gpt-5-codex or ollama/llama3.2 (an OpenAI-compatible server), or 'scripted' to play --script. Default: the config file's; none means prompts end in a failure brief saying how to configure one." env:"HOLON_MODEL" placeholder:"MODEL"`
	Fallback        []string      `help:"Models tried in order when the primary fails (comma-separated refs)." env:"HOLON_FALLBACK_MODELS" placeholder:"REF,..."`
	Config          string        `help:"Model config file (JSON: model, fallback_models, providers.<id>.base_url/api_key_env/transport, token_budget, loop_breaker_repeats, command_policy); default $HOLON_HOME/config.json." env:"HOLON_CONFIG" type:"path" placeholder:"FILE"`
	Script          string        `help:"Script file for --model scripted (see providers/scripted)." env:"HOLON_SCRIPT" type:"path" placeholder:"FILE"`
	SystemPrompt    string        `name:"system-prompt" help:"System prompt of every agent." env:"HOLON_SYSTEM_PROMPT" default:"You are a long-lived agent of holon-actors. Work carefully and report what you did." placeholder:"TEXT"`
	DefaultAgent    string        `name:"default-agent" help:"Id of the default agent, created at first start." env:"HOLON_AGENT_ID" default:"main" placeholder:"ID"`
	ShutdownTimeout time.Duration `name:"shutdown-timeout" help:"How long SIGINT/SIGTERM or a shutdown request waits for turns in flight before stopping agents (they resume at the next start)." default:"10s"`
	LogFile         bool          `name:"log-file" help:"Also write JSON logs to $HOLON_HOME/logs/daemon.log (rotated at 10 MiB, 3 kept)." env:"HOLON_LOG_FILE"`
	Listen          string        `help:"Also serve the control API on TCP at HOST:PORT (off by default)." env:"HOLON_LISTEN" placeholder:"HOST:PORT"`
	Host            string        `help:"TCP host, with --port (instead of --listen)." placeholder:"HOST"`
	Port            int           `help:"TCP port, with --host (default host 127.0.0.1)." placeholder:"PORT"`
	Access          string        `help:"Who may reach the TCP listener: local (loopback only), tunnel (loopback, forwarded), lan or tailnet. Every listener needs a token; local generates one when none is given." default:"local" enum:"local,tunnel,lan,tailnet" env:"HOLON_ACCESS"`
	TokenFile       string        `name:"token-file" help:"File holding the TCP control token (at least 32 characters, mode 0600, outside the execution roots; e.g. openssl rand -hex 32). Default with --access local: $HOLON_HOME/run/control.token, generated at first start." type:"path" placeholder:"FILE"`
	Token           string        `help:"The TCP control token itself (prefer --token-file: a flag is visible to other local users)." env:"HOLON_CONTROL_TOKEN" placeholder:"TOKEN"`
	PublicIngress   bool          `name:"public-ingress" help:"Accept untrusted channel/webhook input without a token at POST /ingress/agents/{id}/messages (admitted as external evidence, rate limited)." env:"HOLON_PUBLIC_INGRESS"`
	Advertise       string        `help:"Base URL callers use to reach this runtime (reported to trigger clients)." env:"HOLON_ADVERTISE" placeholder:"URL"`
	MaxEventStreams int           `name:"max-event-streams" help:"Event streams (GET /agents/{id}/events as text/event-stream, tail --follow) served at once; one more gets 429 with Retry-After." env:"HOLON_MAX_EVENT_STREAMS" default:"256" placeholder:"N"`
	LogLevel        string        `name:"log-level" help:"Least severe level logged: debug, info, warn or error." default:"info" enum:"debug,info,warn,error" env:"HOLON_LOG_LEVEL"`
	Workspace       string        `help:"Directory every agent's commands and patches work in (its execution root). Default: each agent's own home, $HOLON_HOME/agents/<id>." env:"HOLON_WORKSPACE" type:"existingdir" placeholder:"DIR"`
	NotifyWebhook   string        `name:"notify-webhook" help:"POST operator notifications (questions waiting for an answer, failed turns, quarantined agents) to this URL, signed with HMAC-SHA256 (see package notify)." env:"HOLON_NOTIFY_WEBHOOK" placeholder:"URL"`
	NotifySecret    string        `name:"notify-secret-file" help:"File holding the webhook signing secret (at least 32 bytes; e.g. openssl rand -hex 32). Required with --notify-webhook." env:"HOLON_NOTIFY_SECRET_FILE" type:"path" placeholder:"FILE"`
	NotifyTool      bool          `name:"notify-operator-tool" help:"Profile option: offer agents the NotifyOperator tool (off by default; the runtime notifies operators on its own)." env:"HOLON_NOTIFY_OPERATOR_TOOL"`
	StaleRounds     int           `name:"work-item-stale-reminder-rounds" help:"Remind the model of its current work item after this many model rounds of a turn without a work-item update (negative: never)." env:"HOLON_WORK_ITEM_STALE_REMINDER_ROUNDS" default:"8" placeholder:"N"`
	StaleCooldown   int           `name:"work-item-stale-reminder-cooldown-rounds" help:"Model rounds between two such reminders." env:"HOLON_WORK_ITEM_STALE_REMINDER_COOLDOWN_ROUNDS" default:"4" placeholder:"N"`
	StaleMaxTokens  int           `name:"work-item-stale-reminder-max-tokens" help:"Bound of one reminder, in tokens (4 characters each)." env:"HOLON_WORK_ITEM_STALE_REMINDER_MAX_TOKENS" default:"400" placeholder:"N"`
	CompactTrigger  int           `name:"compaction-trigger-tokens" help:"Compact an agent's conversation before a turn once it is estimated above this many tokens (4 characters each; negative: never). The journal keeps everything." env:"HOLON_COMPACTION_TRIGGER_ESTIMATED_TOKENS" default:"96000" placeholder:"N"`
	DiskReserve     int64         `name:"disk-reserve-mib" help:"Free space, in MiB, the data directory's file system must keep: below it the journal refuses writes (agents wait, nothing is half-written) and the runtime reports itself unhealthy." env:"HOLON_DISK_RESERVE_MIB" default:"64" placeholder:"MIB"`
	CompactKeep     int           `name:"compaction-keep-tokens" help:"How much of the newest conversation a compaction keeps in view, in estimated tokens; the rest becomes a summary." env:"HOLON_COMPACTION_KEEP_RECENT_ESTIMATED_TOKENS" default:"24000" placeholder:"N"`
	RetryHorizon    time.Duration `name:"model-retry-horizon" help:"How long a turn whose model call keeps failing with a rate limit, overload, connection failure or 5xx goes on retrying it on a durable timer, from the first failure (0: fail the turn at once)." env:"HOLON_MODEL_RETRY_HORIZON" default:"6h" placeholder:"DURATION"`
	RetryBase       time.Duration `name:"model-retry-base" help:"Delay before the first such retry; each next one doubles it (jittered, a longer Retry-After wins)." env:"HOLON_MODEL_RETRY_BASE" default:"30s" placeholder:"DURATION"`
	RetryMax        time.Duration `name:"model-retry-max" help:"Longest delay between two such retries." env:"HOLON_MODEL_RETRY_MAX" default:"30m" placeholder:"DURATION"`
	Remote          remoteFlags   `embed:""`
	ScrubInterval   time.Duration `name:"scrub-interval" help:"How often the background integrity scrub reads every agent's whole journal, once after each start and then at this interval, quarantining and reporting a damaged one (0: no scrub)." env:"HOLON_SCRUB_INTERVAL" default:"24h" placeholder:"DURATION"`

	// handed are the credentials received from `daemon start`, getenv the
	// environment lookup that sees them (see receiveSecrets).
	handed map[string]string
	getenv func(string) string
	// notifySecret is the webhook signing secret, once read.
	notifySecret string
}

// notifier builds the webhook notifier, or nil when none is configured.
func (c *runCmd) notifier() (actors.Notifier, error) {
	switch {
	case c.NotifyWebhook == "" && c.NotifySecret == "":
		return nil, nil
	case c.NotifyWebhook == "":
		return nil, usage(errors.New("--notify-secret-file without --notify-webhook: give the webhook URL too"))
	case c.NotifySecret == "":
		return nil, usage(errors.New("--notify-webhook needs --notify-secret-file (a file of at least 32 random bytes, e.g. openssl rand -hex 32)"))
	}
	secret, err := os.ReadFile(c.NotifySecret)
	if err != nil {
		return nil, usage(fmt.Errorf("read --notify-secret-file: %w", err))
	}
	c.notifySecret = string(bytes.TrimSpace(secret))
	w, err := notify.New(notify.Config{URL: c.NotifyWebhook, Secret: bytes.TrimSpace(secret)})
	if err != nil {
		return nil, usage(err)
	}
	return w, nil
}

// runtimeFile is $HOLON_HOME/run/runtime.json.
type runtimeFile struct {
	PID               int       `json:"pid"`
	HomeDir           string    `json:"home_dir"`
	SocketPath        string    `json:"socket_path"`
	HTTPAddr          string    `json:"http_addr,omitempty"`
	RemoteAddr        string    `json:"remote_addr,omitempty"` // remote clients' address (--remote-listen)
	ConfigFingerprint string    `json:"config_fingerprint"`
	Version           string    `json:"version"`
	StartedAt         time.Time `json:"started_at"`
}

// fingerprint identifies the effective configuration, so a second start
// can tell "already running like this" from "running differently".
func (c *runCmd) fingerprint() string { return configFingerprint(c.runFlags()) }

// checkStreams refuses a cap on event streams that would serve none.
func (c *runCmd) checkStreams() error {
	if c.MaxEventStreams < 1 {
		return usage(fmt.Errorf("--max-event-streams is %d: give at least 1 (the default is %d)", c.MaxEventStreams, control.DefaultMaxEventStreams))
	}
	return nil
}

// listenAddr is the TCP address asked for, "" for none.
func (c *runCmd) listenAddr() string {
	switch {
	case c.Listen != "":
		return c.Listen
	case c.Port != 0:
		host := c.Host
		if host == "" {
			host = "127.0.0.1"
		}
		return net.JoinHostPort(host, strconv.Itoa(c.Port))
	}
	return ""
}

// tcpAuth reads the token and checks the TCP options before anything
// starts. A local listener without a token gets one generated into
// $HOLON_HOME/run/control.token (0600); every other mode needs one given.
func (c *runCmd) tcpAuth(home string) (control.TCPAuth, error) {
	if c.Listen != "" && (c.Host != "" || c.Port != 0) {
		return control.TCPAuth{}, usage(errors.New("give either --listen or --host/--port, not both"))
	}
	if c.Host != "" && c.Port == 0 {
		return control.TCPAuth{}, usage(errors.New("--host needs --port"))
	}
	access, err := control.ParseAccess(c.Access)
	if err != nil {
		return control.TCPAuth{}, usage(err)
	}
	auth := control.TCPAuth{Access: access, Token: c.Token}
	if c.TokenFile != "" {
		if c.Token != "" {
			return auth, usage(errors.New("give either --token-file or --token (HOLON_CONTROL_TOKEN), not both"))
		}
		if auth.Token, err = control.ReadTokenFile(c.TokenFile); err != nil {
			return auth, usage(fmt.Errorf("--token-file: %w", err))
		}
	}
	addr := c.listenAddr()
	if addr == "" {
		return auth, nil
	}
	if auth.Token == "" && access == control.AccessLocal {
		if auth.Token, err = generatedToken(home); err != nil {
			return auth, err
		}
	}
	if err := auth.CheckListen(addr); err != nil {
		return auth, usage(err)
	}
	return auth, nil
}

// checkExecRoots keeps the control socket and token out of the agents'
// execution roots: a --workspace that holds $HOLON_HOME/run, or a
// --token-file inside the workspace or an agent's home, is refused.
func (c *runCmd) checkExecRoots(home string) error {
	run := realPath(persistence.RunDir(home))
	if c.Workspace != "" {
		ws := realPath(c.Workspace)
		if within(ws, run) || within(run, ws) {
			return usage(fmt.Errorf("--workspace %s holds the runtime's control socket and token (%s), which agents' commands and patches would reach: "+
				"choose a project directory outside %s, or a --home outside the workspace", c.Workspace, run, home))
		}
	}
	if c.TokenFile != "" {
		tf := realPath(c.TokenFile)
		for _, root := range []string{c.Workspace, filepath.Join(home, "agents"), filepath.Join(home, "worktrees")} {
			if root != "" && within(realPath(root), tf) {
				return usage(fmt.Errorf("--token-file %s is inside %s, where agents work: keep it outside every execution root (e.g. in %s)",
					c.TokenFile, root, run))
			}
		}
	}
	return nil
}

// realPath is path absolute with the symlinks of its existing part
// resolved.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return filepath.Join(realPath(filepath.Dir(abs)), filepath.Base(abs))
}

// within reports whether path is dir or lies under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// generatedToken is the token of $HOLON_HOME/run/control.token, made on
// first use.
func generatedToken(home string) (string, error) {
	run := persistence.RunDir(home)
	if err := os.MkdirAll(run, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", run, err)
	}
	tok, _, err := control.LoadOrCreateToken(filepath.Join(run, control.TokenFileName))
	if err != nil {
		return "", usage(fmt.Errorf("%w (or pass --token-file)", err))
	}
	return tok, nil
}

// modelConfig merges the config file with the flags and environment,
// which win.
func (c *runCmd) modelConfig(home string) (catalog.Config, error) {
	path := c.Config
	if path == "" {
		path = filepath.Join(home, "config.json")
	}
	cfg, err := catalog.LoadConfig(path)
	if err != nil {
		return cfg, usage(err)
	}
	if c.Model != "" {
		cfg.Model = c.Model
	}
	if len(c.Fallback) > 0 {
		cfg.Fallback = c.Fallback
	}
	return cfg, nil
}

// provider builds the configured provider, or says what is wrong: the
// scripted player, a fallback chain over real transports (runtime-owned
// retries, per-candidate circuit breakers), or Unconfigured; wrapped in a
// router that serves agents' model overrides with chains of their own.
func (c *runCmd) provider(home string) (*modelProvider, error) {
	cfg, err := c.modelConfig(home)
	if err != nil {
		return nil, err
	}
	mp := &modelProvider{}
	clock := clockwork.NewRealClock()
	breakers := providers.NewBreakerSet(providers.DefaultBreakerConfig(), clock)
	chainFor := func(model string, fallback []string) (providers.Provider, error) {
		eps, err := catalog.Config{Model: model, Fallback: fallback, Providers: cfg.Providers}.Endpoints(c.env)
		if err != nil {
			return nil, err
		}
		return catalog.ChainWith(providers.DefaultRetryPolicy(), eps, breakers, mp.wrap, providers.WithClock(clock))
	}
	var script *scripted.Provider
	if c.Script != "" {
		s, err := scripted.Load(c.Script)
		if err != nil {
			return nil, usage(err)
		}
		script = scripted.New(s)
	}
	build := func(model string) (providers.Provider, error) {
		switch {
		case model == "":
			model = cfg.Model
		case model == scripted.Name && script == nil:
			return nil, errors.New("model scripted needs the runtime started with --script")
		}
		switch model {
		case "":
			return providers.Unconfigured{Hint: noModelHint}, nil
		case scripted.Name:
			return script, nil
		}
		return chainFor(model, cfg.Fallback)
	}
	switch {
	case cfg.Model == "" && len(cfg.Fallback) > 0:
		return nil, usage(errors.New("fallback models without a primary: set --model (or HOLON_MODEL, or model in the config file)"))
	case cfg.Model == scripted.Name && script == nil:
		return nil, usage(errors.New("--model scripted needs --script FILE (or HOLON_SCRIPT)"))
	case cfg.Model != "" && cfg.Model != scripted.Name:
		// Checked now, built at the first request, once the runtime can
		// give each candidate its transport actor.
		if _, err := cfg.Endpoints(c.env); err != nil {
			return nil, usage(err)
		}
	}
	name := cfg.Model
	if name == "" {
		name = providers.Unconfigured{}.Name()
	}
	mp.Router = catalog.NewLazyRouter(name, build)
	return mp, nil
}

// modelProvider is the agents' provider: a router over model chains whose
// candidates are served by the runtime's transport actors once
// UseTransports is called (before the first request).
type modelProvider struct {
	*catalog.Router

	mu         sync.Mutex
	transports catalog.Wrap // guarded by mu
}

// UseTransports makes every candidate built from now on go through rt's
// transport actors.
func (m *modelProvider) UseTransports(rt *actors.Runtime) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.transports = rt.Transport
}

// wrap is the catalog.Wrap of the chains: the transport actor when set.
func (m *modelProvider) wrap(ref string, p providers.Provider) (providers.Provider, error) {
	m.mu.Lock()
	w := m.transports
	m.mu.Unlock()
	if w == nil {
		return p, nil
	}
	return w(ref, p)
}

// Run owns the runtime until a signal or a shutdown request.
func (c *runCmd) Run(ctx context.Context, e *env) error {
	if err := c.checkDefaultAgent(); err != nil {
		return err
	}
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return err
	}
	if err := c.receiveSecrets(); err != nil {
		return err
	}
	reg := secrets.NewRegistry()
	level, _ := zerolog.ParseLevel(c.LogLevel)
	log, closeLog, err := runtimeLogger(e.stderr, home, c.LogFile, level, reg)
	if err != nil {
		return fmt.Errorf("open log file: %w", err)
	}
	defer closeLog.Close()
	prov, err := c.provider(home)
	if err != nil {
		return err
	}
	if err := c.checkExecRoots(home); err != nil {
		return err
	}
	auth, err := c.tcpAuth(home)
	if err != nil {
		return err
	}
	if err := c.checkStreams(); err != nil {
		return err
	}
	if err := c.Remote.check(); err != nil {
		return err
	}
	cfg, err := c.modelConfig(home)
	if err != nil {
		return err
	}
	notifier, err := c.notifier()
	if err != nil {
		return err
	}
	c.fillSecrets(reg, cfg, auth.Token)
	reg.Add(c.notifySecret)
	o := &owner{cmd: c, home: home, log: log, provider: prov, auth: auth, notifier: notifier, filter: cfg.SystemNotifications,
		tokenBudget: cfg.TokenBudget, loopRepeats: cfg.LoopBreakerRepeats, secrets: reg, policies: cfg.CommandPolicy,
		commandEnv: actors.CommandEnv(os.Environ(), cfg.KeyEnvs()...)}
	if err := o.start(); err != nil {
		if !errors.Is(err, persistence.ErrLocked) { // not ours to record: another runtime owns the home
			o.recordFailure("startup", err)
		}
		o.stop()
		return err
	}
	log.Info().Str("home", home).Str("socket", o.socket).Str("model", orNone(c.Model)).Msg("runtime ready")
	select {
	case <-ctx.Done():
		log.Info().Msg("signal received: shutting down")
	case <-o.shutdownRequested:
		log.Info().Msg("shutdown requested over the control API")
	case err := <-o.served:
		log.Error().Err(err).Msg("control server stopped")
	}
	if err := o.drainAndStop(); err != nil {
		o.recordFailure("shutdown", err)
		return err
	}
	return nil
}

// owner holds what `run` started, to stop it in reverse order.
type owner struct {
	cmd      *runCmd
	home     string
	log      zerolog.Logger
	provider *modelProvider
	auth     control.TCPAuth
	notifier actors.Notifier
	filter   messages.NotificationFilter
	// tokenBudget and loopRepeats are config.json's token_budget and
	// loop_breaker_repeats (AgentDeps.DefaultTokenBudget, LoopBreakerRepeats).
	tokenBudget uint64
	loopRepeats int
	// secrets are scrubbed from the journal, snapshots, artifacts and
	// logs; commandEnv is the agents' commands' environment, without them.
	secrets    *secrets.Registry
	commandEnv []string
	// policies are config.json's command_policy.
	policies messages.CommandPolicies

	socket            string
	instance          string // control.InstanceEnv of the agents' commands
	store             *persistence.BadgerStore
	rt                *actors.Runtime
	srv               *control.Server
	remote            *gateway.Node // serving remote clients (remote_listen.go), or nil
	served            chan error
	shutdownRequested chan struct{}
}

func (o *owner) runDir() string { return persistence.RunDir(o.home) }

// start opens the store (taking the data-dir lock), recovers the agents,
// and serves the control socket.
func (o *owner) start() error {
	if err := os.MkdirAll(o.runDir(), 0o700); err != nil {
		return fmt.Errorf("create %s: %w", o.runDir(), err)
	}
	so := persistence.DefaultOptions(persistence.DataDir(o.home))
	so.Logger = slogOf(o.log)
	so.MinFreeBytes = o.cmd.DiskReserve << 20
	so.Redact = o.secrets.RedactBytes
	ran := previousRun(o.home)
	store, err := persistence.Open(so)
	if err != nil {
		return err
	}
	o.store = store
	o.noteUncleanExit(ran) // we own the home now
	o.noteDiskReserve()
	if err := secrets.Undumpable(); err != nil {
		o.log.Warn().Err(err).Msg("processes of this user can read the runtime's memory, keys included")
	}
	if err := exec.BecomeSubreaper(); err != nil {
		o.log.Warn().Err(err).Msg("escaped command processes will be found by their token only")
	}
	budget, err := actors.BuiltinBudget()
	if err != nil {
		return usage(err)
	}
	toolset, err := actors.BuiltinTools(budget)
	if err != nil {
		return err
	}
	compaction, err := o.cmd.compaction()
	if err != nil {
		return err
	}
	retry, err := o.cmd.modelRetry()
	if err != nil {
		return err
	}
	if o.cmd.ScrubInterval < 0 {
		return usage(fmt.Errorf("--scrub-interval %v is negative: give how often to scrub the journals (e.g. 24h), or 0 for no scrub", o.cmd.ScrubInterval))
	}
	// Every command the agents run carries this run's instance marker, so
	// the control API knows it for a tool process even once it has left
	// the runtime's process tree.
	o.instance = rand.Text()
	cmdEnv := append(slices.Clip(o.commandEnv), control.InstanceEnv+"="+o.instance)
	deps := actors.AgentDeps{Store: store, Provider: o.provider, Tools: toolset, Clock: clockwork.NewRealClock(),
		Log: o.log, SystemPrompt: o.cmd.SystemPrompt, DefaultAgentID: o.cmd.DefaultAgent,
		ToolEnv: actors.ToolEnv{Home: o.home, Workspace: o.cmd.Workspace, Budget: budget, Env: cmdEnv},
		Secrets: o.secrets, CheckModel: o.provider.Check, Notifier: o.notifier, NotifyOperatorTool: o.cmd.NotifyTool,
		NotificationFilter: o.filter, DefaultTokenBudget: o.tokenBudget, LoopBreakerRepeats: o.loopRepeats,
		WorkItemReminder: o.cmd.workItemReminder(), Compaction: compaction, ModelRetry: retry, CommandPolicies: o.policies}
	if o.rt, err = actors.NewRuntime(deps, actors.RuntimeOptions{Logger: slogOf(o.log)}); err != nil {
		return err
	}
	o.provider.UseTransports(o.rt)
	recovered, err := o.rt.Recover(context.Background())
	if err != nil {
		return fmt.Errorf("recover agents: %w", err)
	}
	if len(recovered) > 0 {
		o.log.Info().Strs("agents", recovered).Msg("resumed agents with open work")
	}
	switch err := o.rt.Activate(context.Background(), o.cmd.DefaultAgent); {
	case errors.Is(err, actors.ErrJournalQuarantined):
		// Contained: reported in status and to the operator; the other
		// agents are served.
		o.log.Error().Err(err).Msg("the default agent's journal is quarantined; serving the other agents")
	case err != nil:
		return fmt.Errorf("start the default agent: %w", err)
	}
	o.rt.StartScrub(o.cmd.ScrubInterval) // the runtime stops it when it halts
	return o.serve()
}

func (o *owner) serve() error {
	o.socket = filepath.Join(o.runDir(), socketName)
	l, err := control.ListenUnix(o.socket)
	if err != nil {
		return err
	}
	var tl net.Listener
	if addr := o.cmd.listenAddr(); addr != "" {
		if tl, err = net.Listen("tcp", addr); err != nil {
			l.Close()
			return fmt.Errorf("listen on %s: %w", addr, err)
		}
	}
	o.shutdownRequested = make(chan struct{})
	info := control.RuntimeInfo{PID: os.Getpid(), HomeDir: o.home, SocketPath: o.socket,
		Version: buildVersion().Version, ConfigFingerprint: o.cmd.fingerprint(), StartedAt: time.Now().UTC()}
	if tl != nil {
		info.HTTPAddr = tl.Addr().String()
	}
	triggers, err := control.OpenTriggers(filepath.Join(o.home, "triggers"))
	if err != nil {
		l.Close()
		if tl != nil {
			tl.Close()
		}
		return err
	}
	o.srv = control.NewServer(control.Config{Runtime: o.rt, Store: o.store, Info: info, Log: o.log,
		DefaultAgentID: o.cmd.DefaultAgent, Triggers: triggers, Advertise: o.cmd.Advertise,
		PublicIngress: o.cmd.PublicIngress, Instance: o.instance, MaxEventStreams: o.cmd.MaxEventStreams,
		Shutdown: func() { close(o.shutdownRequested) }, LastFailure: o.lastFailure})
	o.served = make(chan error, 2)
	go func() { o.served <- o.srv.Serve(l) }()
	if tl != nil {
		ev := o.log.Info().Str("addr", info.HTTPAddr).Str("access", string(o.auth.Access))
		if o.cmd.TokenFile == "" && o.cmd.Token == "" {
			ev = ev.Str("token_file", filepath.Join(o.runDir(), control.TokenFileName))
		}
		ev.Msg("control API on TCP")
		go func() { o.served <- o.srv.ServeTCP(tl, o.auth) }()
	}
	if err := o.startRemote(); err != nil {
		return err
	}
	rf := runtimeFile{PID: info.PID, HomeDir: o.home, SocketPath: o.socket, HTTPAddr: info.HTTPAddr, RemoteAddr: o.remoteAddr(),
		ConfigFingerprint: info.ConfigFingerprint, Version: info.Version, StartedAt: info.StartedAt}
	if err := writeJSONFile(filepath.Join(o.runDir(), runtimeFileName), rf); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(o.runDir(), failureFileName)) // a healthy start clears the last failure
	return nil
}

// drainAndStop stops taking requests, lets turns in flight finish within
// the shutdown timeout, then stops agents, the store, and leaves the
// clean-shutdown marker.
func (o *owner) drainAndStop() error {
	ctx, cancel := context.WithTimeout(context.Background(), o.cmd.ShutdownTimeout)
	defer cancel()
	if err := o.srv.Close(ctx); err != nil {
		o.log.Warn().Err(err).Msg("control requests still open at shutdown")
	}
	if err := o.stopRemote(); err != nil {
		o.log.Warn().Err(err).Msg("remote clients at shutdown")
	}
	o.waitTurns(ctx)
	if err := o.stop(); err != nil {
		return err
	}
	_ = os.Remove(filepath.Join(o.runDir(), runtimeFileName))
	if err := os.WriteFile(filepath.Join(o.runDir(), cleanMarkerName), []byte(time.Now().UTC().Format(time.RFC3339Nano)+"\n"), 0o600); err != nil {
		return fmt.Errorf("write clean-shutdown marker: %w", err)
	}
	o.log.Info().Msg("runtime stopped cleanly")
	return nil
}

// waitTurns waits until no active agent has a turn in flight, or ctx ends.
func (o *owner) waitTurns(ctx context.Context) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		busy := 0
		for _, id := range o.rt.Active() {
			if in, err := o.rt.Info(ctx, id); err == nil && in.TurnInFlight {
				busy++
			}
		}
		if busy == 0 {
			return
		}
		select {
		case <-ctx.Done():
			o.log.Warn().Int("agents", busy).Msg("shutdown timeout: turns in flight resume at the next start")
			return
		case <-tick.C:
		}
	}
}

// stop closes what start opened, in reverse order.
func (o *owner) stop() error {
	errs := []error{o.stopRemote()}
	if o.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		errs = append(errs, o.srv.Close(ctx))
		cancel()
	}
	if o.rt != nil {
		errs = append(errs, o.rt.Close())
	}
	if o.store != nil {
		errs = append(errs, o.store.Close())
	}
	return errors.Join(errs...)
}

// recordFailure keeps the last startup or shutdown failure for status.
func (o *owner) recordFailure(phase string, err error) {
	f := control.Failure{OccurredAt: time.Now().UTC(), Summary: o.secrets.Redact(err.Error()), Phase: phase,
		DetailHint: "holon-actors daemon logs"}
	if werr := writeJSONFile(filepath.Join(o.runDir(), failureFileName), f); werr != nil {
		o.log.Error().Err(werr).Msg("record the failure")
	}
	o.log.Error().Err(err).Str("phase", phase).Msg("runtime failure")
}

// lastFailure reads the recorded failure, if any.
func (o *owner) lastFailure() *control.Failure {
	var f control.Failure
	b, err := os.ReadFile(filepath.Join(o.runDir(), failureFileName))
	if err != nil || json.Unmarshal(b, &f) != nil {
		return nil
	}
	return &f
}

// writeJSONFile writes v to path atomically (temp file, then rename).
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// compaction maps the compaction flags onto the agents' config; a keep
// budget that leaves nothing to compact is a usage error.
func (c *runCmd) compaction() (actors.Compaction, error) {
	if c.CompactTrigger >= 0 && c.CompactKeep >= c.CompactTrigger {
		return actors.Compaction{}, usage(fmt.Errorf("--compaction-keep-tokens %d is not below --compaction-trigger-tokens %d: keep less than the trigger, or disable compaction with a negative trigger",
			c.CompactKeep, c.CompactTrigger))
	}
	if c.CompactKeep <= 0 {
		return actors.Compaction{}, usage(fmt.Errorf("--compaction-keep-tokens %d: give a positive number of tokens", c.CompactKeep))
	}
	return actors.Compaction{TriggerTokens: c.CompactTrigger, KeepTokens: c.CompactKeep}, nil
}

// workItemReminder maps the stale-reminder flags onto the agents' config.
func (c *runCmd) workItemReminder() actors.WorkItemReminder {
	return actors.WorkItemReminder{Rounds: c.StaleRounds, CooldownRounds: c.StaleCooldown, MaxTokens: c.StaleMaxTokens}
}
