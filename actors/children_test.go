package actors_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
	toolagent "github.com/holon-actors/holon-actors/tools/agent"
	"github.com/holon-actors/holon-actors/tools/task"
)

// family is a harness whose agent "main" plays parent and every other
// agent (a child) plays child, each by its own rounds; a child whose
// delegation starts with "<role>:" plays roles[role] instead.
type family struct {
	*testkit.Harness
	parent, child *testkit.Provider
	roles         map[string]*testkit.Provider
}

func newFamily(t *testing.T, parent, child []testkit.Step, adjust ...func(home string, d *actors.AgentDeps)) *family {
	f := &family{parent: testkit.NewProvider(parent...), child: testkit.NewProvider(child...), roles: map[string]*testkit.Provider{}}
	router := &testkit.Router{Pick: func(req providers.Request) *testkit.Provider {
		if req.AgentID == "main" {
			return f.parent
		}
		if len(req.Conversation) > 0 {
			role, _, ok := strings.Cut(req.Conversation[0].Text, ":")
			if p := f.roles[role]; ok && p != nil {
				return p
			}
		}
		return f.child
	}}
	f.Harness = testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		d.Provider = router
		for _, a := range adjust {
			a(home, d)
		}
	}})
	return f
}

func spawnCall(id, msg string) messages.ToolCall {
	return testkit.Call(id, actors.SpawnAgentToolName, `{"initial_message":`+quote(msg)+`}`)
}

// spawned waits for the n-th SpawnAgent result of agent.
func spawned(t *testing.T, h *testkit.Harness, agent, callID string) actors.SpawnResult {
	t.Helper()
	te := toolResult(t, h, agent, callID)
	if te.Status != messages.ToolOK {
		t.Fatalf("SpawnAgent failed: %s", te.Receipt)
	}
	return envelopeResult[actors.SpawnResult](t, te)
}

// taskEnded waits for the task_finished of task id in agent's journal.
func taskEnded(t *testing.T, h *testkit.Harness, agent, id string) messages.TaskFinished {
	t.Helper()
	return decode[messages.TaskFinished](t, h.WaitEvent(agent, func(ev messages.Event) bool {
		return ev.Type == messages.EventTaskFinished && strings.Contains(string(ev.Payload), `"task_id":"`+id+`"`)
	}))
}

func statusIs(s messages.AgentStatus) func(messages.Event) bool {
	return func(ev messages.Event) bool {
		if ev.Type != messages.EventAgentStateChanged {
			return false
		}
		p, _ := ev.Decode()
		return p.(messages.AgentStateChanged).To == s
	}
}

// lastBrief waits for a brief of kind in agent's journal whose text
// contains want.
func briefWith(t *testing.T, h *testkit.Harness, agent string, kind messages.BriefKind, want string) messages.Brief {
	t.Helper()
	return decode[messages.BriefRecorded](t, h.WaitEvent(agent, func(ev messages.Event) bool {
		if ev.Type != messages.EventBriefRecorded {
			return false
		}
		p, _ := ev.Decode()
		b := p.(messages.BriefRecorded).Brief
		return b.Kind == kind && strings.Contains(b.Text, want)
	})).Brief
}

