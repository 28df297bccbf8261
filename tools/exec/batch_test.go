package exec_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

func batchResult(t *testing.T, env tools.Envelope) exec.BatchResult {
	t.Helper()
	if env.Status != tools.StatusSuccess {
		t.Fatalf("status %s: %+v", env.Status, env.Error)
	}
	var r exec.BatchResult
	if err := json.Unmarshal(env.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBatchRunsItemsInOrderWithItemFailures(t *testing.T) {
	e := newEnv(t)
	args := exec.BatchArgs{Items: []exec.BatchItemArgs{
		{Cmd: "echo one > order"},
		{Cmd: "cat order; echo two >> order; exit 4"},
		{Cmd: "true", Workdir: "../outside"},
		{Cmd: "true", Shell: "no-such-shell"},
		{Cmd: "exec sleep 1000", YieldTimeMS: 1},
		{Cmd: "cat order", Workdir: "."},
	}}
	res, env := call(t, exec.ExecCommandBatch(e.cfg), args)
	r := batchResult(t, env)
	if r.Completed != 3 || r.Failed != 3 || len(r.Items) != 6 || r.Metrics != (exec.BatchMetrics{ToolCalls: 1, CommandItems: 6}) {
		t.Fatalf("result = %s", env.Result)
	}
	want := []struct {
		status, kind, stdout string
		code                 int
	}{
		{exec.ItemCompleted, "", "", 0},
		{exec.ItemCompleted, "", "one\n", 4},
		{exec.ItemFailed, tools.KindExecutionRootViolation, "", 0},
		{exec.ItemFailed, exec.KindSpawnFailed, "", 0},
		{exec.ItemFailed, exec.KindCommandTimeout, "", 0},
		{exec.ItemCompleted, "", "one\ntwo\n", 0},
	}
	for i, w := range want {
		it := r.Items[i]
		if it.Index != i || it.Status != w.status || deref(it.StdoutPreview) != w.stdout {
			t.Errorf("item %d = %+v", i, it)
		}
		if w.kind != "" && (it.Error == nil || it.Error.Kind != w.kind) {
			t.Errorf("item %d error = %+v, want %s", i, it.Error, w.kind)
		}
		if w.status == exec.ItemCompleted && (it.ExitStatus == nil || *it.ExitStatus != w.code) {
			t.Errorf("item %d exit = %v, want %d", i, it.ExitStatus, w.code)
		}
	}
	for i := range args.Items {
		if !strings.Contains(res.Receipt, "["+string(rune('1'+i))+"/6] $ "+args.Items[i].Cmd) {
			t.Errorf("receipt lost the boundary of item %d:\n%s", i+1, res.Receipt)
		}
	}
}

func TestBatchRefusesInteractiveItems(t *testing.T) {
	e := newEnv(t)
	tool := exec.ExecCommandBatch(e.cfg)
	for args, field := range map[string]string{
		`{"items":[{"cmd":"true"},{"cmd":"vim","tty":true}]}`: "items[1].tty",
		`{"items":[{"cmd":"cat","accepts_input":true}]}`:      "items[0].accepts_input",
		`{"items":[]}`:            "items",
		`{"items":[{"cmd":" "}]}`: "items[0].cmd",
		`{"items":[{"cmd":"true","duplicate_policy":"x"}]}`: "items[].duplicate_policy",
	} {
		res := tool.Call(context.Background(), json.RawMessage(args))
		var env tools.Envelope
		_ = json.Unmarshal(res.Envelope, &env)
		var d map[string]string
		_ = json.Unmarshal(env.Error.Details, &d)
		if res.Status != messages.ToolError || env.Error.Kind != tools.KindInvalidToolInput || d["field"] != field {
			t.Errorf("%s: %s", args, res.Envelope)
		}
	}
}

func TestGoldenBatchReceipt(t *testing.T) {
	r := exec.BatchResult{Completed: 2, Failed: 1, Metrics: exec.BatchMetrics{ToolCalls: 1, CommandItems: 3}, Items: []exec.BatchItemResult{
		{Index: 0, Cmd: "git status --short", Status: exec.ItemCompleted, ExitStatus: new(0), StdoutPreview: new(" M tools/tool.go\n")},
		{Index: 1, Cmd: "go vet ./...", Status: exec.ItemCompleted, ExitStatus: new(1), StderrPreview: new("tools/x.go:3: unreachable code\n")},
		{Index: 2, Cmd: "go test ./...", Status: exec.ItemFailed, StdoutPreview: new("=== RUN TestSlow\n"),
			Error: &tools.ToolError{Kind: exec.KindCommandTimeout, Message: "did not finish within 10s and was stopped",
				RecoveryHint: "run it with ExecCommand, which can continue it as a background task"}},
	}}
	res := tools.Build(tools.SuccessEnvelope(exec.ExecCommandBatchName, "batch of 3 commands: 2 completed, 1 failed", r), exec.BatchReceipt)
	golden(t, "exec_batch", res.Receipt)
}

func TestBatchWorkdirTraversalCorpus(t *testing.T) {
	e := newEnv(t)
	var items []exec.BatchItemArgs
	corpus := []string{"..", "../outside", "/", "/etc", "sub/../..", "escape", e.base + "/outside", "./../x", "escape/"}
	for _, wd := range corpus {
		items = append(items, exec.BatchItemArgs{Cmd: "touch pwned", Workdir: wd})
	}
	_, env := call(t, exec.ExecCommandBatch(e.cfg), exec.BatchArgs{Items: items})
	r := batchResult(t, env)
	for i, it := range r.Items {
		if it.Status != exec.ItemFailed || it.Error == nil || it.Error.Kind != tools.KindExecutionRootViolation {
			t.Errorf("workdir %q: %+v", corpus[i], it)
		}
	}
	if _, err := os.Stat(e.base + "/outside/pwned"); err == nil {
		t.Fatal("a batch item ran outside the execution root")
	}
}
