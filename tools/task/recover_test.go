package task_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// daemonEnv makes the test binary act as a runtime that promotes a
// command to a task, prints the task's CommandRecord, and waits to be
// SIGKILLed.
const daemonEnv = "HOLON_TASK_TEST_DAEMON"

func TestMain(m *testing.M) {
	if dir := os.Getenv(daemonEnv); dir != "" {
		if err := runDaemon(dir); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		select {} // until SIGKILL
	}
	os.Exit(m.Run())
}

type recordingHost struct {
	*task.MemHost
	promos chan exec.Promotion
}

func (h recordingHost) Promote(ctx context.Context, p exec.Promotion) (exec.TaskHandle, error) {
	hd, err := h.MemHost.Promote(ctx, p)
	if err == nil {
		h.promos <- p
	}
	return hd, err
}

func runDaemon(dir string) error {
	root, err := tools.NewExecRoot(filepath.Join(dir, "root"))
	if err != nil {
		return err
	}
	arts, err := tools.NewArtifactDir(filepath.Join(dir, "artifacts"))
	if err != nil {
		return err
	}
	host := recordingHost{MemHost: task.NewMemHost(arts, time.Second, nil), promos: make(chan exec.Promotion, 1)}
	res := exec.ExecCommand(exec.Config{Root: root, Artifacts: arts, Tasks: host}).Call(context.Background(),
		json.RawMessage(`{"cmd":"echo before-crash; sleep 1000 & exec sleep 1000","yield_time_ms":1}`))
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		return err
	}
	var r exec.ExecResult
	if err := json.Unmarshal(env.Result, &r); err != nil || r.TaskHandle == nil {
		return fmt.Errorf("not promoted: %s", res.Receipt)
	}
	rec := task.RecordOf(r.TaskHandle.TaskID, <-host.promos, time.Now())
	for { // the output must be in its file before the crash
		b, _ := os.ReadFile(arts.Path(rec.Output.Stdout))
		if strings.Contains(string(b), "before-crash") {
			break
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not timing
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	fmt.Println(string(b))
	return nil
}

// TestRecoverAfterDaemonKilled: the runtime is SIGKILLed while a command
// task runs; after the "restart", Recover reports the task interrupted
// with its output so far and a failure artifact, and no orphan is left.
func TestRecoverAfterDaemonKilled(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	daemon := osexec.Command(os.Args[0], "-test.run=^$")
	daemon.Env = append(os.Environ(), daemonEnv+"="+dir)
	out, err := daemon.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var rec task.CommandRecord
	if err != nil || json.Unmarshal([]byte(line), &rec) != nil || rec.Pgid <= 0 {
		_ = daemon.Process.Kill()
		_ = daemon.Wait()
		t.Fatalf("daemon said %q (%v)", line, err)
	}
	t.Cleanup(func() { exec.KillGroup(rec.Pgid) })
	if err := daemon.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = daemon.Wait()
	if !exec.GroupAlive(rec.Pgid) {
		t.Fatal("the command died with the daemon; nothing to recover")
	}

	arts, err := tools.NewArtifactDir(filepath.Join(dir, "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := task.Recover(ctx, arts, rec, 4000, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != task.StatusInterrupted || !strings.Contains(got.OutputPreview, "before-crash") || got.FailureArtifact == nil || got.OutputArtifact == nil {
		t.Fatalf("recovered = %+v", got)
	}
	if err := exec.WaitGroupGone(ctx, rec.Pgid); err != nil {
		t.Fatalf("orphans left after Recover: %v", err)
	}
	b, err := os.ReadFile(got.Artifacts[*got.FailureArtifact].Path)
	if err != nil || !strings.Contains(string(b), `"orphans_killed": true`) {
		t.Fatalf("failure artifact = %s, %v", b, err)
	}
	res := tools.Build(tools.SuccessEnvelope(task.OutputName, "s", task.OutputResult{RetrievalStatus: task.RetrievalSuccess, Task: got}), task.OutputReceipt)
	if !strings.HasPrefix(res.Receipt, "Task "+rec.TaskID+" (command_task) interrupted") || !strings.Contains(res.Receipt, "[failure evidence: ") {
		t.Errorf("receipt = %s", res.Receipt)
	}
}