// TestSpawnChildRejoins: a private child is spawned as a child actor with
// its supervision handle; it works its delegation, settles at terminal
// closure (archived), and its result rejoins the parent as a task_result
// that starts the parent's next turn. The child is not listed publicly.
func TestSpawnChildRejoins(t *testing.T) {
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("Delegating.", spawnCall("s1", "Compute 6*7 and report the number.")),
			testkit.Reply("The child is on it."),
			testkit.Reply("The child says 42; done."),
		},
		[]testkit.Step{testkit.Reply("42")},
	)
	f.Prompt("main", "Find 6*7 with a helper.")
	res := spawned(t, f.Harness, "main", "s1")
	if res.AgentID != res.ChildAgentID || res.SupervisionTaskID == "" || res.TaskHandle == nil ||
		res.TaskHandle.Kind != task.KindChildAgent || res.TaskHandle.WaitPolicy != "background" {
		t.Fatalf("spawn result = %+v", res)
	}
	if s := res.ChildSupervision; s == nil || s.ParentAgentID != "main" || s.ChildAgentID != res.ChildAgentID ||
		s.SupervisionTaskID != res.SupervisionTaskID || s.CleanupOwner != "supervision_task" || s.FollowupTarget != "parent_supervisor" {
		t.Fatalf("child_supervision = %+v", res.ChildSupervision)
	}
	child := res.ChildAgentID

	end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	if end.Status != task.StatusCompleted {
		t.Fatalf("task ended %s", end.Status)
	}
	briefWith(t, f.Harness, "main", messages.BriefResult, "The child says 42")
	f.WaitEvent(child, statusIs(messages.StatusArchived))

	// The child's first message was the delegation, as runtime
	// instruction; its identity is a parent-supervised private child.
	evs := f.Events(child)
	created := decode[messages.AgentCreated](t, evs[0])
	if created.Kind != messages.AgentChild || created.Visibility != messages.VisibilityPrivate ||
		created.Ownership != messages.OwnershipParentSupervised || created.ParentAgentID != "main" || created.ProfilePreset != actors.PresetPrivateChild {
		t.Fatalf("child identity = %+v", created)
	}
	first := f.child.Requests()[0].Conversation[0]
	if first.Text != "Compute 6*7 and report the number." || first.Authority != messages.AuthorityRuntimeInstruction {
		t.Fatalf("child's first message = %q (%s)", first.Text, first.Authority)
	}

	// The parent's model read the child's result as a task_result.
	reqs := f.parent.Requests()
	last := reqs[len(reqs)-1].Conversation
	var rejoin *providers.Item
	for i := range last {
		if last[i].Kind == providers.ItemMessage && last[i].Origin != nil && last[i].Origin.Kind == messages.OriginTask {
			rejoin = &last[i]
		}
	}
	if rejoin == nil || !strings.Contains(rejoin.Text, "42") || !strings.Contains(rejoin.Text, child) {
		t.Fatalf("task_result not seen by the parent's model: %+v", rejoin)
	}

	list, err := f.Runtime.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(list, func(in actors.AgentInfo) bool { return in.ID == child }) {
		t.Fatalf("private child %s listed publicly", child)
	}
	// An archived child takes no more input.
	if _, err := f.Runtime.Admit(context.Background(), f.Envelope(child, "more?", messages.PriorityNormal)); !errors.Is(err, actors.ErrAgentArchived) {
		t.Fatalf("admit to an archived child: %v, want ErrAgentArchived", err)
	}
}

