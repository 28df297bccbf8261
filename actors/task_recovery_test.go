package actors_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools/task"
)

// TestCrashWhileTaskRunsRecoversIt: the runtime dies (hard crash, as by
// SIGKILL) while a promoted command runs. After the restart the task is
// an open fact of its agent: what is left of its process group is
// killed, it is recorded interrupted with a failure artifact, and the
// agent gets its task_result.
func TestCrashWhileTaskRunsRecoversIt(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"sleep 30","yield_time_ms":20}`)),
		testkit.Reply("It runs."),
		testkit.Reply("It was interrupted; noted."),
	}})
	h.Prompt("main", "run it")
	rec := taskStarted(t, h, "main", 1)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if !testkit.GroupLive(rec.Pgid) {
		t.Fatalf("the task's group %d is not running", rec.Pgid)
	}

	active := h.Restart()
	if !slices.Contains(active, "main") {
		t.Fatalf("agents with open facts after the restart = %v, want main", active)
	}
	fin := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if fin.TaskID != rec.TaskID || fin.Status != task.StatusInterrupted {
		t.Fatalf("task_finished = %+v, want interrupted", fin)
	}
	if testkit.GroupLive(rec.Pgid) {
		t.Fatalf("orphan group %d survived the recovery", rec.Pgid)
	}
	var out task.OutputTask
	if err := json.Unmarshal(fin.Result, &out); err != nil || out.FailureArtifact == nil {
		t.Fatalf("interrupted result = %s (%v), want a failure artifact", fin.Result, err)
	}
	var f task.Failure
	if b, err := os.ReadFile(out.Artifacts[*out.FailureArtifact].Path); err != nil || json.Unmarshal(b, &f) != nil || !f.OrphansKilled {
		t.Fatalf("failure artifact = %+v (%v), want orphans_killed", f, err)
	}
	taskResult(t, h, "main", rec.TaskID)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))

	// TaskRecord is the authority from now on: the task is no open fact.
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil || st.Tasks[rec.TaskID] == nil || st.Tasks[rec.TaskID].Status != task.StatusInterrupted {
		t.Fatalf("state tasks = %+v, %v", st.Tasks, err)
	}
	if facts := actors.OpenFacts(&st); slices.Contains(facts, actors.FactActiveTask) {
		t.Fatalf("open facts = %v after the task was settled", facts)
	}
}

// TestAgentRestartKeepsItsCommands: an agent actor that panics and is
// restarted by its supervisor does not kill its running command: the
// command_task actor lives under the tasks supervisor, and the task's end
// still reaches the restarted agent.
func TestAgentRestartKeepsItsCommands(t *testing.T) {
	stepsDone := 0
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"cat","accepts_input":true,"yield_time_ms":20}`)),
	}})
	h.SetFault(func(agent, point string) {
		if point == "*actors.stepDone" {
			if stepsDone++; stepsDone == 2 { // the ExecCommand result: the task is promoted by now
				panic("injected fault")
			}
		}
	})
	h.Prompt("main", "run it")
	rec := taskStarted(t, h, "main", 1)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalInterrupted {
		t.Fatalf("turn = %+v, want interrupted by the panic", tt)
	}
	if !testkit.GroupLive(rec.Pgid) {
		t.Fatalf("the agent's restart killed its command (group %d)", rec.Pgid)
	}
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil || st.Tasks[rec.TaskID] == nil || st.Tasks[rec.TaskID].Status != task.StatusRunning {
		t.Fatalf("task after the agent's restart = %+v, %v", st.Tasks[rec.TaskID], err)
	}

	h.Provider.Script(
		testkit.Reply("Finishing it.", testkit.Call("c2", "TaskInput", fmt.Sprintf(`{"task_id":%q,"input":"bye\n","close_input":true}`, rec.TaskID))),
		testkit.Reply("Fed."),
		testkit.Reply("Done."),
	)
	h.Prompt("main", "end it")
	fin := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if fin.Status != task.StatusCompleted || fin.ExitStatus == nil || *fin.ExitStatus != 0 {
		t.Fatalf("task_finished = %+v, want completed with exit 0", fin)
	}
	env := taskResult(t, h, "main", rec.TaskID)
	if want := "bye"; !slices.Contains(strings.Split(env.Body.Text, "\n"), want) {
		t.Fatalf("task_result = %q, want the output %q", env.Body.Text, want)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))
}

// TestTaskEndWakesAPassivatedAgent: an agent passivated (its actor
// retired) while its command runs is activated again by the command's
// end, which it journals and takes as a task_result turn.
func TestTaskEndWakesAPassivatedAgent(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Waiting for the gate.", testkit.Call("c1", "ExecCommand", fmt.Sprintf(`{"cmd":"cat %s","yield_time_ms":20}`, fifo))),
		testkit.Reply("Started."),
		testkit.Reply("The gate opened."),
	}})
	h.Prompt("main", "wait for the gate")
	rec := taskStarted(t, h, "main", 1)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if err := h.Runtime.PassivateIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if active := h.Runtime.Active(); slices.Contains(active, "main") {
		t.Fatalf("active agents = %v after passivation", active)
	}

	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // the command is reading it: this does not block for long
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString("open\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	fin := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if fin.TaskID != rec.TaskID || fin.Status != task.StatusCompleted {
		t.Fatalf("task_finished = %+v", fin)
	}
	env := taskResult(t, h, "main", rec.TaskID)
	if !strings.Contains(env.Body.Text, "open") {
		t.Fatalf("task_result = %q, want the command's output", env.Body.Text)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
}

