package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/notify"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// Files under $HOLON_HOME/run (see package node).
const (
	socketName      = node.SocketName
	runtimeFileName = node.RuntimeFileName
	cleanMarkerName = node.CleanMarkerName
	failureFileName = node.FailureFileName
)

// runtimeFile is $HOLON_HOME/run/runtime.json.
type runtimeFile = node.RuntimeFile

// writeJSONFile writes v to path atomically.
var writeJSONFile = node.WriteJSONFile

// runCmd is `holon-actors run`, the foreground runtime owner.
type runCmd struct {
	Model           string             `help:"Model the agents use: a ref such as openai/gpt-5, anthropic/claude-sonnet-4-5, openai-codex/gpt-5-codex or ollama/llama3.2 (an OpenAI-compatible server), or 'scripted' to play --script. Default: the config file's; none means prompts end in a failure brief saying how to configure one." env:"HOLON_MODEL" placeholder:"MODEL"`
	Fallback        []string           `help:"Models tried in order when the primary fails (comma-separated refs)." env:"HOLON_FALLBACK_MODELS" placeholder:"REF,..."`
	Config          string             `help:"Model config file (JSON: model, fallback_models, providers.<id>.base_url/api_key_env/transport, token_budget, loop_breaker_repeats, command_policy); default $HOLON_HOME/config.json." env:"HOLON_CONFIG" type:"path" placeholder:"FILE"`
	Script          string             `help:"Script file for --model scripted (see providers/scripted)." env:"HOLON_SCRIPT" type:"path" placeholder:"FILE"`
	SystemPrompt    string             `name:"system-prompt" help:"System prompt of every agent." env:"HOLON_SYSTEM_PROMPT" default:"You are a long-lived agent of holon-actors. Work carefully and report what you did." placeholder:"TEXT"`
	DefaultAgent    string             `name:"default-agent" help:"Id of the default agent, created at first start." env:"HOLON_AGENT_ID" default:"main" placeholder:"ID"`
	ShutdownTimeout time.Duration      `name:"shutdown-timeout" help:"How long SIGINT/SIGTERM or a shutdown request waits for turns in flight before stopping agents (they resume at the next start)." default:"10s"`
	LogFile         bool               `name:"log-file" help:"Also write JSON logs to $HOLON_HOME/logs/daemon.log (rotated at 10 MiB, 3 kept)." env:"HOLON_LOG_FILE"`
	Listen          string             `help:"Also serve the control API on TCP at HOST:PORT (off by default)." env:"HOLON_LISTEN" placeholder:"HOST:PORT"`
	Host            string             `help:"TCP host, with --port (instead of --listen)." placeholder:"HOST"`
	Port            int                `help:"TCP port, with --host (default host 127.0.0.1)." placeholder:"PORT"`
	Access          string             `help:"Who may reach the TCP listener: local (loopback only), tunnel (loopback, forwarded), lan or tailnet. Every listener needs a token; local generates one when none is given." default:"local" enum:"local,tunnel,lan,tailnet" env:"HOLON_ACCESS"`
	TokenFile       string             `name:"token-file" help:"File holding the TCP control token (at least 32 characters, mode 0600, outside the execution roots; e.g. openssl rand -hex 32). Default with --access local: $HOLON_HOME/run/control.token, generated at first start." type:"path" placeholder:"FILE"`
	Token           string             `help:"The TCP control token itself (prefer --token-file: a flag is visible to other local users)." env:"HOLON_CONTROL_TOKEN" placeholder:"TOKEN"`
	PublicIngress   bool               `name:"public-ingress" help:"Accept untrusted channel/webhook input without a token at POST /ingress/agents/{id}/messages (admitted as external evidence, rate limited)." env:"HOLON_PUBLIC_INGRESS"`
	Advertise       string             `help:"Base URL callers use to reach this runtime (reported to trigger clients)." env:"HOLON_ADVERTISE" placeholder:"URL"`
	MaxEventStreams int                `name:"max-event-streams" help:"Event streams (GET /agents/{id}/events as text/event-stream, tail --follow) served at once; one more gets 429 with Retry-After." env:"HOLON_MAX_EVENT_STREAMS" default:"256" placeholder:"N"`
	LogLevel        string             `name:"log-level" help:"Least severe level logged: debug, info, warn or error." default:"info" enum:"debug,info,warn,error" env:"HOLON_LOG_LEVEL"`
	Workspace       string             `help:"Directory every agent's commands and patches work in (its execution root). Default: each agent's own home, $HOLON_HOME/agents/<id>." env:"HOLON_WORKSPACE" type:"existingdir" placeholder:"DIR"`
	NotifyWebhook   string             `name:"notify-webhook" help:"POST operator notifications (questions waiting for an answer, failed turns, quarantined agents) to this URL, signed with HMAC-SHA256 (see package notify)." env:"HOLON_NOTIFY_WEBHOOK" placeholder:"URL"`
	NotifySecret    string             `name:"notify-secret-file" help:"File holding the webhook signing secret (at least 32 bytes; e.g. openssl rand -hex 32). Required with --notify-webhook." env:"HOLON_NOTIFY_SECRET_FILE" type:"path" placeholder:"FILE"`
	NotifyTool      bool               `name:"notify-operator-tool" help:"Profile option: offer agents the NotifyOperator tool (off by default; the runtime notifies operators on its own)." env:"HOLON_NOTIFY_OPERATOR_TOOL"`
	StaleRounds     int                `name:"work-item-stale-reminder-rounds" help:"Remind the model of its current work item after this many model rounds of a turn without a work-item update (negative: never)." env:"HOLON_WORK_ITEM_STALE_REMINDER_ROUNDS" default:"8" placeholder:"N"`
	StaleCooldown   int                `name:"work-item-stale-reminder-cooldown-rounds" help:"Model rounds between two such reminders." env:"HOLON_WORK_ITEM_STALE_REMINDER_COOLDOWN_ROUNDS" default:"4" placeholder:"N"`
	StaleMaxTokens  int                `name:"work-item-stale-reminder-max-tokens" help:"Bound of one reminder, in tokens (4 characters each)." env:"HOLON_WORK_ITEM_STALE_REMINDER_MAX_TOKENS" default:"400" placeholder:"N"`
	CompactTrigger  int                `name:"compaction-trigger-tokens" help:"Compact an agent's conversation before a turn once it is estimated above this many tokens (4 characters each; negative: never). The journal keeps everything." env:"HOLON_COMPACTION_TRIGGER_ESTIMATED_TOKENS" default:"96000" placeholder:"N"`
	Journal         string             `help:"Keep the journal in PostgreSQL at this URL (postgres://USER@HOST:PORT/DB; give the password with PGPASSWORD or ~/.pgpass, not in the URL) instead of Badger under $HOLON_HOME/data. The home stays this runtime's own." env:"HOLON_JOURNAL" placeholder:"URL"`
	DiskReserve     int64              `name:"disk-reserve-mib" help:"Free space, in MiB, the data directory's file system must keep: below it the journal refuses writes (agents wait, nothing is half-written) and the runtime reports itself unhealthy." env:"HOLON_DISK_RESERVE_MIB" default:"64" placeholder:"MIB"`
	CompactKeep     int                `name:"compaction-keep-tokens" help:"How much of the newest conversation a compaction keeps in view, in estimated tokens; the rest becomes a summary." env:"HOLON_COMPACTION_KEEP_RECENT_ESTIMATED_TOKENS" default:"24000" placeholder:"N"`
	RetryHorizon    time.Duration      `name:"model-retry-horizon" help:"How long a turn whose model call keeps failing with a rate limit, overload, connection failure or 5xx goes on retrying it on a durable timer, from the first failure (0: fail the turn at once)." env:"HOLON_MODEL_RETRY_HORIZON" default:"6h" placeholder:"DURATION"`
	RetryBase       time.Duration      `name:"model-retry-base" help:"Delay before the first such retry; each next one doubles it (jittered, a longer Retry-After wins)." env:"HOLON_MODEL_RETRY_BASE" default:"30s" placeholder:"DURATION"`
	RetryMax        time.Duration      `name:"model-retry-max" help:"Longest delay between two such retries." env:"HOLON_MODEL_RETRY_MAX" default:"30m" placeholder:"DURATION"`
	TimerMax        int                `name:"timer-max-per-agent" help:"Timers one agent may have (created by it or its operator)." env:"HOLON_TIMER_MAX_PER_AGENT" default:"20" placeholder:"N"`
	TimerMinEvery   time.Duration      `name:"timer-min-interval" help:"Shortest interval of a recurring timer (every or cron)." env:"HOLON_TIMER_MIN_INTERVAL" default:"1m" placeholder:"DURATION"`
	TrashRetention  time.Duration      `name:"trash-retention" help:"How long the archive of a deleted agent stays in HOME/trash (agents delete) before a start removes it (0: until removed by hand)." env:"HOLON_TRASH_RETENTION" default:"168h" placeholder:"DURATION"`
	Remote          remoteFlags        `embed:""`
	Cluster         clusterFlags       `embed:""`
	Homes           homeFlags          `embed:""`
	Observability   observabilityFlags `embed:""`
	ScrubInterval   time.Duration      `name:"scrub-interval" help:"How often the background integrity scrub reads every agent's whole journal, once after each start and then at this interval, quarantining and reporting a damaged one (0: no scrub)." env:"HOLON_SCRUB_INTERVAL" default:"24h" placeholder:"DURATION"`

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

// provider builds the configured provider (see node.NewModelProvider);
// a configuration that cannot work is a usage error.
func (c *runCmd) provider(home string) (*node.ModelProvider, error) {
	cfg, err := c.modelConfig(home)
	if err != nil {
		return nil, err
	}
	p, err := node.NewModelProvider(cfg, c.Script, c.env)
	if errors.Is(err, node.ErrConfig) {
		return nil, usage(err)
	}
	return p, err
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
	remote, err := c.Remote.gateway()
	if err != nil {
		return err
	}
	cfg, err := c.modelConfig(home)
	if err != nil {
		return err
	}
	clusterCfg, err := c.Cluster.config(c.Journal)
	if err != nil {
		return err
	}
	notifier, err := c.notifier()
	if err != nil {
		return err
	}
	c.fillSecrets(reg, cfg, auth.Token)
	reg.Add(c.notifySecret)
	agents, err := c.agentOptions(cfg)
	if err != nil {
		return err
	}
	agents.Notifier = notifier
	nc := c.nodeConfig(home, log, reg, prov, auth, agents)
	nc.Remote = remote
	nc.Journal = c.Journal
	nc.Cluster = clusterCfg
	nc.Observability = c.Observability.observability()
	n, err := node.Start(nc)
	if errors.Is(err, node.ErrConfig) {
		return usage(err)
	}
	if err != nil {
		return err
	}
	log.Info().Str("home", home).Str("socket", n.Socket()).Str("model", orNone(c.Model)).Msg("runtime ready")
	n.Wait(ctx)
	err = n.Shutdown()
	if lost := n.ClusterLost(); lost != nil {
		return lost // a node that lost its membership exits non-zero
	}
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// compaction maps the compaction flags onto the agents' config; a keep
// budget that leaves nothing to compact is a usage error.
func (c *runCmd) compaction() (agentstate.Compaction, error) {
	if c.CompactTrigger >= 0 && c.CompactKeep >= c.CompactTrigger {
		return agentstate.Compaction{}, usage(fmt.Errorf("--compaction-keep-tokens %d is not below --compaction-trigger-tokens %d: keep less than the trigger, or disable compaction with a negative trigger",
			c.CompactKeep, c.CompactTrigger))
	}
	if c.CompactKeep <= 0 {
		return agentstate.Compaction{}, usage(fmt.Errorf("--compaction-keep-tokens %d: give a positive number of tokens", c.CompactKeep))
	}
	return agentstate.Compaction{TriggerTokens: c.CompactTrigger, KeepTokens: c.CompactKeep}, nil
}

// workItemReminder maps the stale-reminder flags onto the agents' config.
func (c *runCmd) workItemReminder() actors.WorkItemReminder {
	return actors.WorkItemReminder{Rounds: c.StaleRounds, CooldownRounds: c.StaleCooldown, MaxTokens: c.StaleMaxTokens}
}
