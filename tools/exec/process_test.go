package exec_test

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/tools/exec"
)

func startProcess(t *testing.T, e *env, spec exec.ProcessSpec) *exec.Process {
	t.Helper()
	if spec.Dir == "" {
		spec.Dir = e.cfg.Root.Dir()
	}
	p, err := exec.Start(spec, e.cfg.Artifacts, e.cfg.NewID())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func TestStopGraceful(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "exec sleep 1000"})
	r, err := p.Stop(waitCtx(t), 20*time.Second)
	if err != nil || !r.Requested || r.Forced || r.Exit.Signal != "SIGTERM" {
		t.Fatalf("Stop = %+v, %v", r, err)
	}
}

func TestStopForcedKillsTheWholeGroup(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "trap '' TERM; sleep 1000 & echo ready; wait"})
	waitOutput(t, p, "stdout", "ready")
	r, err := p.Stop(waitCtx(t), 50*time.Millisecond)
	if err != nil || !r.Requested || !r.Forced || r.Exit.Signal != "SIGKILL" {
		t.Fatalf("Stop = %+v, %v", r, err)
	}
	if err := exec.WaitGroupGone(waitCtx(t), p.Pgid()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
}

func TestCloseKillsBackgroundChildren(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "sleep 1000 >/dev/null 2>&1 &"})
	if st, err := p.Wait(waitCtx(t)); err != nil || st.Code != 0 {
		t.Fatalf("Wait = %v %v", st, err)
	}
	if !exec.GroupAlive(p.Pgid()) {
		t.Fatal("the background child is not running; the test proves nothing")
	}
	_ = p.Close()
	if err := exec.WaitGroupGone(waitCtx(t), p.Pgid()); err != nil {
		t.Fatalf("Close left the background child running: %v", err)
	}
}

// TestKillGroupFindsOrphans is what a restarted runtime does: it has only
// the persisted pgid of a command task whose process it cannot reattach.
func TestKillGroupFindsOrphans(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "exec sleep 1000"})
	pgid := p.Pgid()
	if !exec.GroupAlive(pgid) || !exec.KillGroup(pgid) {
		t.Fatal("the group was not found")
	}
	if st, _ := p.Wait(waitCtx(t)); st.Signal != "SIGKILL" {
		t.Fatalf("exit = %v", st)
	}
	if err := exec.WaitGroupGone(waitCtx(t), pgid); err != nil {
		t.Fatal(err)
	}
}

func TestInputRefusedWithoutAcceptsInput(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "cat"})
	if _, err := p.Write([]byte("x")); !errors.Is(err, exec.ErrInputNotAccepted) {
		t.Fatalf("Write = %v, want ErrInputNotAccepted", err)
	}
	if st, _ := p.Wait(waitCtx(t)); st.Code != 0 { // stdin is /dev/null: cat ends at once
		t.Fatalf("exit = %v", st)
	}
}

func TestCloseInputEndsStdin(t *testing.T) {
	for _, tty := range []bool{false, true} {
		e := newEnv(t)
		p := startProcess(t, e, exec.ProcessSpec{Cmd: "wc -l", AcceptsInput: true, TTY: tty})
		if _, err := p.Write([]byte("a\nb\n")); err != nil {
			t.Fatal(err)
		}
		if err := p.CloseInput(); err != nil {
			t.Fatal(err)
		}
		if st, err := p.Wait(waitCtx(t)); err != nil || st.Code != 0 {
			t.Fatalf("tty=%v: Wait = %v %v", tty, st, err)
		}
		which := map[bool]string{false: "stdout", true: "output"}[tty]
		if b := output(t, p, which); !strings.Contains(b, "2") {
			t.Errorf("tty=%v: output = %q", tty, b)
		}
	}
}

func TestWaitForLeavesItRunning(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "exec sleep 1000"})
	if _, exited, err := p.WaitFor(waitCtx(t), time.Millisecond); exited || err != nil {
		t.Fatalf("WaitFor = %v, %v", exited, err)
	}
	if !exec.GroupAlive(p.Pgid()) {
		t.Fatal("WaitFor stopped the command")
	}
	if _, _, ok := p.Exit(); ok {
		t.Fatal("Exit reports a running command as exited")
	}
}

// TestBackgroundHolderKeepsItRunning: a child that keeps the output open
// keeps the command from being done, so ExecCommand promotes it instead of
// reporting it complete; Close ends it.
func TestBackgroundHolderKeepsItRunning(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "sleep 1000 & echo started"})
	waitOutput(t, p, "stdout", "started")
	if _, exited, _ := p.WaitFor(waitCtx(t), time.Millisecond); exited {
		t.Fatal("done while a child holds the output")
	}
	_ = p.Close()
	if st, _, ok := p.Exit(); !ok || st.Code != 0 {
		t.Fatalf("Exit = %v %v", st, ok)
	}
}

func TestSpillMakesOutputFileBacked(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "echo before; read x; echo after", AcceptsInput: true})
	waitOutput(t, p, "stdout", "before")
	if err := p.Spill(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	pv, err := exec.ReadPreview(e.cfg.Artifacts, p.Output().Stdout, 1000)
	if err != nil || pv.Text != "before\nafter\n" {
		t.Fatalf("file preview = %q, %v", pv.Text, err)
	}
}

// TestCloseCutsOffStrayHolder: a child that left the group (setsid) but
// keeps the output open cannot keep Close waiting.
func TestCloseCutsOffStrayHolder(t *testing.T) {
	e := newEnv(t)
	p := startProcess(t, e, exec.ProcessSpec{Cmd: "setsid sleep 1000 & echo $!"})
	waitOutput(t, p, "stdout", "\n")
	var stray int
	if _, err := fmt.Sscan(output(t, p, "stdout"), &stray); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(stray, syscall.SIGKILL) })
	_ = p.Close() // returns after strayHolderGrace
	if _, _, ok := p.Exit(); !ok {
		t.Fatal("Close returned before the command was done")
	}
}

// TestWaitingForInput: a command blocked reading its input is seen
// waiting, through a shell and through a terminal; a sleeping one, or one
// without input, is not.
func TestWaitingForInput(t *testing.T) {
	for _, tty := range []bool{false, true} {
		e := newEnv(t)
		p := startProcess(t, e, exec.ProcessSpec{Cmd: "echo ready; read line; echo got:$line; exec sleep 1000", AcceptsInput: true, TTY: tty})
		waitUntil(t, p.WaitingForInput, "tty=%v: never seen waiting for input", tty)
		if _, err := p.Write([]byte("x\n")); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool {
			return strings.Contains(output(t, p, map[bool]string{false: "stdout", true: "output"}[tty]), "got:x")
		},
			"tty=%v: the input was not read", tty)
		if p.WaitingForInput() {
			t.Errorf("tty=%v: a sleeping command is reported waiting for input", tty)
		}
	}
	e := newEnv(t)
	if p := startProcess(t, e, exec.ProcessSpec{Cmd: "exec sleep 1000"}); p.WaitingForInput() {
		t.Error("a command without input is reported waiting for it")
	}
}

// waitUntil polls cond, a state the process reaches on its own, until it
// holds or the test's wait bound passes.
func waitUntil(t *testing.T, cond func() bool, format string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf(format, args...)
		}
		time.Sleep(5 * time.Millisecond) // polling a process we do not control
	}
}