// TestNestedChildrenStopRecursively: main delegates to mid, mid to leaf,
// leaf starts a long command. TaskStop on mid's handle archives mid, leaf
// and leaf's command (its process group is gone), and every supervision
// task ends cancelled.
func TestNestedChildrenStopRecursively(t *testing.T) {
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", spawnCall("s1", "mid: delegate the long job and wait")),
			testkit.Reply("Delegated."),
		}, nil, withTools(t))
	f.roles["mid"] = testkit.NewProvider(
		testkit.Reply("", spawnCall("m1", "leaf: run the long job")),
		testkit.Reply("The leaf runs it."),
	)
	f.roles["leaf"] = testkit.NewProvider(
		testkit.Reply("", testkit.Call("l1", "ExecCommand", `{"cmd":"sleep 300","yield_time_ms":50}`)),
		testkit.Reply("The job runs."),
	)
	f.Prompt("main", "Run the long job through helpers.")
	mid := spawned(t, f.Harness, "main", "s1")
	leaf := spawned(t, f.Harness, mid.ChildAgentID, "m1")
	cmd := taskStarted(t, f.Harness, leaf.ChildAgentID, 1)
	f.WaitEvent(leaf.ChildAgentID, testkit.OfType(messages.EventTurnTerminal))
	f.WaitEvent(mid.ChildAgentID, testkit.OfType(messages.EventTurnTerminal))

	// main's view of mid while it runs: live observability.
	st, err := f.Runtime.State(context.Background(), mid.ChildAgentID)
	if err != nil || st.Status == messages.StatusArchived {
		t.Fatalf("mid = %s, %v", st.Status, err)
	}

	f.parent.Script(
		testkit.Reply("", testkit.Call("stop1", task.StopName, `{"task_id":"`+mid.SupervisionTaskID+`"}`)),
		testkit.Reply("Stopped."),
	)
	f.Prompt("main", "Stop the helpers.")
	stop := toolResult(t, f.Harness, "main", "stop1")
	sr := envelopeResult[task.StopResult](t, stop)
	if stop.Status != messages.ToolOK || !sr.StopRequested || sr.Task.Status != task.StatusCancelled ||
		sr.Task.ChildSupervision == nil || sr.Task.ChildObservability == nil || sr.Task.ChildObservability.Phase != task.PhaseTerminal {
		t.Fatalf("TaskStop = %s", stop.Envelope)
	}
	if got := taskEnded(t, f.Harness, mid.ChildAgentID, leaf.SupervisionTaskID); got.Status != task.StatusCancelled {
		t.Fatalf("leaf's supervision task ended %s", got.Status)
	}
	if got := taskEnded(t, f.Harness, leaf.ChildAgentID, cmd.TaskID); got.Status != task.StatusCancelled {
		t.Fatalf("leaf's command ended %s", got.Status)
	}
	if testkit.GroupLive(cmd.Pgid) {
		t.Fatalf("the leaf's command group %d outlived the stop", cmd.Pgid)
	}
	for _, id := range []string{mid.ChildAgentID, leaf.ChildAgentID} {
		f.WaitEvent(id, statusIs(messages.StatusArchived))
	}
	briefWith(t, f.Harness, "main", messages.BriefResult, "Stopped.")
	if n := testkit.CountOfType(f.Events("main"), messages.EventTaskFinished); n != 1 {
		t.Fatalf("main journaled %d task ends, want 1", n)
	}
}

// admittedOfKind counts agent's message_admitted events of kind.
func admittedOfKind(t *testing.T, evs []messages.Event, kind messages.MessageKind) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == messages.EventMessageAdmitted && decode[messages.MessageAdmitted](t, ev).Envelope.Kind == kind {
			n++
		}
	}
	return n
}

// notActive waits until agent id has no running actor.
func notActive(t *testing.T, h *testkit.Harness, id string) {
	t.Helper()
	for range 2000 {
		if !slices.Contains(h.Runtime.Active(), id) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("agent %s still has a running actor", id)
}

// delegateInFlight has main delegate 6*7 and returns once the parent's
// turn ended and the child's model round is in flight, held by gate.
func delegateInFlight(t *testing.T) (*family, actors.SpawnResult, chan struct{}) {
	gate := make(chan struct{})
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("", spawnCall("s1", "Compute 6*7.")),
			testkit.Reply("Delegated."),
			testkit.Reply("Got 42."),
		},
		[]testkit.Step{{Text: "42", Gate: gate}},
	)
	f.Prompt("main", "Delegate 6*7.")
	res := spawned(t, f.Harness, "main", "s1")
	<-f.child.Called
	f.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	return f, res, gate
}

// TestCrashMidDelegationRecovers: the runtime dies while a child's model
// round is in flight. Recovery re-activates the parent (its supervision
// task is open), which re-creates the child under itself; the child's
// turn resumes, its result rejoins the parent exactly once, and the child
// ends archived with no actor left running.
func TestCrashMidDelegationRecovers(t *testing.T) {
	f, res, gate := delegateInFlight(t)

	active := f.Restart()
	if !slices.Contains(active, "main") {
		t.Fatalf("open after the crash: %v, want main", active)
	}
	close(gate)
	taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	briefWith(t, f.Harness, "main", messages.BriefResult, "Got 42.")
	f.WaitEvent(res.ChildAgentID, statusIs(messages.StatusArchived))
	notActive(t, f.Harness, res.ChildAgentID)

	evs := f.Events("main")
	if n := testkit.CountOfType(evs, messages.EventTaskFinished); n != 1 {
		t.Fatalf("main journaled %d task ends, want 1", n)
	}
	if n := admittedOfKind(t, evs, messages.KindTaskResult); n != 1 {
		t.Fatalf("main admitted %d task results, want 1", n)
	}
}

