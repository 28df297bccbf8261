package actors_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
	toolagent "github.com/holon-actors/holon-actors/tools/agent"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// withTools gives a harness's agents the built-in tools, bound under its
// home.
func withTools(t *testing.T) func(home string, d *actors.AgentDeps) {
	return func(home string, d *actors.AgentDeps) {
		reg, err := actors.BuiltinTools(tools.DefaultBudget())
		if err != nil {
			t.Fatal(err)
		}
		d.Tools = reg
		d.ToolEnv = actors.ToolEnv{Home: home, StopGrace: 5 * time.Second}
	}
}

// toolResult waits for the tool_executed of call id.
func toolResult(t *testing.T, h *testkit.Harness, agent, id string) messages.ToolExecuted {
	t.Helper()
	return decode[messages.ToolExecuted](t, h.WaitEvent(agent, func(ev messages.Event) bool {
		return ev.Type == messages.EventToolExecuted && strings.Contains(string(ev.Payload), `"call_id":"`+id+`"`)
	}))
}

// envelopeResult decodes a tool envelope's result into T.
func envelopeResult[T any](t *testing.T, te messages.ToolExecuted) T {
	t.Helper()
	var env tools.Envelope
	var v T
	if err := json.Unmarshal(te.Envelope, &env); err != nil {
		t.Fatalf("%s envelope: %v", te.ToolName, err)
	}
	if err := json.Unmarshal(env.Result, &v); err != nil {
		t.Fatalf("%s result: %v\n%s", te.ToolName, err, te.Envelope)
	}
	return v
}

