package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/background"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// daemonCmd groups the background lifecycle commands: the same runtime as
// `run`, started detached.
type daemonCmd struct {
	Start   daemonStartCmd   `cmd:"" help:"Start the runtime in the background; idempotent for the same configuration."`
	Stop    daemonStopCmd    `cmd:"" help:"Stop the background runtime: graceful shutdown, then SIGTERM, then SIGKILL."`
	Status  daemonStatusCmd  `cmd:"" help:"Show the background runtime's process, health, activity and last failure; with the flags it was started with, also whether its configuration matches them."`
	Restart daemonRestartCmd `cmd:"" help:"Stop, then start with the given configuration."`
	Logs    daemonLogsCmd    `cmd:"" help:"Show the log paths, recent lifecycle failures and the end of the daemon log."`
}

// daemonTimeouts bound the lifecycle waits.
const (
	startWait = 30 * time.Second // for the new process to answer on the socket
	stopGrace = 5 * time.Second  // beyond --shutdown-timeout before SIGTERM, then SIGKILL
	stderrLog = "daemon.stderr"  // the child's raw stderr (panics) under logs/
)

// daemonPaths are the files of a home.
type daemonPaths struct {
	home, run, socket, runtimeFile, failureFile, logFile, stderrFile string
}

func pathsOf(e *env) (daemonPaths, error) {
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return daemonPaths{}, err
	}
	run := persistence.RunDir(home)
	return daemonPaths{home: home, run: run, socket: filepath.Join(run, socketName),
		runtimeFile: filepath.Join(run, runtimeFileName), failureFile: filepath.Join(run, failureFileName),
		logFile:    filepath.Join(persistence.LogsDir(home), logFileName),
		stderrFile: filepath.Join(persistence.LogsDir(home), stderrLog)}, nil
}

// running is what a home's runtime files and socket say about its daemon.
type running struct {
	file    *runtimeFile           // nil: no runtime.json
	alive   bool                   // the recorded pid is alive and holds the data-dir lock
	status  *control.RuntimeStatus // nil: the socket did not answer
	control error                  // why the socket did not answer
}

// inspect reads the runtime file and asks the socket.
func inspect(ctx context.Context, p daemonPaths) running {
	var r running
	if b, err := os.ReadFile(p.runtimeFile); err == nil {
		var f runtimeFile
		if json.Unmarshal(b, &f) == nil {
			r.file = &f
			r.alive = ownsHome(p, f.PID)
		}
	}
	c := control.NewUnixClient(p.socket)
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := c.RuntimeStatus(ctx)
	if err != nil {
		r.control = err
		return r
	}
	r.status = &st
	return r
}

// ownsHome reports whether pid is a live process holding the home's
// data-dir lock: a pid the kernel reused for an unrelated process is not.
func ownsHome(p daemonPaths, pid int) bool {
	owner, held, err := persistence.LockHolder(persistence.DataDir(p.home))
	if err != nil || !held {
		return false
	}
	return processAlive(pid) && (owner == pid || owner == 0)
}

// processAlive reports whether pid names a live process.
func processAlive(pid int) bool { return background.Alive(pid) }

// cleanStale removes runtime files left by a daemon that is gone. The
// socket goes only if nothing answers on it (ListenUnix checks again).
func cleanStale(p daemonPaths, r running) {
	if r.status != nil || r.alive {
		return
	}
	_ = os.Remove(p.runtimeFile)
}

// daemonStartCmd is `holon-actors daemon start`.
type daemonStartCmd struct {
	runCmd `embed:""`
}

