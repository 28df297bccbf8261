package exec

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/holon-actors/holon-actors/tools"
)

// Errors of Process.
var (
	// ErrInputNotAccepted is returned by Write for a process started
	// without AcceptsInput, or whose input was closed.
	ErrInputNotAccepted = errors.New("exec: process does not accept input")
	// ErrNoShell is returned by Start when the named shell, or with none
	// named both bash and sh, cannot be found.
	ErrNoShell = errors.New("exec: no shell found")
)

// ProcessSpec is a command to start.
type ProcessSpec struct {
	Cmd          string   // shell command line
	Dir          string   // absolute working directory
	Shell        string   // shell to run Cmd with; "" is bash, or sh without bash
	Login        bool     // run the shell as a login shell (-l)
	TTY          bool     // run on a new pseudo-terminal; output is one combined stream
	AcceptsInput bool     // keep stdin (or the terminal) open for Write
	Env          []string // environment; nil inherits the runtime's
}

// ExitStatus is how a process ended: Code is the exit code, or -1 when it
// was killed by Signal.
type ExitStatus struct {
	Code   int    `json:"code"`
	Signal string `json:"signal,omitempty"`
}

func (s ExitStatus) String() string {
	if s.Signal != "" {
		return "killed by signal " + s.Signal
	}
	return fmt.Sprintf("exited with code %d", s.Code)
}

// Process is one running command in its own process group. Its methods
// are safe for concurrent use. The owner (the tool that started it, or
// the TaskHost it was promoted to) calls Close when done with it.
type Process struct {
	spec      ProcessSpec
	files     OutputFiles
	artifacts *tools.ArtifactDir
	cmd       *osexec.Cmd
	pgid      int
	token     string // in the command's environment as TokenEnv; identifies its orphans
	started   time.Time
	// gate is the write end of the gate pipe of a gated process (see
	// StartGated): Release writes to it and closes it; nil otherwise or
	// once released or closed.
	gate     *os.File
	gateMu   sync.Mutex
	exitFile string // artifact name of the exit status file of a gated process
	ticks    uint64 // start time of a gated process in clock ticks since boot (Launch.StartTicks)

	inMu  sync.Mutex
	input io.WriteCloser // stdin pipe or PTY master; nil when input is not accepted or closed
	pty   *os.File       // PTY master, closed by its copier at the end of output

	// streams capture stdout and stderr, or the terminal alone.
	stdout, stderr, combined *stream
	copiers                  sync.WaitGroup // the goroutines copying into streams
	readers                  []*os.File     // what they read; Close closes them if a stray holder keeps them open
	// direct: the command writes its output files itself (gated, not on a
	// PTY); its output ends when no process of it holds them (awaitHolders)
	// or cut is closed.
	direct bool
	// leftNothing: the scan that saw the output end found no process of
	// the command left, so none can appear: Close need not scan again.
	// Written by the reaper before done is closed.
	leftNothing bool
	cut         chan struct{}
	cutOnce     sync.Once

	// done is closed by the reaper goroutine once the command was reaped
	// and its output streams ended; exit is set first.
	done     chan struct{}
	exit     ExitStatus
	duration time.Duration
	closeMu  sync.Mutex
	closed   bool
}

// strayHolderGrace is how long Close waits for the output to end after
// killing the group before it cuts the output off from a process that left
// the group (setsid) but still holds it.
const strayHolderGrace = 2 * time.Second

// DefaultShell is bash when installed, else sh.
func DefaultShell() (string, error) {
	for _, s := range []string{"bash", "sh"} {
		if p, err := osexec.LookPath(s); err == nil {
			return p, nil
		}
	}
	return "", ErrNoShell
}

// Start starts spec in a new process group. Its output is kept in memory
// while small and otherwise written to artifact files under artifacts,
// exec/<id>/stdout.log and stderr.log (output.log on a PTY); Spill forces
// the files. Start returns an error, and leaves nothing running, when the
// shell, the directory or the pipes fail.
func Start(spec ProcessSpec, artifacts *tools.ArtifactDir, id string) (*Process, error) {
	return start(spec, artifacts, id, false)
}