// TestGracefulShutdownStopsTasks: a clean shutdown stops running
// commands (nothing is left running), and the next boot reports them
// interrupted to their agent.
func TestGracefulShutdownStopsTasks(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"sleep 30","yield_time_ms":20}`)),
		testkit.Reply("It runs."),
		testkit.Reply("Interrupted by the shutdown; noted."),
	}})
	h.Prompt("main", "run it")
	rec := taskStarted(t, h, "main", 1)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	active := h.GracefulRestart()
	if !slices.Contains(active, "main") {
		t.Fatalf("agents with open facts after the restart = %v, want main", active)
	}
	fin := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if fin.Status != task.StatusInterrupted || testkit.GroupLive(rec.Pgid) {
		t.Fatalf("task_finished = %+v, group alive %v; want interrupted and gone", fin, testkit.GroupLive(rec.Pgid))
	}
	taskResult(t, h, "main", rec.TaskID)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
}

// TestTaskOutputBlocksUntilTheEnd: TaskOutput with block=true returns the
// terminal snapshot once the task's end is durable; once terminal, the
// journaled record answers even when the output file is gone.
func TestTaskOutputBlocksUntilTheEnd(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"cat","accepts_input":true,"yield_time_ms":20}`)),
		testkit.Reply("It runs."),
	}})
	h.Prompt("main", "run it")
	rec := taskStarted(t, h, "main", 1)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))

	h.Provider.Script(
		testkit.Reply("Feeding.",
			testkit.Call("c2", "TaskInput", fmt.Sprintf(`{"task_id":%q,"input":"last line\n","close_input":true}`, rec.TaskID)),
			testkit.Call("c3", "TaskOutput", fmt.Sprintf(`{"task_id":%q,"block":true,"timeout_ms":20000}`, rec.TaskID))),
		testkit.Reply("Done."),
		testkit.Reply("Result noted."),
	)
	h.Prompt("main", "finish it")
	out := envelopeResult[task.OutputResult](t, toolResult(t, h, "main", "c3"))
	if out.RetrievalStatus != task.RetrievalSuccess || out.Task.Status != task.StatusCompleted ||
		out.Task.ExitStatus == nil || *out.Task.ExitStatus != 0 || out.Task.OutputPreview != "last line\n" {
		t.Fatalf("TaskOutput block = %+v", out)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))

	home, _ := persistence.AgentHome(h.Home, "main")
	if err := os.RemoveAll(persistence.ArtifactsDir(home)); err != nil {
		t.Fatal(err)
	}
	h.Provider.Script(
		testkit.Reply("Again.", testkit.Call("c4", "TaskOutput", fmt.Sprintf(`{"task_id":%q}`, rec.TaskID))),
		testkit.Reply("Same."),
	)
	h.Prompt("main", "read it again")
	again := envelopeResult[task.OutputResult](t, toolResult(t, h, "main", "c4"))
	if again.RetrievalStatus != task.RetrievalSuccess || again.Task.Status != task.StatusCompleted ||
		!strings.Contains(again.Task.OutputPreview, "last line") {
		t.Fatalf("TaskOutput without the output file = %+v", again)
	}
}

// TestCrashRightAfterTaskStarted: the runtime dies just after the
// task_started record is durable, before the tool's result is: after the
// restart the task is recovered (interrupted, nothing left running), the
// call that promoted it is recorded interrupted and never re-run, and
// the agent gets the task_result.
func TestCrashRightAfterTaskStarted(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withTools(t), RequestTimeout: 2 * time.Second, Steps: []testkit.Step{
		testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"sleep 30","yield_time_ms":20}`)),
		testkit.Reply("The call was interrupted."),
		testkit.Reply("The task was interrupted too."),
	}})
	h.Store().CrashAfter(testkit.OfType(messages.EventTaskStarted))
	h.Prompt("main", "run it")
	<-h.Store().Died()
	rec := taskStarted(t, h, "main", 1)

	h.Restart()
	fin := decode[messages.TaskFinished](t, h.WaitEvent("main", testkit.OfType(messages.EventTaskFinished)))
	if fin.TaskID != rec.TaskID || fin.Status != task.StatusInterrupted {
		t.Fatalf("task_finished = %+v, want interrupted", fin)
	}
	if r := toolResult(t, h, "main", "c1"); r.Status != messages.ToolInterrupted {
		t.Fatalf("the promoting call = %s, want interrupted (never re-run)", r.Status)
	}
	taskResult(t, h, "main", rec.TaskID)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if testkit.GroupLive(rec.Pgid) {
		t.Fatalf("group %d left running", rec.Pgid)
	}
	if n := len(slices.DeleteFunc(h.Events("main"), func(ev messages.Event) bool { return ev.Type != messages.EventTaskStarted })); n != 1 {
		t.Fatalf("%d task_started events, want 1: the command ran once", n)
	}
}