// TestParentRestartRecreatesChildren: a parent actor that panics is
// restarted by its supervisor, and protoactor stops its children with it;
// the new parent re-creates them from its journal and the child's work
// goes on to rejoin it.
func TestParentRestartRecreatesChildren(t *testing.T) {
	f, res, gate := delegateInFlight(t)

	var once sync.Once
	f.SetFault(func(agent, point string) {
		if agent == "main" && point == "*actors.kick" {
			once.Do(func() { panic("injected parent fault") })
		}
	})
	f.Runtime.Kick("main")
	// The restarted parent re-creates the child, whose round runs again.
	<-f.child.Called
	close(gate)
	taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	briefWith(t, f.Harness, "main", messages.BriefResult, "Got 42.")
	if n := testkit.CountOfType(f.Events("main"), messages.EventTaskFinished); n != 1 {
		t.Fatalf("main journaled %d task ends, want 1", n)
	}
}

// TestOrphanChildIsArchived: a private child whose parent has no task for
// it (the parent's record was lost with its journal's tail) converges to
// archived at recovery instead of running unsupervised.
func TestOrphanChildIsArchived(t *testing.T) {
	f := newFamily(t, []testkit.Step{testkit.Reply("Hello.")}, nil)
	f.Prompt("main", "hi")
	f.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	orphan := "child_orphan"
	env := f.Envelope(orphan, "work", messages.PriorityNormal)
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	var evs []messages.Event
	for _, p := range []messages.Payload{
		messages.AgentCreated{AgentID: orphan, Kind: messages.AgentChild, Visibility: messages.VisibilityPrivate,
			Ownership: messages.OwnershipParentSupervised, ProfilePreset: actors.PresetPrivateChild, ParentAgentID: "main"},
		messages.MessageAdmitted{Envelope: env},
	} {
		ev, err := messages.NewEvent(orphan, f.Clock.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if _, err := f.Store().Append(context.Background(), orphan, evs); err != nil {
		t.Fatal(err)
	}
	f.Restart()
	f.WaitEvent(orphan, statusIs(messages.StatusArchived))
	if n := len(f.child.Requests()); n != 0 {
		t.Fatalf("the orphan called its model %d times", n)
	}
}

// TestChildSupervisionSurfaces: a child that asks a question suspends;
// its question goes to the parent (not the operator's open list); the
// parent sees the child waiting through TaskStatus and AgentGet, answers
// with TaskInput on the supervision task, and the child finishes and
// rejoins.
func TestChildSupervisionSurfaces(t *testing.T) {
	f := newFamily(t,
		[]testkit.Step{testkit.Reply("", spawnCall("s1", "Refund order 12345 if approved.")), testkit.Reply("Delegated.")},
		[]testkit.Step{
			testkit.Reply("I need a decision.", testkit.Call("ask1", actors.RequestInputToolName,
				`{"question":"Refund order 12345?","choices":[{"value":"approve","label":"Approve"},{"value":"deny","label":"Deny"}]}`)),
			testkit.Reply("Refunded."),
		}, withTools(t))
	f.Prompt("main", "Handle the refund through a helper.")
	res := spawned(t, f.Harness, "main", "s1")
	f.WaitEvent(res.ChildAgentID, statusIs(messages.StatusSuspended))
	q := decode[messages.SystemNotificationQueued](t, f.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventSystemNotificationQueued && strings.Contains(string(ev.Payload), "child.suspension_requested")
	}))
	if !strings.Contains(q.Notification.Message, "TaskInput on task "+res.SupervisionTaskID) {
		t.Fatalf("the parent's notification does not say how to answer: %q", q.Notification.Message)
	}
	if open, err := f.Runtime.OpenSuspensions(context.Background()); err != nil || len(open) != 0 {
		t.Fatalf("operator's open suspensions = %+v, %v; a child's question belongs to its parent", open, err)
	}

	taskArgs := `{"task_id":"` + res.SupervisionTaskID + `"}`
	f.parent.Script(
		testkit.Reply("", testkit.Call("st1", task.StatusName, taskArgs), testkit.Call("ag1", "AgentGet", `{}`)),
		testkit.Reply("", testkit.Call("in1", task.InputName, `{"task_id":"`+res.SupervisionTaskID+`","input":"approve"}`)),
		testkit.Reply("Answered."),
		testkit.Reply("", testkit.Call("out1", task.OutputName, taskArgs)),
		testkit.Reply("The refund is done."),
	)
	f.Prompt("main", "How is the helper doing?")
	st := envelopeResult[map[string]task.Snapshot](t, toolResult(t, f.Harness, "main", "st1"))["task"]
	if o := st.ChildObservability; o == nil || o.Phase != task.PhaseWaiting || o.WaitingReason != string(messages.AwaitingOperatorInput) ||
		st.ChildSupervision == nil || st.InputTarget != task.InputChildFollowup || st.ChildAgentID != res.ChildAgentID {
		t.Fatalf("TaskStatus = %+v (%+v)", st, st.ChildObservability)
	}
	got := envelopeResult[toolagent.GetResult](t, toolResult(t, f.Harness, "main", "ag1")).Agent
	if len(got.ActiveChildren) != 1 || got.ActiveChildren[0].ChildAgentID != res.ChildAgentID ||
		got.ActiveChildren[0].Phase != task.PhaseWaiting || got.ActiveChildren[0].SupervisionTaskID != res.SupervisionTaskID {
		t.Fatalf("AgentGet.active_children = %+v", got.ActiveChildren)
	}
	in := envelopeResult[task.InputResult](t, toolResult(t, f.Harness, "main", "in1"))
	if !in.AcceptedInput || in.InputTarget != task.InputChildFollowup {
		t.Fatalf("TaskInput = %+v", in)
	}
	if end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID); end.Status != task.StatusCompleted {
		t.Fatalf("task ended %s", end.Status)
	}
	briefWith(t, f.Harness, "main", messages.BriefResult, "The refund is done.")
	out := envelopeResult[task.OutputResult](t, toolResult(t, f.Harness, "main", "out1"))
	if out.RetrievalStatus != task.RetrievalSuccess || out.Task.Status != task.StatusCompleted || out.Task.OutputPreview != "Refunded." ||
		out.Task.ChildSupervision == nil || out.Task.ChildSupervision.SupervisionTaskID != res.SupervisionTaskID {
		t.Fatalf("TaskOutput = %+v", out)
	}
	resumed := decode[messages.SuspensionResumed](t, f.WaitEvent(res.ChildAgentID, testkit.OfType(messages.EventSuspensionResumed)))
	if resumed.Response.RespondedBy != "parent:main" {
		t.Fatalf("answered by %q", resumed.Response.RespondedBy)
	}
}