// taskStarted waits for the n-th task_started and returns its record.
func taskStarted(t *testing.T, h *testkit.Harness, agent string, n int) task.CommandRecord {
	t.Helper()
	ts := decode[messages.TaskStarted](t, h.WaitEvent(agent, testkit.NthOfType(messages.EventTaskStarted, n)))
	var rec task.CommandRecord
	if err := json.Unmarshal(ts.Record, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.TaskID != ts.TaskID || rec.Pgid <= 0 || rec.Token == "" || ts.Kind != exec.TaskKindCommand {
		t.Fatalf("task_started = %+v, record %+v", ts, rec)
	}
	t.Cleanup(func() { exec.KillGroup(rec.Pgid) }) // no process outlives the test
	return rec
}

// taskResult waits for the task_result admitted for taskID.
func taskResult(t *testing.T, h *testkit.Harness, agent, taskID string) messages.MessageEnvelope {
	t.Helper()
	env := decode[messages.MessageAdmitted](t, h.WaitEvent(agent, func(ev messages.Event) bool {
		if ev.Type != messages.EventMessageAdmitted {
			return false
		}
		p, _ := ev.Decode()
		return p.(messages.MessageAdmitted).Envelope.Kind == messages.KindTaskResult
	})).Envelope
	if env.TaskID != taskID || env.Origin != messages.TaskOrigin(taskID) || env.DeliverySurface != messages.SurfaceTaskRejoin ||
		env.AdmissionContext != messages.AdmissionRuntimeOwned || env.Trust != messages.TrustedSystem ||
		env.AuthorityClass != messages.AuthorityRuntimeInstruction {
		t.Fatalf("task_result envelope = %+v", env)
	}
	return env
}

// TestAgentWorksWithCommandsPatchesAndTasks drives an agent with the
// scripted provider through the built-in tools on real processes: a
// command inline, a patch (freeform), a long command promoted to a
// command task, read with TaskOutput, fed with TaskInput and stopped with
// TaskStop; its end comes back as a task_result message.
func TestAgentWorksWithCommandsPatchesAndTasks(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t)})
	patch := "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-hi\n+hello\n"
	h.Provider.Script(
		testkit.Reply("Working.",
			testkit.Call("c1", "ExecCommand", `{"cmd":"echo hi | tee notes.txt"}`),
			testkit.Call("c2", "ApplyPatch", patch), // freeform: the raw diff
			testkit.Call("c3", "ExecCommand", `{"cmd":"cat","accepts_input":true,"yield_time_ms":20}`)),
		testkit.Reply("Started."),
	)
	goPrompt := h.Prompt("main", "go")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if ts := decode[messages.TaskStarted](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskStarted))); ts.ParentMessageID != goPrompt.ID {
		t.Fatalf("task_started parent = %q, want the prompt %s", ts.ParentMessageID, goPrompt.ID)
	}

	if r := toolResult(t, h, "main", "c1"); r.Status != messages.ToolOK || !strings.Contains(r.Receipt, "hi") {
		t.Fatalf("ExecCommand echo = %s: %s", r.Status, r.Receipt)
	}
	if r := toolResult(t, h, "main", "c2"); r.Status != messages.ToolOK || !strings.Contains(r.Receipt, "notes.txt") {
		t.Fatalf("ApplyPatch = %s: %s", r.Status, r.Receipt)
	}
	home, _ := persistence.AgentHome(h.Home, "main")
	if b, err := os.ReadFile(filepath.Join(home, "notes.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("notes.txt = %q, %v", b, err)
	}
	promoted := envelopeResult[exec.ExecResult](t, toolResult(t, h, "main", "c3"))
	rec := taskStarted(t, h, "main", 1)
	if promoted.Disposition != "promoted_to_task" || promoted.TaskHandle == nil || promoted.TaskHandle.TaskID != rec.TaskID {
		t.Fatalf("ExecCommand cat = %+v, task %s", promoted, rec.TaskID)
	}
	if fi, err := os.Stat(home); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("agent home %v, %v: want a 0700 directory", fi, err)
	}

	id := rec.TaskID
	h.Provider.Script(
		testkit.Reply("Checking.",
			testkit.Call("c4", "TaskOutput", fmt.Sprintf(`{"task_id":%q}`, id)),
			testkit.Call("c4b", "ExecCommand", `{"cmd":"cat","accepts_input":true,"yield_time_ms":20}`),
			testkit.Call("c4c", "AgentGet", `{}`),
			testkit.Call("c5", "TaskInput", fmt.Sprintf(`{"task_id":%q,"input":"ping\n"}`, id)),
			testkit.Call("c6", "TaskStop", fmt.Sprintf(`{"task_id":%q}`, id)),
			testkit.Call("c7", "TaskOutput", fmt.Sprintf(`{"task_id":%q}`, id)),
			testkit.Call("c8", "TaskList", `{"include_terminal":true}`),
			testkit.Call("c9", "AgentGet", `{"agent_id":"nobody"}`),
			testkit.Call("c10", "AgentGet", `{"agent_id":"secret"}`),
			testkit.Call("c11", "AgentGet", `{"agent_id":"helper"}`)),
		testkit.Reply("Stopped."),
		testkit.Reply("Noted the result."),
	)
	// Another agent's private child, and a public agent.
	ctx := context.Background()
	var evs []messages.Event
	for _, p := range []messages.Payload{
		messages.AgentCreated{AgentID: "secret", Kind: messages.AgentChild, Visibility: messages.VisibilityPrivate,
			Ownership: messages.OwnershipParentSupervised, ProfilePreset: "private_child", ParentAgentID: "helper"},
		messages.AgentStateChanged{To: messages.StatusAwakeIdle, Reason: "created"},
	} {
		ev, err := messages.NewEvent("secret", h.Clock.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if _, err := h.Store().Append(ctx, "secret", evs); err != nil {
		t.Fatal(err)
	}
	if err := h.Runtime.Activate(ctx, "helper"); err != nil {
		t.Fatal(err)
	}
	h.Prompt("main", "check the task")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))

	if out := envelopeResult[task.OutputResult](t, toolResult(t, h, "main", "c4")); out.RetrievalStatus != task.RetrievalNotReady || out.Task.Status != task.StatusRunning {
		t.Fatalf("TaskOutput while running = %+v", out)
	}
	dup := envelopeResult[exec.ExecResult](t, toolResult(t, h, "main", "c4b"))
	if dup.Disposition != exec.DispositionAlreadyRunning || dup.TaskHandle == nil || dup.TaskHandle.TaskID != id {
		t.Fatalf("ExecCommand of the same command = %+v, want already_running %s", dup, id)
	}
	self := envelopeResult[toolagent.GetResult](t, toolResult(t, h, "main", "c4c")).Agent
	if self.Identity.AgentID != "main" || self.Identity.Kind != messages.AgentDefault || !self.TurnInFlight ||
		len(self.ActiveTasks) != 1 || self.ActiveTasks[0].TaskID != id || self.Workspace == nil || self.Workspace.ExecutionRoot != realPath(t, home) {
		t.Fatalf("AgentGet self = %+v", self)
	}
	if in := envelopeResult[task.InputResult](t, toolResult(t, h, "main", "c5")); !in.AcceptedInput || in.BytesWritten != 5 || in.InputTarget != task.InputStdin {
		t.Fatalf("TaskInput = %+v", in)
	}
	if st := envelopeResult[task.StopResult](t, toolResult(t, h, "main", "c6")); st.Task.Status != task.StatusCancelled || !st.StopRequested {
		t.Fatalf("TaskStop = %+v", st)
	}
	out := envelopeResult[task.OutputResult](t, toolResult(t, h, "main", "c7"))
	if out.RetrievalStatus != task.RetrievalSuccess || out.Task.Status != task.StatusCancelled || out.Task.FailureArtifact == nil {
		t.Fatalf("TaskOutput after stop = %+v", out)
	}
	if l := envelopeResult[task.ListResult](t, toolResult(t, h, "main", "c8")); len(l.Tasks) != 1 || l.Tasks[0].TaskID != id {
		t.Fatalf("TaskList = %+v", l)
	}
	for _, call := range []string{"c9", "c10"} {
		if r := toolResult(t, h, "main", call); r.Status != messages.ToolError || !strings.Contains(string(r.Envelope), toolagent.KindUnknownAgent) {
			t.Fatalf("AgentGet (%s) = %s %s, want unknown_agent", call, r.Status, r.Envelope)
		}
	}
	helper := envelopeResult[toolagent.GetResult](t, toolResult(t, h, "main", "c11")).Agent
	if id := helper.Identity; id.AgentID != "helper" || id.Visibility != messages.VisibilityPublic || id.ProfilePreset != "public_named" ||
		id.Ownership != messages.OwnershipSelfOwned || len(helper.ActiveTasks) != 0 {
		t.Fatalf("AgentGet helper = %+v", helper)
	}
	fin := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if fin.TaskID != id || fin.Status != task.StatusCancelled {
		t.Fatalf("task_finished = %+v", fin)
	}
	env := taskResult(t, h, "main", id)
	if !strings.Contains(env.Body.Text, "cancelled") {
		t.Fatalf("task_result text = %q", env.Body.Text)
	}
	// The task_result is a turn of its own: the model reads it.
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))
	last := h.Provider.Requests()
	if conv := last[len(last)-1].Conversation; !slices.ContainsFunc(conv, func(it providers.Item) bool { return it.MessageID == env.ID }) {
		t.Fatalf("the model never saw the task_result %s", env.ID)
	}
	if testkit.GroupLive(rec.Pgid) {
		t.Fatalf("the stopped task's group %d is alive", rec.Pgid)
	}
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// TestOnlyFreeformToolsTakeRawText: ApplyPatch takes its raw diff text;
// any other tool given arguments that are not a JSON object gets
// invalid_tool_input and does not run.
func TestOnlyFreeformToolsTakeRawText(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Trying.",
			testkit.Call("c1", "ExecCommand", "touch should-not-exist"),
			testkit.Call("c2", "ApplyPatch", "--- /dev/null\n+++ b/made.txt\n@@ -0,0 +1 @@\n+made\n")),
		testkit.Reply("Done."),
	}})
	h.Prompt("main", "go")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if r := toolResult(t, h, "main", "c1"); r.Status != messages.ToolError || !strings.Contains(string(r.Envelope), tools.KindInvalidToolInput) {
		t.Fatalf("ExecCommand with raw text = %s %s, want invalid_tool_input", r.Status, r.Envelope)
	}
	if r := toolResult(t, h, "main", "c2"); r.Status != messages.ToolOK {
		t.Fatalf("ApplyPatch freeform = %s %s", r.Status, r.Receipt)
	}
	home, _ := persistence.AgentHome(h.Home, "main")
	if _, err := os.Stat(filepath.Join(home, "should-not-exist")); !os.IsNotExist(err) {
		t.Fatalf("the refused command ran: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(home, "made.txt")); err != nil || string(b) != "made\n" {
		t.Fatalf("made.txt = %q, %v", b, err)
	}
}

