package task_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// TestRecoverGatedCommand: a gated command task that exited by itself
// while the runtime was down is recovered with its real exit status and
// output; one still running is killed and recovered interrupted.
func TestRecoverGatedCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd        string
		wait       bool
		wantStatus string
		wantCode   int
	}{
		{"echo all done", true, task.StatusCompleted, 0},
		{"echo all done; exit 3", true, task.StatusFailed, 3},
		{"echo all done; exec sleep 1000", false, task.StatusInterrupted, 0},
	} {
		dir := t.TempDir()
		arts, err := tools.NewArtifactDir(filepath.Join(dir, "artifacts"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := exec.StartGated(exec.ProcessSpec{Cmd: tc.cmd, Dir: dir}, arts, "cmd_1")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close() })
		if err := p.Release(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if tc.wait {
			if _, err := p.Wait(ctx); err != nil {
				t.Fatal(err)
			}
		} else {
			for pv, _ := exec.ReadPreview(arts, p.Output().Stdout, 100); pv.Text == ""; pv, _ = exec.ReadPreview(arts, p.Output().Stdout, 100) {
				time.Sleep(5 * time.Millisecond) // polling a process we do not control
			}
		}
		rec := task.RecordOf("task_1", exec.Promotion{Process: p, Identity: exec.Identity(p.Spec())}, time.Now())
		out, err := task.Recover(ctx, arts, rec, 1000, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != tc.wantStatus || out.OutputPreview != "all done\n" {
			t.Errorf("%s: recovered %s with %q, want %s with its output", tc.cmd, out.Status, out.OutputPreview, tc.wantStatus)
		}
		if tc.wait && (out.ExitStatus == nil || *out.ExitStatus != tc.wantCode) {
			t.Errorf("%s: exit status %v, want %d", tc.cmd, out.ExitStatus, tc.wantCode)
		}
		if !tc.wait {
			if _, err := p.Wait(ctx); err != nil {
				t.Errorf("%s: still running after its recovery: %v", tc.cmd, err)
			}
		}
	}
}
