package exec_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/holon-actors/holon-actors/tools/exec"
)

func startGated(t *testing.T, e *env, cmd string) (*exec.Process, exec.Launch) {
	t.Helper()
	id := e.cfg.NewID()
	p, err := exec.StartGated(exec.ProcessSpec{Cmd: cmd, Dir: e.cfg.Root.Dir()}, e.cfg.Artifacts, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, p.Launch(id)
}

// TestGateHoldsCommandUntilReleased: a gated command whose gate closes
// unreleased (Close, or the runtime dying) never runs.
func TestGateHoldsCommandUntilReleased(t *testing.T) {
	e := newEnv(t)
	marker := filepath.Join(e.cfg.Root.Dir(), "ran")
	p, l := startGated(t, e, "echo ran > "+marker)
	if l.Pid <= 0 || l.Pgid != l.Pid || l.Token == "" || l.StartTicks == 0 || l.ExitFile == "" {
		t.Fatalf("launch = %+v, want pid, pgid, token, start time and exit file", l)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if st, _, _ := p.Exit(); st.Code != 125 {
		t.Errorf("an unreleased command exited %v, want the gate's 125", st)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("an unreleased command ran: %v", err)
	}
	if err := p.Release(); err == nil {
		t.Error("Release after Close succeeded")
	}
}

// TestGatedCommandRecordsItsEnd: a released command writes its output
// straight to its files and its exit status next to them, or the signal
// that killed it.
func TestGatedCommandRecordsItsEnd(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want exec.ExitStatus
	}{
		{"echo out; echo err >&2; exit 3", exec.ExitStatus{Code: 3}},
		{"echo out; echo err >&2; kill -TERM $$", exec.ExitStatus{Code: -1, Signal: "SIGTERM"}},
	} {
		e := newEnv(t)
		p, l := startGated(t, e, tc.cmd)
		if err := p.Release(); err != nil {
			t.Fatal(err)
		}
		st, err := p.Wait(waitCtx(t))
		if err != nil || st != tc.want {
			t.Errorf("%s: exit = %v, %v, want %v", tc.cmd, st, err, tc.want)
		}
		got, ok, err := exec.ExitStatusOf(e.cfg.Artifacts, l)
		if err != nil || !ok || got != tc.want {
			t.Errorf("%s: exit status file = %v, %v, %v, want %v", tc.cmd, got, ok, err, tc.want)
		}
		for which, want := range map[string]string{"stdout": "out\n", "stderr": "err\n"} {
			pv, err := exec.ReadPreview(e.cfg.Artifacts, map[string]string{"stdout": l.Output.Stdout, "stderr": l.Output.Stderr}[which], 100)
			if err != nil || pv.Text != want {
				t.Errorf("%s: %s file = %q, %v, want %q", tc.cmd, which, pv.Text, err, want)
			}
		}
	}
}

// TestCloseKillsEscapedDescendants: a child that left the group (setsid)
// is killed when its command ends, found by the token in its environment.
func TestCloseKillsEscapedDescendants(t *testing.T) {
	e := newEnv(t)
	p, _ := startGated(t, e, "setsid sleep 1000 > /dev/null 2>&1 & echo $!")
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	stray := pidOf(t, output(t, p, "stdout"))
	t.Cleanup(func() { _ = syscall.Kill(stray, syscall.SIGKILL) })
	if !running(stray) {
		t.Fatal("the escaped child is not running before Close")
	}
	_ = p.Close()
	if running(stray) {
		t.Error("the escaped child survived Close")
	}
}

// TestSettle: after a runtime died, Settle reports a command that ended
// by itself with its real status, and kills one still running with every
// process that left its group.
func TestSettle(t *testing.T) {
	e := newEnv(t)
	done, dl := startGated(t, e, "echo finished; exit 4")
	if err := done.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := done.Wait(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	s, err := exec.Settle(waitCtx(t), e.cfg.Artifacts, dl)
	if err != nil || !s.Finished || s.Exit.Code != 4 || s.Killed != 0 {
		t.Errorf("finished command settled as %+v, %v; want finished with code 4, nothing killed", s, err)
	}

	live, ll := startGated(t, e, "setsid sleep 1000 > /dev/null 2>&1 & echo $!; exec sleep 1000")
	if err := live.Release(); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, live, "stdout", "\n")
	stray := pidOf(t, output(t, live, "stdout"))
	t.Cleanup(func() { _ = syscall.Kill(stray, syscall.SIGKILL) })
	s, err = exec.Settle(context.Background(), e.cfg.Artifacts, ll)
	if err != nil || s.Finished || s.Killed < 2 {
		t.Errorf("running command settled as %+v, %v; want not finished, its shell and its escaped child killed", s, err)
	}
	if running(stray) {
		t.Error("the escaped child survived Settle")
	}
}

func pidOf(t *testing.T, s string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("no pid in %q", s)
	}
	return pid
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