// TestTasksBelongToTheirAgent: an agent sees and controls only its own
// tasks; another agent's task id is unknown to it.
func TestTasksBelongToTheirAgent(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"cat","accepts_input":true,"yield_time_ms":20}`)),
		testkit.Reply("Started."),
	}})
	h.Prompt("a", "start")
	recA := taskStarted(t, h, "a", 1)
	h.WaitEvent("a", testkit.OfType(messages.EventTurnTerminal))
	h.Prompt("b", "start")
	recB := taskStarted(t, h, "b", 1)
	h.WaitEvent("b", testkit.OfType(messages.EventTurnTerminal))

	h.Provider.Script(
		testkit.Reply("Looking.",
			testkit.Call("c2", "TaskStatus", fmt.Sprintf(`{"task_id":%q}`, recA.TaskID)),
			testkit.Call("c3", "TaskStop", fmt.Sprintf(`{"task_id":%q}`, recA.TaskID)),
			testkit.Call("c4", "TaskList", `{}`)),
		testkit.Reply("Done."),
	)
	h.Prompt("b", "look")
	h.WaitEvent("b", testkit.NthOfType(messages.EventTurnTerminal, 2))
	for _, call := range []string{"c2", "c3"} {
		if r := toolResult(t, h, "b", call); r.Status != messages.ToolError || !strings.Contains(string(r.Envelope), "unknown_task") {
			t.Fatalf("%s on another agent's task = %s %s, want unknown_task", r.ToolName, r.Status, r.Envelope)
		}
	}
	if l := envelopeResult[task.ListResult](t, toolResult(t, h, "b", "c4")); len(l.Tasks) != 1 || l.Tasks[0].TaskID != recB.TaskID {
		t.Fatalf("b's TaskList = %+v, want only %s", l.Tasks, recB.TaskID)
	}
	if !testkit.GroupLive(recA.Pgid) {
		t.Fatal("a's task was stopped through b")
	}
}

// TestCommandsDoNotInheritRuntimeSecrets: the control token and the model
// providers' keys of the runtime's environment are not in the environment
// of the commands agents run; everything else is.
func TestCommandsDoNotInheritRuntimeSecrets(t *testing.T) {
	const canary = "canary-4f1d9a77c0de"
	t.Setenv("HOLON_CONTROL_TOKEN", canary+"-token")
	t.Setenv("ANTHROPIC_API_KEY", canary+"-anthropic")
	t.Setenv("HOLON_OLLAMA_API_KEY", canary+"-ollama")
	t.Setenv("HOLON_TEST_VISIBLE", "visible-value")
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd": "env"}`)),
		testkit.Reply("Done."),
	}})
	h.Prompt("main", "show the environment")
	r := toolResult(t, h, "main", "c1")
	if r.Status != messages.ToolOK || !strings.Contains(r.Receipt, "visible-value") {
		t.Fatalf("env = %s %s", r.Status, r.Receipt)
	}
	if strings.Contains(r.Receipt, canary) || strings.Contains(string(r.Envelope), canary) {
		t.Fatalf("a runtime secret reached the command:\n%s", r.Receipt)
	}
}