// TestChildFollowupAndRefusals: a follow-up to a running child is queued
// as its next message; SpawnAgent refuses bad arguments and changes
// nothing; a public_named spawn creates a self-owned agent with lineage.
func TestChildFollowupAndRefusals(t *testing.T) {
	gate := make(chan struct{})
	f := newFamily(t,
		[]testkit.Step{
			testkit.Reply("",
				testkit.Call("bad1", actors.SpawnAgentToolName, `{}`),
				testkit.Call("bad2", actors.SpawnAgentToolName, `{"initial_message":"x","agent_id":"named"}`),
				testkit.Call("bad3", actors.SpawnAgentToolName, `{"preset":"public_named","agent_id":"a/b"}`),
				testkit.Call("bad4", actors.SpawnAgentToolName, `{"preset":"public_named","agent_id":"named","workspace_mode":"worktree"}`),
				testkit.Call("norepo", actors.SpawnAgentToolName, `{"initial_message":"x","workspace_mode":"worktree"}`),
				testkit.Call("pub1", actors.SpawnAgentToolName, `{"preset":"public_named","agent_id":"researcher","initial_message":"pub: Say hi."}`),
				testkit.Call("pub2", actors.SpawnAgentToolName, `{"preset":"public_named","agent_id":"researcher"}`),
				spawnCall("s1", "Count to two, one message at a time.")),
			testkit.Reply("Delegated."),
		},
		[]testkit.Step{
			{Text: "one", Gate: gate},
			testkit.Reply("two"),
		}, withTools(t))
	f.roles["pub"] = testkit.NewProvider(testkit.Reply("hi"))
	f.Prompt("main", "go")
	for _, id := range []string{"bad1", "bad2", "bad3", "bad4"} {
		if te := toolResult(t, f.Harness, "main", id); te.Status == messages.ToolOK || !strings.Contains(te.Receipt, "invalid_tool_input") {
			t.Fatalf("%s = %s", id, te.Receipt)
		}
	}
	if te := toolResult(t, f.Harness, "main", "norepo"); te.Status == messages.ToolOK || !strings.Contains(te.Receipt, "not_a_repository") {
		t.Fatalf("worktree mode outside a repository = %s", te.Receipt)
	}
	if te := toolResult(t, f.Harness, "main", "pub2"); te.Status == messages.ToolOK || !strings.Contains(te.Receipt, "agent_exists") {
		t.Fatalf("second public_named = %s", te.Receipt)
	}
	pub := spawned(t, f.Harness, "main", "pub1")
	if pub.AgentID != "researcher" || pub.SupervisionTaskID != "" || pub.TaskHandle != nil {
		t.Fatalf("public_named result = %+v", pub)
	}
	created := decode[messages.AgentCreated](t, f.Events("researcher")[0])
	if created.Visibility != messages.VisibilityPublic || created.Ownership != messages.OwnershipSelfOwned ||
		created.ParentAgentID != "main" || created.ProfilePreset != actors.PresetPublicNamed {
		t.Fatalf("public_named identity = %+v", created)
	}
	f.WaitEvent("researcher", testkit.OfType(messages.EventTurnTerminal)) // its bootstrap message ran
	res := spawned(t, f.Harness, "main", "s1")
	if n := testkit.CountOfType(f.Events("main"), messages.EventTaskStarted); n != 1 {
		t.Fatalf("main started %d tasks, want 1 (refusals change nothing)", n)
	}
	<-f.child.Called // the child's first round is in flight
	f.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	f.parent.Script(
		testkit.Reply("", testkit.Call("in1", task.InputName, `{"task_id":"`+res.SupervisionTaskID+`","input":"Now say two."}`)),
		testkit.Reply("Sent."),
		testkit.Reply("It counted."),
	)
	f.Prompt("main", "nudge it")
	in := envelopeResult[task.InputResult](t, toolResult(t, f.Harness, "main", "in1"))
	if !in.AcceptedInput || in.InputTarget != task.InputChildFollowup || in.BytesWritten != len("Now say two.") {
		t.Fatalf("TaskInput = %+v", in)
	}
	close(gate)
	end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	var out task.OutputTask
	if err := json.Unmarshal(end.Result, &out); err != nil || out.OutputPreview != "two" || out.ChildSupervision == nil {
		t.Fatalf("child result = %s (%v), want the answer to the follow-up", end.Result, err)
	}
}

