package exec

import (
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/holon-actors/holon-actors/procfs"
	"github.com/holon-actors/holon-actors/tools"
)

// Errors of gated commands.
var (
	// ErrNotGated is returned by Release for a process that was not
	// started gated, or was released or closed already.
	ErrNotGated = errors.New("exec: process is not held at its gate")
	// ErrLaunchNotRecorded is returned when a command's Launch could not be
	// made durable: the command was not run.
	ErrLaunchNotRecorded = errors.New("exec: the command's launch could not be recorded")
)

// gateScript is the wrapper of a gated command, run by sh with the exit
// status file and the command's shell and arguments as its arguments. It
// waits for one line on fd 3, the gate: at end of file (the runtime died
// or closed the gate before releasing it) it exits 125 without running
// anything. Released, it runs the command as its child, so that it can
// write the command's exit status to the file when the command ends, even
// if the runtime is gone by then, and ends the same way. The signals it
// catches are reset to their defaults in the command.
const gateScript = `IFS= read -r go <&3 || exit 125
exec 3<&- 5>&2 2>/dev/null
f=$1
shift
trap : HUP INT QUIT TERM
(exec "$@" 2>&5 5>&-)
s=$?
printf '%s\n' "$s" >"$f"
if [ "$s" -gt 128 ] && [ "$s" -lt 193 ]; then
	trap - HUP INT QUIT TERM
	kill -$((s - 128)) $$
fi
exit "$s"`

// StartGated starts spec like Start, but held at a gate: the process
// exists, with its pid, group and token known (Launch), yet nothing of
// the command runs until Release. If the runtime dies, or Close is called,
// before Release, the command never runs. Output goes straight from the
// command to its artifact files (a PTY's output is copied there from the
// start), and its exit status to a file next to them, so both outlive
// the runtime.
func StartGated(spec ProcessSpec, artifacts *tools.ArtifactDir, id string) (*Process, error) {
	return start(spec, artifacts, id, true)
}

// gateCommand rewrites p.cmd to run shell with args behind the gate
// wrapper, and returns the read end of the gate for the child.
func (p *Process) gateCommand(id, shell string, args []string) (*os.File, error) {
	sh, err := osexec.LookPath("sh")
	if err != nil {
		return nil, fmt.Errorf("gate: %w (%w)", ErrNoShell, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("gate: %w", err)
	}
	p.exitFile = "exec/" + id + "/exit_status"
	p.cmd.Path = sh
	p.cmd.Args = append([]string{"sh", "-c", gateScript, "holon-gate", p.artifacts.Path(p.exitFile), shell}, args...)
	p.cmd.ExtraFiles = []*os.File{r}
	p.gate = w
	return r, nil
}

// Release lets a gated command run. The caller makes its Launch durable
// first.
func (p *Process) Release() error {
	p.gateMu.Lock()
	defer p.gateMu.Unlock()
	if p.gate == nil {
		return ErrNotGated
	}
	_, err := p.gate.Write([]byte("\n"))
	if cerr := p.gate.Close(); err == nil {
		err = cerr
	}
	p.gate = nil
	if err != nil {
		return fmt.Errorf("release %q: %w", p.spec.Cmd, err)
	}
	return nil
}

// closeGate closes an unreleased gate, and reports whether there was
// one: the wrapper exits without running the command.
func (p *Process) closeGate() bool {
	p.gateMu.Lock()
	defer p.gateMu.Unlock()
	if p.gate == nil {
		return false
	}
	_ = p.gate.Close()
	p.gate = nil
	return true
}

// ExitFile is the artifact name of the exit status file of a gated
// process; empty for one started ungated.
func (p *Process) ExitFile() string { return p.exitFile }

// Launch is the identity of the process, to make durable before Release.
func (p *Process) Launch(id string) Launch {
	return Launch{ExecID: id, Cmd: p.spec.Cmd, Pid: p.Pid(), Pgid: p.pgid, StartTicks: p.ticks,
		Token: p.token, Output: p.files, ExitFile: p.exitFile, Started: p.started}
}

// startDirect starts a gated pipe-mode command with its stdout and stderr
// on its artifact files. Its output ends once no process of it holds
// them open any more (see awaitHolders).
func (p *Process) startDirect() error {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, name := range []string{p.files.Stdout, p.files.Stderr} {
		f, err := p.artifacts.Create(name)
		if err != nil {
			closeAll()
			return err
		}
		files = append(files, f)
	}
	p.stdout, p.stderr = fileStream(p.artifacts, p.files.Stdout), fileStream(p.artifacts, p.files.Stderr)
	p.cmd.Stdout, p.cmd.Stderr = files[0], files[1]
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if p.spec.AcceptsInput {
		var err error
		if p.input, err = p.cmd.StdinPipe(); err != nil {
			closeAll()
			return err
		}
	}
	err := p.cmd.Start()
	closeAll() // the child has its own descriptors
	if err != nil {
		return err
	}
	p.started = time.Now()
	p.pgid = p.cmd.Process.Pid
	p.ticks = startTicks(p.pgid)
	p.direct = true
	go p.reap()
	return nil
}

// holderPoll is how often the end of a direct command's output is looked
// for once its shell exited.
const holderPoll = 50 * time.Millisecond

// awaitHolders waits, after the shell of a direct command exited, until
// no process of it (its group, or carrying its token) holds its output
// files open, or the output is cut off (Close).
func (p *Process) awaitHolders() {
	files := []string{p.artifacts.Path(p.files.Stdout), p.artifacts.Path(p.files.Stderr)}
	t := time.NewTicker(holderPoll)
	defer t.Stop()
	for {
		live, zombies := related(p.pgid, p.token, p.ticks, true)
		if !holdsAny(live, files) {
			p.leftNothing = len(live) == 0 && len(zombies) == 0
			return
		}
		select {
		case <-p.cut:
			return
		case <-t.C:
		}
	}
}

// holdsAny reports whether one of pids has one of files open.
func holdsAny(pids []int, files []string) bool {
	for _, pid := range pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd"
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if target, err := os.Readlink(dir + "/" + fd.Name()); err == nil && slices.Contains(files, target) {
				return true
			}
		}
	}
	return false
}

// ExitStatusOf reads the exit status a gated command's wrapper wrote; ok
// is false when there is none (the command had not ended, or was killed
// with its wrapper). A status above 128 is read as death by signal
// status-128, as the shell reports it.
func ExitStatusOf(artifacts *tools.ArtifactDir, l Launch) (status ExitStatus, ok bool, err error) {
	if l.ExitFile == "" {
		return ExitStatus{}, false, nil
	}
	b, err := os.ReadFile(artifacts.Path(l.ExitFile))
	if errors.Is(err, os.ErrNotExist) {
		return ExitStatus{}, false, nil
	}
	if err != nil {
		return ExitStatus{}, false, fmt.Errorf("exit status of %q: %w", l.Cmd, err)
	}
	if len(b) == 0 {
		return ExitStatus{}, false, nil // caught between the wrapper's open and its write
	}
	code, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return ExitStatus{}, false, fmt.Errorf("exit status of %q: %q is not a number", l.Cmd, b)
	}
	if code > 128 && code < 193 {
		return ExitStatus{Code: -1, Signal: signalName(syscall.Signal(code - 128))}, true, nil
	}
	return ExitStatus{Code: code}, true, nil
}

// startTicks is the start time of pid in clock ticks since boot, from
// /proc/<pid>/stat; 0 when it cannot be read.
func startTicks(pid int) uint64 {
	st, _ := procfs.ReadStat(pid)
	return st.Start
}