func start(spec ProcessSpec, artifacts *tools.ArtifactDir, id string, gated bool) (*Process, error) {
	shell := spec.Shell
	if shell == "" {
		var err error
		if shell, err = DefaultShell(); err != nil {
			return nil, err
		}
	}
	path, err := osexec.LookPath(shell)
	if err != nil {
		return nil, fmt.Errorf("start %q: shell %s: %w (%w)", spec.Cmd, shell, ErrNoShell, err)
	}
	script := spec.Cmd
	if spec.TTY && posixShell(path) {
		// The command leads its terminal's session; Linux may report a
		// leader that exits normally as killed by the SIGHUP its own exit
		// sends to the terminal's process group. Ignoring SIGHUP keeps the
		// real exit status; the runtime stops tasks with TERM and KILL.
		script = "trap '' HUP\n" + spec.Cmd
	}
	args := []string{"-c", script}
	if spec.Login {
		args = []string{"-l", "-c", script}
	}
	cmd := osexec.Command(path, args...)
	cmd.Dir = spec.Dir
	token := rand.Text()
	cmd.Env = append(commandEnv(spec), TokenEnv+"="+token)
	p := &Process{spec: spec, artifacts: artifacts, cmd: cmd, token: token, done: make(chan struct{}), cut: make(chan struct{})}
	var gateR *os.File
	if gated {
		if gateR, err = p.gateCommand(id, path, args); err != nil {
			return nil, fmt.Errorf("start %q in %s: %w", spec.Cmd, spec.Dir, err)
		}
	}
	if spec.TTY {
		err = p.startPTY(id)
	} else {
		err = p.startPipes(id)
	}
	if gateR != nil {
		gateR.Close() // the wrapper has its own descriptor
	}
	if err != nil {
		p.closeGate()
		return nil, fmt.Errorf("start %q in %s: %w", spec.Cmd, spec.Dir, err)
	}
	return p, nil
}

func posixShell(path string) bool {
	switch filepath.Base(path) {
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox":
		return true
	}
	return false
}

func commandEnv(spec ProcessSpec) []string {
	env := spec.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(env[:len(env):len(env)], "PAGER=cat", "GIT_PAGER=cat")
	if spec.TTY {
		env = append(env, "TERM=xterm")
	}
	return env
}

func (p *Process) startPipes(id string) error {
	p.files = OutputFiles{Stdout: "exec/" + id + "/stdout.log", Stderr: "exec/" + id + "/stderr.log"}
	if p.gate != nil {
		return p.startDirect()
	}
	p.stdout, p.stderr = newStream(p.artifacts, p.files.Stdout), newStream(p.artifacts, p.files.Stderr)
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	p.cmd.Stdout, p.cmd.Stderr = outW, errW
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if p.spec.AcceptsInput {
		if p.input, err = p.cmd.StdinPipe(); err != nil {
			outR.Close()
			errR.Close()
			outW.Close()
			errW.Close()
			return err
		}
	}
	err = p.cmd.Start()
	outW.Close() // the child has its own descriptors
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return err
	}
	p.started = time.Now()
	p.pgid = p.cmd.Process.Pid
	p.readers = []*os.File{outR, errR}
	p.copy(p.stdout, outR)
	p.copy(p.stderr, errR)
	go p.reap()
	return nil
}

func (p *Process) startPTY(id string) error {
	p.files = OutputFiles{Combined: "exec/" + id + "/output.log"}
	p.combined = newStream(p.artifacts, p.files.Combined)
	master, err := pty.StartWithAttrs(p.cmd, &pty.Winsize{Rows: 40, Cols: 200}, &syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		return err
	}
	p.started = time.Now()
	p.pgid = p.cmd.Process.Pid
	p.pty = master
	if p.gate != nil {
		p.ticks = startTicks(p.pgid)
		_ = p.combined.spill() // output written before a crash stays readable
	}
	if p.spec.AcceptsInput {
		p.input = nopCloser{master}
	}
	p.readers = []*os.File{master}
	p.copy(p.combined, master)
	go p.reap()
	return nil
}