// TestTurnLeavingTasksRunningAcknowledges: a turn that ends with a task it
// started still running closes as waiting for the task's result, and its
// brief is an acknowledgement naming the task, not a result.
func TestTurnLeavingTasksRunningAcknowledges(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd": "sleep 30", "yield_time_ms": 50}`)),
		testkit.Reply("The long job runs in the background."),
	}})
	h.Prompt("main", "start the long job")
	rec := taskStarted(t, h, "main", 1)
	brief := decode[messages.BriefRecorded](t, h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))).Brief
	if brief.Kind != messages.BriefAck || !strings.Contains(brief.Text, rec.TaskID) ||
		!strings.HasPrefix(brief.Text, "The long job runs in the background.") {
		t.Fatalf("brief = %+v, want an ack naming %s", brief, rec.TaskID)
	}
	term := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if term.Closure.Outcome != messages.OutcomeWaiting || term.Closure.WaitingReason != messages.AwaitingTaskResult {
		t.Fatalf("closure = %+v, want waiting for the task result", term.Closure)
	}
}

// TestOperatorStopEndsCommandTasks: an agent the operator stops keeps no
// command running: its task ends cancelled and its process group is gone;
// the end waits in its queue for a resume.
func TestOperatorStopEndsCommandTasks(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t)})
	h.Provider.Script(
		testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"sleep 300","yield_time_ms":50}`)),
		testkit.Reply("It runs."),
	)
	h.Prompt("main", "Start the long job.")
	rec := taskStarted(t, h, "main", 1)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if !testkit.GroupLive(rec.Pgid) {
		t.Fatalf("the command's group %d is not running", rec.Pgid)
	}
	if st, err := h.Runtime.Control(context.Background(), "main", actors.OpStop, "enough"); err != nil || st != messages.StatusStopped {
		t.Fatalf("stop = %s, %v", st, err)
	}
	ended := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if ended.TaskID != rec.TaskID || ended.Status != task.StatusCancelled {
		t.Fatalf("task_finished = %+v, want %s cancelled", ended, rec.TaskID)
	}
	if testkit.GroupLive(rec.Pgid) {
		t.Fatalf("the command's group %d outlived the stop", rec.Pgid)
	}
	if st, err := h.Runtime.State(context.Background(), "main"); err != nil || st.Status != messages.StatusStopped {
		t.Fatalf("after the task's end the agent is %s (%v), want still stopped", st.Status, err)
	}
}
