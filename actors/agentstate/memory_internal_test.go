package agentstate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

// memoryState is a state with evidence of every kind working memory reads.
func memoryState() *State {
	st := &State{ID: "a1", Status: messages.StatusAwakeIdle}
	st.ActiveWorkspace = &messages.WorkspaceUsed{WorkspaceID: "shop-1a2b"}
	item := func(id, objective, blocked string, todos ...messages.TodoItem) *messages.WorkItemRecord {
		return &messages.WorkItemRecord{ID: id, AgentID: "a1", Objective: objective, State: messages.WorkItemStateOpen,
			PlanStatus: messages.PlanReady, BlockedBy: blocked, TodoList: todos}
	}
	st.WorkItems = map[string]*messages.WorkItemRecord{
		"wi_2": item("wi_2", "Refund   order\n#12345", "",
			messages.TodoItem{Text: "Check the order", State: messages.TodoCompleted},
			messages.TodoItem{Text: "Issue the refund", State: messages.TodoInProgress}),
		"wi_3": item("wi_3", "Rotate the API keys", "waiting for the vault"),
		"wi_1": item("wi_1", "Write the changelog", ""),
		"wi_0": {ID: "wi_0", Objective: "Old work", State: messages.WorkItemStateCompleted},
	}
	st.CurrentWorkItemID = "wi_2"
	st.LastResultBrief = "Checked order #12345: paid by card."
	st.Memory.LastTools = []string{"ExecCommand ok", "ApplyPatch ok"}
	st.LastClosure = &messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTaskResult}
	st.Tasks = map[string]*TaskRecord{
		"task_2": {TaskID: "task_2", Summary: "go test ./...", Status: "running"},
		"task_1": {TaskID: "task_1", Summary: "make build", Status: "completed"},
	}
	return st
}

// TestWorkingMemoryGolden pins the derivation of working memory and its
// delta from nothing (go test ./actors/agentstate -run
// WorkingMemoryGolden -update rewrites it): the same evidence always gives
// the same memory, whatever the map order.
func TestWorkingMemoryGolden(t *testing.T) {
	st := memoryState()
	m := DeriveWorkingMemory(st)
	got, err := json.MarshalIndent(map[string]any{"memory": m, "delta": WorkingMemoryDelta(messages.WorkingMemory{}, m)}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "working_memory.golden.json")
	if *updateFrames {
		if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./actors/agentstate -run WorkingMemoryGolden -update writes it)", err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("working memory =\n%s\nwant\n%s", got, want)
	}
	for range 20 {
		if again := DeriveWorkingMemory(memoryState()); !reflect.DeepEqual(again, m) {
			t.Fatalf("derivation differs between runs:\n%+v\n%+v", again, m)
		}
	}
}

func TestWorkingMemoryDelta(t *testing.T) {
	old := DeriveWorkingMemory(memoryState())
	st := memoryState()
	st.WorkItems["wi_2"].TodoList[1].State = messages.TodoCompleted
	st.LastClosure = &messages.Closure{Outcome: messages.OutcomeCompleted}
	got := WorkingMemoryDelta(old, DeriveWorkingMemory(st))
	want := []string{"todo + [completed] Issue the refund", "todo - [in_progress] Issue the refund", "waiting: (none)"}
	if !slices.Equal(got, want) {
		t.Errorf("delta = %q, want %q", got, want)
	}
	if d := WorkingMemoryDelta(old, old); d != nil {
		t.Errorf("delta of equal memories = %q, want none", d)
	}
}

// memoryRun drives an agent through whole turns as its shell does,
// keeping every event it journals.
type memoryRun struct {
	t      *testing.T
	st     *State
	env    Env
	events []messages.Event
	reqs   []llm.Request
	n      int
}

func newMemoryRun(t *testing.T) *memoryRun {
	env := testEnv()
	env.Tools = func() []llm.ToolSpec { return []llm.ToolSpec{{Name: "ExecCommand"}, {Name: "ApplyPatch"}} }
	return &memoryRun{t: t, st: &State{ID: "a1", Status: messages.StatusAwakeIdle}, env: env}
}

func (r *memoryRun) apply(ps ...messages.Payload) {
	r.t.Helper()
	for _, p := range ps {
		ev, err := messages.NewEvent(r.st.ID, testNow, p)
		if err != nil {
			r.t.Fatal(err)
		}
		ev.Seq = r.st.LastSeq + 1
		if err := r.st.Apply(ev); err != nil {
			r.t.Fatal(err)
		}
		r.events = append(r.events, ev)
	}
}

// settle records until the agent needs the world (a model call or a
// tool) or is idle.
func (r *memoryRun) settle() Step {
	r.t.Helper()
	for range 20 {
		s := Next(r.st, r.env)
		rec, ok := s.(Record)
		if !ok {
			return s
		}
		r.apply(rec.Batch...)
	}
	r.t.Fatal("Next never stopped recording")
	return nil
}