// Run starts the daemon, or finds it already running as asked.
func (c *daemonStartCmd) Run(ctx context.Context, e *env) error {
	p, err := pathsOf(e)
	if err != nil {
		return err
	}
	r := inspect(ctx, p)
	if r.status != nil {
		if r.status.ConfigFingerprint == c.fingerprint() {
			return report1(e, "already running", r.status.PID, p)
		}
		return fmt.Errorf("a runtime (pid %d) is already running on %s with a different configuration: use 'holon-actors daemon restart' with the new flags",
			r.status.PID, p.home)
	}
	if r.alive && r.file != nil {
		return fmt.Errorf("pid %d from %s is alive but its control socket does not answer (%v): see 'holon-actors daemon logs', or stop it with 'holon-actors daemon stop'",
			r.file.PID, p.runtimeFile, r.control)
	}
	cleanStale(p, r)
	st, err := c.spawn(ctx, e, p)
	if err != nil {
		return err
	}
	return reportStarted(e, "started", st, p)
}

// reportStarted prints the outcome of a start that launched a runtime; a
// runtime up but unhealthy (its store refusing writes) is said so, and
// the command fails.
func reportStarted(e *env, what string, st control.RuntimeStatus, p daemonPaths) error {
	problem := storeProblem(st)
	if problem == "" {
		return report1(e, what, st.PID, p)
	}
	if e.JSON {
		if err := printJSON(e, map[string]any{"result": what + "_unhealthy", "pid": st.PID, "home_dir": p.home, "socket_path": p.socket, "store_problem": problem}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "runtime %s (pid %d, home %s) but UNHEALTHY: %s\n", what, st.PID, p.home, problem)
	}
	return fmt.Errorf("the runtime is up but its store refuses writes (%s): free disk space under %s (or lower --disk-reserve-mib), then check 'holon-actors daemon status'",
		problem, p.home)
}

// storeProblem is why the runtime's store is unhealthy, "" when it is not.
func storeProblem(st control.RuntimeStatus) string {
	switch {
	case st.Store.Failed != "":
		return st.Store.Failed
	case st.Store.DiskFull != "":
		return st.Store.DiskFull
	}
	return ""
}

// report1 prints the outcome of start.
func report1(e *env, what string, pid int, p daemonPaths) error {
	if e.JSON {
		return printJSON(e, map[string]any{"result": strings.ReplaceAll(what, " ", "_"), "pid": pid, "home_dir": p.home, "socket_path": p.socket})
	}
	fmt.Fprintf(e.stdout, "runtime %s (pid %d, home %s)\n", what, pid, p.home)
	return nil
}

// spawn starts `run` detached with the same flags and waits until its
// socket answers with its pid.
func (c *daemonStartCmd) spawn(ctx context.Context, e *env, p daemonPaths) (control.RuntimeStatus, error) {
	var none control.RuntimeStatus
	self, err := os.Executable()
	if err != nil {
		return none, fmt.Errorf("find the holon-actors binary: %w", err)
	}
	if err := c.checkDefaultAgent(); err != nil {
		return none, err
	}
	if err := c.checkExecRoots(p.home); err != nil {
		return none, err
	}
	if _, err := c.tcpAuth(p.home); err != nil { // refuse bad TCP and model options before launching
		return none, err
	}
	if err := c.checkStreams(); err != nil {
		return none, err
	}
	if _, err := c.provider(p.home); err != nil {
		return none, err
	}
	cfg, err := c.modelConfig(p.home)
	if err != nil {
		return none, err
	}
	env, handed := c.credentials(cfg)
	st, err := background.Spawn(ctx, background.Spec{Path: self, Args: c.childArgs(p.home), Env: env, Secrets: handed,
		Output: p.stderrFile, Socket: p.socket, StartWait: startWait})
	if errors.Is(err, background.ErrExited) || errors.Is(err, background.ErrNoAnswer) {
		return none, fmt.Errorf("%w: see 'holon-actors daemon logs'", err)
	}
	return st, err
}

// credentials sets the background runtime's environment without the
// credential variables (the control token, the model keys, the config's
// api_key_env): they reach it through an inherited pipe instead, never
// its environment, which any process of the same user (its agents'
// commands included) could read in /proc/<pid>/environ.
func (c *daemonStartCmd) credentials(cfg catalog.Config) (env []string, handed map[string]string) {
	kept, taken := credentialNames(cfg).Split(os.Environ())
	if c.Token != "" { // --token or HOLON_CONTROL_TOKEN; never on the command line
		taken[secrets.ControlTokenEnv] = c.Token
	}
	return kept, taken
}

