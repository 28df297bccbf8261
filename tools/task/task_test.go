package task_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

var update = flag.Bool("update", false, "rewrite the golden receipts in testdata")

type fixture struct {
	host     *task.MemHost
	registry *tools.Registry
	arts     *tools.ArtifactDir
	mu       sync.Mutex
	ended    []task.Snapshot
}

// newFixture wires ExecCommand and the task tools to one MemHost with
// real processes; cleanup stops them all.
func newFixture(t *testing.T) *fixture { return newFixtureGrace(t, 20*time.Second) }

// newFixtureGrace is newFixture with the host's SIGTERM-to-SIGKILL grace.
func newFixtureGrace(t *testing.T, grace time.Duration) *fixture {
	t.Helper()
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := tools.NewExecRoot(filepath.Join(base, "root"))
	if err != nil {
		t.Fatal(err)
	}
	arts, err := tools.NewArtifactDir(filepath.Join(base, "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{arts: arts}
	f.host = task.NewMemHost(arts, grace, func(s task.Snapshot) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.ended = append(f.ended, s)
	})
	t.Cleanup(func() { _ = f.host.Close() })
	ts := append(task.Tools(f.host, tools.DefaultBudget()), exec.ExecCommand(exec.Config{Root: root, Artifacts: arts, Tasks: f.host}))
	if f.registry, err = tools.NewRegistry(ts...); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) call(t *testing.T, name string, args any) (tools.Result, tools.Envelope) {
	t.Helper()
	tool, ok := f.registry.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	raw, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := tool.Call(ctx, raw)
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	return res, env
}

func decode[T any](t *testing.T, env tools.Envelope) T {
	t.Helper()
	var v T
	if env.Status != tools.StatusSuccess {
		t.Fatalf("%s failed: %+v", env.ToolName, env.Error)
	}
	if err := json.Unmarshal(env.Result, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func (f *fixture) promote(t *testing.T, args exec.ExecArgs) string {
	t.Helper()
	args.YieldTimeMS = 1
	_, env := f.call(t, exec.ExecCommandName, args)
	r := decode[exec.ExecResult](t, env)
	if r.Disposition != exec.DispositionPromoted {
		t.Fatalf("not promoted: %s", env.Result)
	}
	return r.TaskHandle.TaskID
}

func TestPromotedTaskInputOutput(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(map[bool]string{false: "stdin", true: "tty"}[tty], func(t *testing.T) {
			f := newFixture(t)
			id := f.promote(t, exec.ExecArgs{Cmd: "echo ready; read line; echo got:$line", AcceptsInput: true, TTY: tty})

			_, env := f.call(t, task.StatusName, task.StatusArgs{TaskID: id})
			st := decode[struct{ Task task.Snapshot }](t, env).Task
			want := map[bool]string{false: task.InputStdin, true: task.InputTTY}[tty]
			if st.Status != task.StatusRunning || st.InputTarget != want || st.Command == nil || st.Command.CmdDigest == "" ||
				st.Command.OutputPath == "" || st.Command.TTY != tty || st.Command.Pgid <= 0 {
				t.Fatalf("status = %s", env.Result)
			}
			if strings.Contains(string(env.Result), "output_preview") {
				t.Error("TaskStatus carries output")
			}

			res, env := f.call(t, task.InputName, task.InputArgs{TaskID: id, Input: "hello\n"})
			in := decode[task.InputResult](t, env)
			if !in.AcceptedInput || in.BytesWritten != 6 || in.InputTarget != want || !strings.HasPrefix(res.Receipt, "Sent 6 bytes") {
				t.Fatalf("input = %s / %s", env.Result, res.Receipt)
			}

			res, env = f.call(t, task.OutputName, task.OutputArgs{TaskID: id, Block: true, TimeoutMS: 20000})
			out := decode[task.OutputResult](t, env)
			if out.RetrievalStatus != task.RetrievalSuccess || out.Task.Status != task.StatusCompleted || out.Task.ExitStatus == nil ||
				*out.Task.ExitStatus != 0 || !strings.Contains(out.Task.OutputPreview, "got:hello") || out.Task.OutputArtifact == nil {
				t.Fatalf("output = %s", env.Result)
			}
			if !strings.Contains(res.Receipt, "completed with exit code 0") || !strings.Contains(res.Receipt, "[full output: ") {
				t.Errorf("receipt = %s", res.Receipt)
			}
			res, env = f.call(t, task.InputName, task.InputArgs{TaskID: id, Input: "late\n"})
			if in := decode[task.InputResult](t, env); in.AcceptedInput || !strings.HasPrefix(res.Receipt, "Input not accepted") {
				t.Errorf("input after the end = %s", env.Result)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.ended) != 1 || f.ended[0].TaskID != id || f.ended[0].Status != task.StatusCompleted {
				t.Errorf("terminal notifications = %+v", f.ended)
			}
		})
	}
}

func TestTaskInputRefusedWithoutAcceptsInput(t *testing.T) {
	f := newFixture(t)
	id := f.promote(t, exec.ExecArgs{Cmd: "exec sleep 1000"})
	res, env := f.call(t, task.InputName, task.InputArgs{TaskID: id, Input: "x"})
	if in := decode[task.InputResult](t, env); res.Status != messages.ToolOK || in.AcceptedInput || !strings.Contains(in.SummaryText, "accepts_input") {
		t.Fatalf("input = %s", env.Result)
	}
}

func TestTaskStop(t *testing.T) {
	cases := []struct {
		name, cmd string
		forced    bool
		grace     time.Duration
	}{
		{"graceful", "exec sleep 1000", false, 20 * time.Second},
		{"forced", "trap '' TERM; echo armed; while :; do sleep 1; done", true, 50 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixtureGrace(t, c.grace)
			id := f.promote(t, exec.ExecArgs{Cmd: c.cmd})
			if c.forced { // the trap must be set before the stop, or TERM would work
				for {
					_, env := f.call(t, task.OutputName, task.OutputArgs{TaskID: id, Block: false})
					if strings.Contains(decode[task.OutputResult](t, env).Task.OutputPreview, "armed") {
						break
					}
					time.Sleep(5 * time.Millisecond) // polling a condition, not timing
				}
			}
			res, env := f.call(t, task.StopName, task.StopArgs{TaskID: id})
			r := decode[task.StopResult](t, env)
			if r.Task.Status != task.StatusCancelled || !r.StopRequested || r.ForceRequested != c.forced {
				t.Fatalf("stop = %s", env.Result)
			}
			if exec.GroupAlive(r.Task.Command.Pgid) {
				if err := exec.WaitGroupGone(context.Background(), r.Task.Command.Pgid); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.HasPrefix(res.Receipt, "Task "+id+": ") || !strings.HasSuffix(res.Receipt, "; status cancelled") {
				t.Errorf("receipt = %s", res.Receipt)
			}
		})
	}
}

func TestTaskOutputNotReadyAndTimeout(t *testing.T) {
	f := newFixture(t)
	id := f.promote(t, exec.ExecArgs{Cmd: "exec sleep 1000"})
	_, env := f.call(t, task.OutputName, task.OutputArgs{TaskID: id})
	if r := decode[task.OutputResult](t, env); r.RetrievalStatus != task.RetrievalNotReady || r.Task.ExitStatus != nil {
		t.Fatalf("output = %s", env.Result)
	}
	_, env = f.call(t, task.OutputName, task.OutputArgs{TaskID: id, Block: true, TimeoutMS: 1})
	if r := decode[task.OutputResult](t, env); r.RetrievalStatus != task.RetrievalTimeout {
		t.Fatalf("output = %s", env.Result)
	}
}

func TestUnknownTaskAndList(t *testing.T) {
	f := newFixture(t)
	for _, name := range []string{task.StatusName, task.OutputName, task.StopName} {
		res, env := f.call(t, name, map[string]string{"task_id": "task_404"})
		if res.Status != messages.ToolError || env.Error.Kind != task.KindUnknownTask || env.Error.RecoveryHint == "" {
			t.Errorf("%s: %s", name, res.Envelope)
		}
	}
	res, _ := f.call(t, task.ListName, task.ListArgs{})
	if res.Receipt != "No tasks." {
		t.Errorf("empty list = %q", res.Receipt)
	}
	a := f.promote(t, exec.ExecArgs{Cmd: "exec sleep 1000"})
	b := f.promote(t, exec.ExecArgs{Cmd: "exec sleep 999"})
	res, env := f.call(t, task.ListName, task.ListArgs{})
	if l := decode[task.ListResult](t, env); len(l.Tasks) != 2 || l.Tasks[0].TaskID != a || l.Tasks[1].TaskID != b {
		t.Fatalf("list = %s", env.Result)
	}
	if !strings.Contains(res.Receipt, a+"  running  command_task  exec sleep 1000") {
		t.Errorf("receipt = %s", res.Receipt)
	}
}

func TestGoldenTaskReceipts(t *testing.T) {
	snap := task.Snapshot{TaskID: "task_7", Kind: "command_task", Status: "running", Summary: "npm run dev", InputTarget: "stdin",
		Command: &task.CommandInfo{Cmd: "npm run dev", CmdDigest: "sha256:ab", Workdir: "/work/app", OutputPath: "/a/exec/cmd_1/stdout.log", AcceptsInput: true}}
	done := snap
	done.Status, done.InputTarget = "failed", ""
	cases := []struct {
		name   string
		tool   string
		result any
		r      tools.Renderer
	}{
		{"task_status", task.StatusName, map[string]task.Snapshot{"task": snap}, task.StatusReceipt},
		{"task_output_success", task.OutputName, task.OutputResult{RetrievalStatus: task.RetrievalSuccess, Task: task.OutputTask{
			TaskID: "task_7", Kind: "command_task", Status: "failed", OutputPreview: "Starting server on :3000\nError: port in use\n",
			Artifacts:      []tools.ArtifactRef{{Path: "/a/exec/cmd_1/stdout.log"}, {Path: "/a/tasks/task_7/failure.json"}},
			OutputArtifact: new(0), FailureArtifact: new(1), ExitStatus: new(1), ResultSummary: "command exited with code 1"}}, task.OutputReceipt},
		{"task_output_not_ready", task.OutputName, task.OutputResult{RetrievalStatus: task.RetrievalNotReady, Task: task.OutputTask{
			TaskID: "task_7", Kind: "command_task", Status: "running", OutputPreview: `{"level":"info","msg":"listening"}`,
			Artifacts: []tools.ArtifactRef{{Path: "/a/exec/cmd_1/stdout.log"}}, OutputArtifact: new(0)}}, task.OutputReceipt},
		{"task_input", task.InputName, task.InputResult{Task: snap, AcceptedInput: true, InputTarget: "stdin", BytesWritten: 6, SummaryText: "sent"}, task.InputReceipt},
		{"task_input_refused", task.InputName, task.InputResult{Task: done, SummaryText: "the task has already ended"}, task.InputReceipt},
		{"task_stop", task.StopName, task.StopResult{Task: done, StopRequested: true, ForceRequested: true}, task.StopReceipt},
		{"task_list", task.ListName, task.ListResult{Tasks: []task.Snapshot{snap, done}}, task.ListReceipt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := tools.Build(tools.SuccessEnvelope(c.tool, "summary", c.result), c.r)
			golden(t, c.name, res.Receipt)
		})
	}
}

// golden compares got with testdata/receipts/name.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	testkit.CheckFile(t, filepath.Join("testdata", "receipts", name+".txt"), []byte(got), *update)
}