// turn runs one turn of a prompt: each round's tool calls (name,
// arguments, status) and then the final text.
func (r *memoryRun) turn(text string, calls ...[3]string) {
	r.t.Helper()
	r.n++
	m := messages.MessageEnvelope{ID: fmt.Sprintf("m%d", r.n), AgentID: "a1", Kind: messages.KindOperatorPrompt,
		Priority: messages.PriorityNormal, Origin: messages.OperatorOrigin("ops"), Body: messages.TextBody(text),
		DeliverySurface: messages.SurfaceHTTPControlPrompt, AdmissionContext: messages.AdmissionControlAuthenticated,
		AuthorityClass: messages.AuthorityOperatorInstruction, CreatedAt: testNow}
	m.Normalize()
	r.apply(messages.MessageAdmitted{Envelope: m})
	for i, c := range append(calls, [3]string{}) {
		m, ok := r.settle().(CallModel)
		if !ok {
			r.t.Fatalf("turn %d round %d: want a model call", r.n, i+1)
		}
		r.reqs = append(r.reqs, m.Request)
		round := uint32(i + 1)
		r.apply(messages.ProviderRoundCompleted{TurnID: r.st.Turn.ID, Round: round})
		if c[0] == "" {
			r.apply(messages.AssistantRoundRecorded{TurnID: r.st.Turn.ID, Round: round, Text: text})
			break
		}
		id := fmt.Sprintf("c%d-%d", r.n, i)
		r.apply(messages.AssistantRoundRecorded{TurnID: r.st.Turn.ID, Round: round,
			ToolCalls: []messages.ToolCall{{ID: id, Name: c[0], Arguments: json.RawMessage(c[1])}}})
		run, ok := r.settle().(RunTool)
		if !ok {
			r.t.Fatalf("turn %d: want %s to run", r.n, c[0])
		}
		r.apply(run.Started...)
		if r.st.Turn.Memory == nil || r.st.Memory.Episode != nil && r.st.Memory.Episode.LastTurn >= r.st.Turn.Index {
			r.t.Fatalf("turn %d: memory changed inside the tool loop", r.n)
		}
		r.apply(messages.ToolExecuted{TurnID: r.st.Turn.ID, CallID: id, ToolName: c[0],
			Status: messages.ToolStatus(c[2]), Receipt: c[0] + " " + c[2]})
	}
	if _, ok := r.settle().(Idle); !ok {
		r.t.Fatalf("turn %d: want the agent idle after it", r.n)
	}
}

func (r *memoryRun) episodes() []messages.Episode {
	var out []messages.Episode
	for _, ev := range r.events {
		if p, err := ev.Decode(); err == nil {
			if e, ok := p.(messages.EpisodeFinalized); ok {
				out = append(out, e.Episode)
			}
		}
	}
	return out
}