// TestFamilyFollowsParentLifecycle: pausing, resuming and stopping a
// parent does the same to its running children: a paused family takes no
// steps, a resumed one finishes its work, a stopped one stops with it.
func TestFamilyFollowsParentLifecycle(t *testing.T) {
	held := make(chan struct{})
	first := testkit.Reply("", testkit.Call("e1", "echo", `{"text":"one"}`))
	first.Gate = held
	f := newFamily(t,
		[]testkit.Step{testkit.Reply("", spawnCall("s1", "Count.")), testkit.Reply("Delegated."), testkit.Reply("Counted.")},
		[]testkit.Step{first, testkit.Reply("two")})
	ctx := context.Background()
	f.Prompt("main", "Delegate counting.")
	res := spawned(t, f.Harness, "main", "s1")
	<-f.child.Called // the child's first round is in flight
	if _, err := f.Runtime.Control(ctx, "main", actors.OpPause, "hold the family"); err != nil {
		t.Fatal(err)
	}
	f.WaitEvent(res.ChildAgentID, statusIs(messages.StatusPaused))
	close(held)
	f.WaitEvent(res.ChildAgentID, testkit.OfType(messages.EventAssistantRoundRecorded))
	if st, err := f.Runtime.State(ctx, res.ChildAgentID); err != nil || st.Status != messages.StatusPaused || len(f.Echo.Executions()) != 0 {
		t.Fatalf("paused child = %s (%v), %d echo calls; want held before its tool", st.Status, err, len(f.Echo.Executions()))
	}
	if _, err := f.Runtime.Control(ctx, "main", actors.OpResume, "go on"); err != nil {
		t.Fatal(err)
	}
	if end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID); end.Status != task.StatusCompleted {
		t.Fatalf("child task ended %s after the family resumed", end.Status)
	}
	briefWith(t, f.Harness, "main", messages.BriefResult, "Counted.")

	// A second child, stopped with its parent.
	gate := make(chan struct{})
	defer close(gate)
	f.roles["slow"] = testkit.NewProvider(testkit.Step{Text: "never", Gate: gate})
	f.parent.Script(testkit.Reply("", spawnCall("s2", "slow: take your time")), testkit.Reply("Delegated again."))
	f.Prompt("main", "Delegate slowly.")
	slow := spawned(t, f.Harness, "main", "s2")
	<-f.roles["slow"].Called
	if _, err := f.Runtime.Control(ctx, "main", actors.OpStop, "enough"); err != nil {
		t.Fatal(err)
	}
	f.WaitEvent(slow.ChildAgentID, statusIs(messages.StatusStopped))
	tt := decode[messages.TurnTerminal](t, f.WaitEvent(slow.ChildAgentID, testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalAborted {
		t.Fatalf("the stopped child's turn = %+v", tt)
	}
}

// TestCrashLoopingChildFailsItsTask: a child that keeps crashing is
// restarted by its parent's strategy until its budget runs out, then
// quarantined; its supervision task fails and the parent hears of it.
func TestCrashLoopingChildFailsItsTask(t *testing.T) {
	gate := make(chan struct{})
	f := newFamily(t,
		[]testkit.Step{testkit.Reply("", spawnCall("s1", "Work.")), testkit.Reply("Delegated."), testkit.Reply("The child failed.")},
		[]testkit.Step{{Text: "never", Gate: gate}})
	defer close(gate)
	f.Prompt("main", "Delegate.")
	res := spawned(t, f.Harness, "main", "s1")
	<-f.child.Called
	f.SetFault(func(agent, point string) {
		if agent == res.ChildAgentID {
			panic("poisoned child")
		}
	})
	f.Runtime.Kick(res.ChildAgentID)
	rerr := decode[messages.RuntimeError](t, f.WaitEvent(res.ChildAgentID, func(ev messages.Event) bool {
		return ev.Type == messages.EventRuntimeError && strings.Contains(string(ev.Payload), "agent_quarantined")
	}))
	if rerr.Failure.Code != "agent_quarantined" {
		t.Fatalf("child runtime_error = %+v", rerr.Failure)
	}
	end := taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	var out task.OutputTask
	if err := json.Unmarshal(end.Result, &out); err != nil || end.Status != task.StatusFailed || !strings.Contains(out.OutputPreview, "quarantined") {
		t.Fatalf("child task end = %+v %s (%v)", end, end.Result, err)
	}
	briefWith(t, f.Harness, "main", messages.BriefResult, "The child failed.")
	f.SetFault(nil)
}

// TestGracefulRestartMidDelegation: a graceful shutdown while a child
// works leaves both parent and child open; the next boot brings the
// family back and the child's result rejoins once.
func TestGracefulRestartMidDelegation(t *testing.T) {
	f, res, gate := delegateInFlight(t)
	active := f.GracefulRestart()
	if !slices.Contains(active, "main") {
		t.Fatalf("open after the restart: %v, want main", active)
	}
	close(gate)
	taskEnded(t, f.Harness, "main", res.SupervisionTaskID)
	briefWith(t, f.Harness, "main", messages.BriefResult, "Got 42.")
	if n := testkit.CountOfType(f.Events("main"), messages.EventTaskFinished); n != 1 {
		t.Fatalf("main journaled %d task ends, want 1", n)
	}
	f.WaitEvent(res.ChildAgentID, statusIs(messages.StatusArchived))
	notActive(t, f.Harness, res.ChildAgentID)
}