// childArgs are the arguments of the background `run`: every flag of
// `run` as this command line set it (see forwardArgs), logging to the file.
func (c *daemonStartCmd) childArgs(home string) []string {
	return append([]string{"--home", home, "run", "--log-file"}, c.forwardArgs()...)
}

// daemonStopCmd is `holon-actors daemon stop`.
type daemonStopCmd struct {
	Timeout time.Duration `help:"How long to wait for a graceful shutdown before SIGTERM (then as long again before SIGKILL)." default:"15s"`
}

// Run stops the daemon.
func (c *daemonStopCmd) Run(ctx context.Context, e *env) error {
	p, err := pathsOf(e)
	if err != nil {
		return err
	}
	how, pid, err := stopDaemon(ctx, p, c.Timeout)
	if err != nil {
		return err
	}
	// A clean stop clears a recorded lifecycle failure, so status does not
	// keep reporting a stale one; a forced stop leaves it.
	if how == "graceful_shutdown" || how == "not_running" {
		_ = os.Remove(p.failureFile)
	}
	if e.JSON {
		return printJSON(e, map[string]any{"result": how, "pid": pid})
	}
	if how == "not_running" {
		fmt.Fprintln(e.stdout, "no runtime was running (stale files cleaned)")
		return nil
	}
	fmt.Fprintf(e.stdout, "runtime stopped (pid %d, %s)\n", pid, strings.ReplaceAll(how, "_", " "))
	return nil
}

// stopDaemon stops the daemon of p: a shutdown request over the socket,
// then SIGTERM, then SIGKILL. It reports how it ended.
func stopDaemon(ctx context.Context, p daemonPaths, timeout time.Duration) (string, int, error) {
	r := inspect(ctx, p)
	pid := 0
	switch {
	case r.status != nil:
		pid = r.status.PID
	case r.file != nil && r.alive:
		pid = r.file.PID
	default:
		cleanStale(p, r)
		return "not_running", 0, nil
	}
	if r.status != nil {
		c := control.NewUnixClient(p.socket)
		err := c.Shutdown(ctx)
		c.Close()
		if err == nil && background.WaitExit(ctx, pid, timeout) {
			return "graceful_shutdown", pid, nil
		}
	}
	how, err := background.Terminate(ctx, pid, stopGrace)
	if err != nil {
		return "", pid, err
	}
	if how == background.EndedBySIGKILL {
		_ = os.Remove(p.runtimeFile)
	}
	return how, pid, nil
}

// configGiven reports whether the command line (or environment) names a
// runtime configuration to compare with: without one, status has nothing
// to match the running runtime's fingerprint against.
func (c *runCmd) configGiven() bool {
	for _, f := range c.runFlags() {
		if !operational[f.name] && f.set && !f.atDefault {
			return true
		}
	}
	return false
}

// daemonStatusCmd is `holon-actors daemon status`.
type daemonStatusCmd struct {
	runCmd `embed:""`
}

// daemonStatus is the output of daemon status.
type daemonStatus struct {
	Running          bool              `json:"running"`
	PID              int               `json:"pid,omitempty"`
	HomeDir          string            `json:"home_dir"`
	SocketPath       string            `json:"socket_path"`
	HTTPAddr         string            `json:"http_addr,omitempty"`
	ControlHealthy   bool              `json:"control_healthy"`
	ControlError     string            `json:"control_error,omitempty"`
	StoreProblem     string            `json:"store_problem,omitempty"`
	FingerprintMatch *bool             `json:"config_fingerprint_match,omitempty"`
	Activity         *control.Activity `json:"activity,omitempty"`
	LastFailure      *control.Failure  `json:"last_failure,omitempty"`
	// Store is what the journal store found damaged (quarantined agents,
	// lost or dropped events, torn WAL tails), when anything.
	Store *control.StoreHealth `json:"store,omitempty"`
	// Cluster is the node's cluster, when it is a cluster node.
	Cluster *control.ClusterStatus `json:"cluster,omitempty"`
}