func (p *Process) copy(s *stream, r io.ReadCloser) {
	p.copiers.Add(1)
	go func() {
		defer p.copiers.Done()
		copyInto(s, r)
	}()
}

// reap waits for the command, then for the end of its output (every
// process holding the pipes or the terminal has exited), records the exit
// and closes done.
func (p *Process) reap() {
	err := p.cmd.Wait()
	p.duration = time.Since(p.started)
	p.exit = exitStatus(p.cmd.ProcessState, err)
	if p.direct {
		p.awaitHolders()
	}
	p.copiers.Wait()
	for _, s := range p.streams() {
		s.close()
	}
	close(p.done)
}

func (p *Process) streams() []*stream {
	var out []*stream
	for _, s := range []*stream{p.stdout, p.stderr, p.combined} {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// Spill moves the output to its artifact files, which from then on hold
// all of it: a promoted command's output must be file-backed so TaskOutput
// can read it after the Process is gone.
func (p *Process) Spill() error {
	for _, s := range p.streams() {
		if err := s.spill(); err != nil {
			return err
		}
	}
	return nil
}

// Preview returns the head and tail of the output so far within maxChars:
// which is "stdout", "stderr" or, on a PTY, "output".
func (p *Process) Preview(which string, maxChars int) (Preview, error) {
	s := map[string]*stream{"stdout": p.stdout, "stderr": p.stderr, "output": p.combined}[which]
	if s == nil {
		return Preview{}, nil
	}
	return s.preview(maxChars)
}

func exitStatus(ps *os.ProcessState, err error) ExitStatus {
	if ps == nil {
		return ExitStatus{Code: -1, Signal: "unknown: " + err.Error()}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus{Code: -1, Signal: signalName(ws.Signal())}
	}
	return ExitStatus{Code: ps.ExitCode()}
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	}
	return fmt.Sprintf("signal %d", int(s))
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Spec is what the process was started with.
func (p *Process) Spec() ProcessSpec { return p.spec }

// Pid is the process id of the shell.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Pgid is the id of the process group the command and its children run
// in. Persist it with Token so a restarted runtime can KillOrphans.
func (p *Process) Pgid() int { return p.pgid }

// Token is the random value of TokenEnv in the command's environment,
// inherited by its children: it tells the command's orphans from an
// unrelated process group that reused the id after a restart.
func (p *Process) Token() string { return p.token }

// Output names the artifact files being written.
func (p *Process) Output() OutputFiles { return p.files }

// Started is when the command started.
func (p *Process) Started() time.Time { return p.started }

// Done is closed when the command has exited and its output is complete:
// a background child still holding its output keeps it open.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exit returns the exit status and how long the command ran; ok is false
// while it runs.
func (p *Process) Exit() (status ExitStatus, duration time.Duration, ok bool) {
	select {
	case <-p.done:
		return p.exit, p.duration, true
	default:
		return ExitStatus{}, 0, false
	}
}

// WaitFor waits until the command exits, d passes or ctx ends. exited
// tells which: a command still running is left running (the caller may
// promote it), and err is ctx.Err() when ctx ended first.
func (p *Process) WaitFor(ctx context.Context, d time.Duration) (status ExitStatus, exited bool, err error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return p.exit, true, nil
	case <-t.C:
		return ExitStatus{}, false, nil
	case <-ctx.Done():
		return ExitStatus{}, false, ctx.Err()
	}
}

// Wait waits for the command to exit or ctx to end.
func (p *Process) Wait(ctx context.Context) (ExitStatus, error) {
	select {
	case <-p.done:
		return p.exit, nil
	case <-ctx.Done():
		return ExitStatus{}, ctx.Err()
	}
}

// Write sends input to the command's stdin, or to its terminal for a PTY.
func (p *Process) Write(b []byte) (int, error) {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.input == nil {
		return 0, ErrInputNotAccepted
	}
	select {
	case <-p.done:
		return 0, fmt.Errorf("write input: %w", os.ErrProcessDone)
	default:
	}
	n, err := p.input.Write(b)
	if err != nil {
		return n, fmt.Errorf("write input: %w", err)
	}
	return n, nil
}

// CloseInput closes stdin so the command reads end of file; on a PTY it
// sends the end-of-file character instead.
func (p *Process) CloseInput() error {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.input == nil {
		return ErrInputNotAccepted
	}
	if p.pty != nil {
		_, err := p.input.Write([]byte{4}) // ^D
		return err
	}
	err := p.input.Close()
	p.input = nil
	return err
}

// StopResult is what Stop did.
type StopResult struct {
	Requested bool       // SIGTERM was sent to the group
	Forced    bool       // SIGKILL was needed after the grace period
	Exit      ExitStatus // how the command ended
}

// Stop ends the command: SIGTERM to its process group, then SIGKILL to
// the group if it has not exited after grace. Whatever is left of the
// group after the command exited is killed too, so nothing is orphaned.
// It returns when the command has exited, or with ctx's error.
func (p *Process) Stop(ctx context.Context, grace time.Duration) (StopResult, error) {
	var r StopResult
	select {
	case <-p.done:
		p.killAll()
		return StopResult{Exit: p.exit}, nil
	default:
	}
	p.closeGate()
	r.Requested = signalGroup(p.pgid, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		r.Forced = KillGroup(p.pgid)
		if err := p.awaitAfterKill(ctx); err != nil {
			return r, fmt.Errorf("stop process group %d: %w", p.pgid, err)
		}
	case <-ctx.Done():
		return r, fmt.Errorf("stop process group %d: %w", p.pgid, ctx.Err())
	}
	p.killAll()
	r.Exit = p.exit
	return r, nil
}

// awaitAfterKill waits for done after the group was killed; if a process
// that left the group (setsid) still holds the output after
// strayHolderGrace, the output is cut off from it.
func (p *Process) awaitAfterKill(ctx context.Context) error {
	t := time.NewTimer(strayHolderGrace)
	defer t.Stop()
	select {
	case <-p.done:
		return nil
	case <-t.C:
		p.cutOff()
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// cutOff ends the output of a process that a stray holder keeps open.
func (p *Process) cutOff() {
	p.cutOnce.Do(func() {
		for _, r := range p.readers {
			_ = r.Close()
		}
		close(p.cut)
	})
}

// Close kills what is left of the process group, waits for the command and
// the output copier, and closes the terminal. Artifact files stay.
func (p *Process) Close() error {
	p.closeMu.Lock()
	defer p.closeMu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	if p.closeGate() {
		// Never released: the wrapper exits at the closed gate, having run
		// nothing, as it does when the runtime dies before releasing it.
		t := time.NewTimer(strayHolderGrace)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	}
	p.killAll()
	_ = p.awaitAfterKill(context.Background())
	p.inMu.Lock()
	if p.input != nil && p.pty == nil {
		_ = p.input.Close()
	}
	p.input = nil
	p.inMu.Unlock()
	return nil
}

// signalGroup signals the process group pgid; it reports whether the
// group existed.
func signalGroup(pgid int, sig syscall.Signal) bool {
	if pgid <= 0 {
		return false
	}
	return syscall.Kill(-pgid, sig) == nil
}

// KillGroup sends SIGKILL to the process group pgid, as a restarted
// runtime does to the persisted group of a command task it cannot
// reattach. It reports whether the group existed.
func KillGroup(pgid int) bool { return signalGroup(pgid, syscall.SIGKILL) }

// GroupAlive reports whether process group pgid exists: some process of
// it runs, or has died and is not reaped yet. After KillGroup, use
// WaitGroupGone.
func GroupAlive(pgid int) bool { return signalGroup(pgid, 0) }

// WaitGroupGone waits until no process of group pgid runs, as after
// KillGroup, whose signal is delivered asynchronously: the group is gone,
// or only zombies are left (their parent, often init, reaps them). It
// polls; ctx bounds the wait.
func WaitGroupGone(ctx context.Context, pgid int) error {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for GroupAlive(pgid) && !onlyZombies(pgid) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("process group %d still running: %w", pgid, ctx.Err())
		case <-t.C:
		}
	}
	return nil
}