// TestMemoryTurns: every settled turn records the working memory's next
// revision, the next turn's prompt carries the delta since the revision
// the model last saw, the episode builder gathers the turns' evidence, and
// a replay of the journal rebuilds the memory exactly.
func TestMemoryTurns(t *testing.T) {
	r := newMemoryRun(t)
	r.turn("Patched the refund handler.",
		[3]string{"ApplyPatch", `{"patch":"--- a/api/refund.go\n+++ b/api/refund.go\n@@ -1 +1 @@\n-x\n+y\n"}`, "ok"},
		[3]string{"ExecCommand", `{"cmd":"go test ./api"}`, "ok"})
	if r.st.Memory.Revision != 1 || r.st.Memory.Current.LastResult != "Patched the refund handler." {
		t.Fatalf("memory after turn 1 = %+v, want revision 1 with the result", r.st.Memory)
	}
	if e := r.st.Memory.Episode; e == nil || !slices.Equal(e.Files, []string{"api/refund.go"}) ||
		!slices.Equal(e.Commands, []string{"go test ./api"}) || !slices.Equal(e.Verification, []string{"go test ./api: ok"}) {
		t.Fatalf("episode builder = %+v, want the patch's file, the command and its verification", e)
	}
	if ctx := r.reqs[0].Frame.ContextBlocks[0].Text; strings.Contains(ctx, "Working memory") {
		t.Errorf("first turn's prompt shows working memory before any revision:\n%s", ctx)
	}
	r.turn("Deployed.", [3]string{"ExecCommand", `{"cmd":"make deploy"}`, "error"})
	ctx := r.reqs[3].Frame.ContextBlocks[0].Text
	if !strings.Contains(ctx, "Working memory (revision 1). Changed since you last saw it:\n- last result: Patched the refund handler.") {
		t.Errorf("second turn's prompt = \n%s\nwant the delta of revision 1", ctx)
	}
	if r.st.Memory.LastPromptedRevision != 1 || r.st.Memory.Revision != 2 || len(r.st.Memory.PendingDelta) == 0 {
		t.Errorf("memory = %+v, want revision 2 pending, 1 prompted", r.st.Memory)
	}

	replayed := &State{ID: "a1"}
	for _, ev := range r.events {
		if err := replayed.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(replayed.Memory, r.st.Memory) {
		t.Errorf("replayed memory =\n%+v\nwant\n%+v", replayed.Memory, r.st.Memory)
	}
}

// TestEpisodeBoundaries: an episode is finalized when the current work
// switches, at a result checkpoint, when the agent waits or sleeps, and at
// the hard cap; never after a plain turn.
func TestEpisodeBoundaries(t *testing.T) {
	item := func(id string) messages.WorkItemRecord {
		return messages.WorkItemRecord{ID: id, AgentID: "a1", Objective: "do " + id, State: messages.WorkItemStateOpen,
			PlanStatus: messages.PlanReady, TodoList: []messages.TodoItem{{Text: "step", State: messages.TodoPending}},
			CreatedAt: testNow, UpdatedAt: testNow}
	}
	cases := []struct {
		name  string
		setup func(r *memoryRun) // runs after a first plain turn
		turns int                // plain turns run after setup
		want  string             // the boundary of the one episode, "" for none
	}{
		{"a plain turn goes on", func(*memoryRun) {}, 0, ""},
		{"work switch", func(r *memoryRun) {
			r.apply(messages.WorkItemCreated{Record: item("wi_1")}, messages.WorkItemPicked{WorkItemID: "wi_1"})
		}, 0, BoundaryWorkSwitch},
		{"result checkpoint", func(r *memoryRun) {
			r.apply(messages.WorkItemCreated{Record: item("wi_1")})
			done := item("wi_1")
			done.State, done.ResultSummary = messages.WorkItemStateCompleted, "done"
			r.apply(messages.WorkItemCompleted{Record: done})
		}, 0, BoundaryCheckpoint},
		{"waiting", func(r *memoryRun) {
			r.apply(messages.TimerScheduled{TimerID: "tmr_1", DueAt: testNow.Add(time.Hour), Reason: "sleep"},
				messages.AgentSlept{Reason: "nap", ExpectedWake: messages.TriggerTimerFire}, StatusChange(r.st, messages.StatusAsleep, "slept"))
		}, 0, BoundaryWaiting},
		{"hard cap", func(*memoryRun) {}, EpisodeMaxTurns - 1, BoundaryHardCap},
		{"one turn short of the cap", func(*memoryRun) {}, EpisodeMaxTurns - 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newMemoryRun(t)
			r.turn("The order was paid by card.", [3]string{"ExecCommand", `{"cmd":"cat orders/12345"}`, "ok"})
			c.setup(r)
			for range c.turns {
				r.turn("ok")
			}
			r.settle()
			eps := r.episodes()
			if c.want == "" {
				if len(eps) != 0 || r.st.Memory.ArchivedEpisodes != 0 {
					t.Fatalf("episodes = %+v, want none", eps)
				}
				return
			}
			if len(eps) != 1 || eps[0].Boundary != c.want || r.st.Memory.ArchivedEpisodes != 1 || r.st.Memory.Episode != nil {
				t.Fatalf("episodes = %+v (archived %d), want one at %s", eps, r.st.Memory.ArchivedEpisodes, c.want)
			}
			e := eps[0]
			if e.FirstTurn != 1 || e.LastTurn != uint64(1+c.turns) || e.FirstMessage != 0 || e.LastMessage < 3 ||
				!slices.Equal(e.Commands, []string{"cat orders/12345"}) || e.AgentID != "a1" ||
				!strings.Contains(e.Summary, "The order was paid by card.") || e.Summary == "" {
				t.Errorf("episode = %+v", e)
			}
		})
	}
}

// The working-memory block points at MemorySearch only for an agent with a
// memory index to search (Config.Memory: its runtime gives agents homes).
func TestWorkingMemoryBlockMentionsSearchOnlyWithMemory(t *testing.T) {
	for _, tc := range []struct {
		name   string
		memory bool
	}{{"without agent homes", false}, {"with agent homes", true}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newMemoryRun(t)
			r.env.Cfg.Memory = tc.memory
			r.turn("Patched the refund handler.")
			r.turn("Deployed.")
			ctx := r.reqs[len(r.reqs)-1].Frame.ContextBlocks[0].Text
			if !strings.Contains(ctx, "Working memory (revision 1).") {
				t.Fatalf("second turn's prompt =\n%s\nwant working memory revision 1", ctx)
			}
			if got := strings.Contains(ctx, "MemorySearch"); got != tc.memory {
				t.Errorf("prompt mentions MemorySearch = %v, want %v:\n%s", got, tc.memory, ctx)
			}
		})
	}
}