// Run prints the status; it exits 4 when no runtime is running.
func (c *daemonStatusCmd) Run(ctx context.Context, e *env) error {
	p, err := pathsOf(e)
	if err != nil {
		return err
	}
	r := inspect(ctx, p)
	st := daemonStatus{HomeDir: p.home, SocketPath: p.socket}
	if r.file != nil && r.alive {
		st.Running, st.PID = true, r.file.PID
	}
	if r.status != nil {
		st.Running, st.PID, st.HTTPAddr, st.ControlHealthy = true, r.status.PID, r.status.HTTPAddr, r.status.Healthy
		st.Activity, st.LastFailure = &r.status.Activity, r.status.LastFailure
		st.StoreProblem = storeProblem(*r.status)
		st.Cluster = r.status.Cluster
		if storeDamaged(r.status.Store) {
			st.Store = &r.status.Store
		}
		if c.configGiven() {
			match := r.status.ConfigFingerprint == c.fingerprint()
			st.FingerprintMatch = &match
		}
	} else if r.control != nil && st.Running {
		st.ControlError = r.control.Error()
	}
	if st.LastFailure == nil {
		st.LastFailure = readFailure(p.failureFile)
	}
	if err := printDaemonStatus(e, st); err != nil {
		return err
	}
	if !st.Running {
		return fmt.Errorf("%w on %s", control.ErrNotRunning, p.home)
	}
	return nil
}

func printDaemonStatus(e *env, st daemonStatus) error {
	if e.JSON {
		return printJSON(e, st)
	}
	rows := [][2]string{{"running", fmt.Sprint(st.Running)}, {"home_dir", st.HomeDir}, {"socket_path", st.SocketPath}}
	if st.Running {
		rows = append(rows, [2]string{"pid", fmt.Sprint(st.PID)}, [2]string{"control", healthWord(st)})
	}
	if st.HTTPAddr != "" {
		rows = append(rows, [2]string{"http_addr", st.HTTPAddr})
	}
	if st.FingerprintMatch != nil {
		rows = append(rows, [2]string{"config matches", fmt.Sprint(*st.FingerprintMatch)})
	}
	if a := st.Activity; a != nil {
		rows = append(rows, [2]string{"state", a.State}, [2]string{"agents active/processing/waiting",
			fmt.Sprintf("%d / %d / %d", a.ActiveAgentCount, a.ProcessingAgentCount, a.WaitingAgentCount)},
			[2]string{"active tasks", fmt.Sprint(a.ActiveTaskCount)})
	}
	if f := st.LastFailure; f != nil {
		rows = append(rows, [2]string{"last failure", fmt.Sprintf("[%s]%s %s (next: %s)", f.Phase, whenText(f.OccurredAt), f.Summary, f.DetailHint)})
	}
	rows = append(rows, storeRows(st.Store)...)
	rows = append(rows, clusterRows(st.Cluster)...)
	return printRows(e, rows)
}

// storeDamaged reports whether the store found anything worth showing.
func storeDamaged(h control.StoreHealth) bool {
	return len(h.Quarantined) > 0 || len(h.DroppedTails) > 0 || len(h.Lost) > 0 || len(h.TornWAL) > 0 || len(h.Notes) > 0
}

// storeRows lists the store's damage, one row per finding.
func storeRows(h *control.StoreHealth) [][2]string {
	if h == nil {
		return nil
	}
	var rows [][2]string
	for _, q := range h.Quarantined {
		rows = append(rows, [2]string{"quarantined agent", fmt.Sprintf("%s at seq %d: %s (not resumed; see holon-actors doctor)", q.Stream, q.Seq, q.Reason)})
	}
	for _, d := range h.DroppedTails {
		rows = append(rows, [2]string{"dropped tail record", fmt.Sprintf("%s seq %d: %s", d.Stream, d.Seq, d.Reason)})
	}
	for _, w := range h.TornWAL {
		rows = append(rows, [2]string{"torn WAL tail dropped", fmt.Sprintf("%s: %d bytes at offset %d", w.File, w.Bytes, w.Offset)})
	}
	for _, n := range h.Notes {
		rows = append(rows, [2]string{"store note", n})
	}
	return rows
}

func healthWord(st daemonStatus) string {
	switch {
	case st.ControlHealthy:
		return "healthy"
	case st.ControlError != "":
		return "not answering: " + st.ControlError
	}
	return "answering, store unhealthy: " + st.StoreProblem
}

func readFailure(path string) *control.Failure {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var f control.Failure
	if json.Unmarshal(b, &f) != nil {
		return nil
	}
	return &f
}

// daemonRestartCmd is `holon-actors daemon restart`.
type daemonRestartCmd struct {
	daemonStartCmd `embed:""`
	Timeout        time.Duration `help:"How long to wait for the old runtime's graceful shutdown." default:"15s"`
}

// Run stops the running daemon (if any) and starts one with these flags.
func (c *daemonRestartCmd) Run(ctx context.Context, e *env) error {
	p, err := pathsOf(e)
	if err != nil {
		return err
	}
	if _, _, err := stopDaemon(ctx, p, c.Timeout); err != nil {
		return fmt.Errorf("stop the running runtime: %w", err)
	}
	st, err := c.spawn(ctx, e, p)
	if err != nil {
		return err
	}
	return reportStarted(e, "restarted", st, p)
}

// daemonLogsCmd is `holon-actors daemon logs`.
type daemonLogsCmd struct {
	Lines int `short:"n" help:"How many lines of the end of the log to show." default:"50"`
}

// daemonLogs is the output of daemon logs.
type daemonLogs struct {
	LogPath      string           `json:"log_path"`
	StderrPath   string           `json:"stderr_path"`
	MetadataPath string           `json:"metadata_path"`
	FailurePath  string           `json:"latest_failure_path"`
	LastStartup  *control.Failure `json:"recent_startup_failure,omitempty"`
	LastShutdown *control.Failure `json:"recent_shutdown_failure,omitempty"`
	Tail         []string         `json:"tail"`
}

// Run prints the paths, the recorded failure and the end of the log.
func (c *daemonLogsCmd) Run(e *env) error {
	if c.Lines < 0 || c.Lines > 10000 {
		return usage(fmt.Errorf("--lines %d: want 0 to 10000", c.Lines))
	}
	p, err := pathsOf(e)
	if err != nil {
		return err
	}
	out := daemonLogs{LogPath: p.logFile, StderrPath: p.stderrFile, MetadataPath: p.runtimeFile, FailurePath: p.failureFile,
		Tail: background.TailLines(p.logFile, c.Lines)}
	if f := readFailure(p.failureFile); f != nil {
		if f.Phase == "shutdown" {
			out.LastShutdown = f
		} else {
			out.LastStartup = f
		}
	}
	if e.JSON {
		return printJSON(e, out)
	}
	rows := [][2]string{{"log", out.LogPath}, {"stderr", out.StderrPath}, {"metadata", out.MetadataPath}, {"latest failure", out.FailurePath}}
	for _, f := range []*control.Failure{out.LastStartup, out.LastShutdown} {
		if f != nil {
			rows = append(rows, [2]string{"recent " + f.Phase + " failure", f.OccurredAt.Local().Format(time.DateTime) + " " + f.Summary})
		}
	}
	if err := printRows(e, rows); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\n--- last %d lines of %s ---\n", len(out.Tail), out.LogPath)
	for _, l := range out.Tail {
		fmt.Fprintln(e.stdout, l)
	}
	return nil
}
