package actors_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

func sysNote(kind string, level messages.NotificationLevel, msg string) messages.SystemNotification {
	return messages.SystemNotification{Kind: kind, Level: level, Message: msg}
}

// carried lists, per request the provider received, the kinds of the
// notifications its conversation carries (each carrier item once).
func carriedKinds(reqs []providers.Request) [][]string {
	out := make([][]string, len(reqs))
	for i, r := range reqs {
		for _, it := range r.Conversation {
			for _, n := range it.Notifications {
				out[i] = append(out[i], n.Kind)
			}
		}
	}
	return out
}

// deliveredCount counts the carrier events of kind in the journal.
func deliveredCount(t *testing.T, evs []messages.Event, kind string) int {
	t.Helper()
	n := 0
	for _, ev := range evs {
		p, _ := ev.Decode()
		var ns []messages.SystemNotification
		switch p := p.(type) {
		case messages.MessageProcessingStarted:
			ns = p.Notifications
		case messages.ToolExecuted:
			ns = p.Notifications
		}
		for _, x := range ns {
			if x.Kind == kind {
				n++
			}
		}
	}
	return n
}

// TestSystemNotificationMessageCarrier: a notification queued while the
// agent is idle waits (no turn of its own) and rides, once, with the next
// message the model sees; it is never shown by itself.
func TestSystemNotificationMessageCarrier(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"), testkit.Reply("ok again"))
	ctx := context.Background()
	h.Prompt("main", "hello")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if err := h.Runtime.QueueSystemNotification(ctx, "main", sysNote("mcp.disconnected", messages.LevelError, "MCP server github disconnected.")); err != nil {
		t.Fatal(err)
	}
	if st, _ := h.Runtime.State(ctx, "main"); st.Turn != nil || st.Queue.Len() != 0 || len(st.PendingNotifications) != 1 {
		t.Fatalf("a non-critical notification started work: turn %v queued %d pending %d", st.Turn, st.Queue.Len(), len(st.PendingNotifications))
	}
	h.Prompt("main", "next")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	start := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventMessageProcessingStarted, 2)))
	if len(start.Notifications) != 1 || start.Notifications[0].Kind != "mcp.disconnected" {
		t.Fatalf("carrier = %+v", start.Notifications)
	}
	reqs := h.Provider.Requests()
	if got := carriedKinds(reqs); len(got[0]) != 0 || len(got[1]) != 1 {
		t.Fatalf("carried per request = %v", got)
	}
	last := reqs[1].Conversation[len(reqs[1].Conversation)-1]
	if last.Kind != providers.ItemMessage || len(last.Notifications) != 1 {
		t.Fatalf("the new message does not carry the notification: %+v", last)
	}
	if st, _ := h.Runtime.State(ctx, "main"); len(st.PendingNotifications) != 0 {
		t.Fatalf("still pending after delivery: %v", st.PendingNotifications)
	}
	h.Provider.Script(testkit.Reply("third"))
	h.Prompt("main", "third")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 3))
	if n := deliveredCount(t, h.Events("main"), "mcp.disconnected"); n != 1 {
		t.Fatalf("delivered %d times, want once", n)
	}
}

// gateTool blocks each call until the test releases it, so a test can act
// while a tool runs.
type gateTool struct {
	entered, release chan struct{}
}

func (g *gateTool) Spec() tools.Spec {
	return tools.Spec{Name: "gate", Description: "Wait for the test.", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (g *gateTool) Call(ctx context.Context, _ json.RawMessage) tools.Result {
	g.entered <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	return tools.Success("gate", "released", nil)
}

// TestSystemNotificationToolBatchCarrier: a notification queued while a
// tool runs rides with that batch's last result, and the model's next
// request sees it after the results.
func TestSystemNotificationToolBatchCarrier(t *testing.T) {
	gate := &gateTool{entered: make(chan struct{}, 1), release: make(chan struct{})}
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{
			testkit.Reply("", testkit.Call("c1", "gate", `{}`), testkit.Call("c2", "echo", `{"text":"b"}`)),
			testkit.Reply("done"),
		},
		Deps: func(_ string, d *actors.AgentDeps) {
			reg, err := tools.NewRegistry(gate, &testkit.EchoTool{})
			if err != nil {
				t.Fatal(err)
			}
			d.Tools = reg
		},
	})
	h.Prompt("main", "gate then echo")
	<-gate.entered
	if err := h.Runtime.QueueSystemNotification(context.Background(), "main", sysNote("tool.stopped", messages.LevelInfo, "Task t1 stopped.")); err != nil {
		t.Fatal(err)
	}
	close(gate.release)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	evs := h.Events("main")
	if n := deliveredCount(t, evs, "tool.stopped"); n != 1 {
		t.Fatalf("delivered %d times, want once:\n%s", n, testkit.Describe(evs))
	}
	first := decode[messages.ToolExecuted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventToolExecuted, 1)))
	second := decode[messages.ToolExecuted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventToolExecuted, 2)))
	if len(first.Notifications) != 0 || len(second.Notifications) != 1 {
		t.Fatalf("carriers: first %v second %v; want the batch's last result to carry it", first.Notifications, second.Notifications)
	}
	reqs := h.Provider.Requests()
	conv := reqs[len(reqs)-1].Conversation
	if it := conv[len(conv)-1]; it.Kind != providers.ItemToolResult || it.CallID != "c2" || len(it.Notifications) != 1 {
		t.Fatalf("last item = %+v", it)
	}
}

// TestSystemNotificationSurvivesCrash: a notification queued just before
// a crash is still pending after recovery and the next carrier delivers
// it.
func TestSystemNotificationSurvivesCrash(t *testing.T) {
	h := testkit.New(t, testkit.Reply("ok"))
	ctx := context.Background()
	if err := h.Runtime.QueueSystemNotification(ctx, "main", sysNote("provider.fallback", messages.LevelWarning, "Fell back.")); err != nil {
		t.Fatal(err)
	}
	h.Restart()
	h.Prompt("main", "hi")
	start := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.OfType(messages.EventMessageProcessingStarted)))
	if len(start.Notifications) != 1 || start.Notifications[0].Kind != "provider.fallback" {
		t.Fatalf("after the crash the carrier holds %+v", start.Notifications)
	}
}

// TestCriticalNotificationIdleStartsTurn: a critical notification to an
// idle (here: asleep) agent starts a system-initiated turn carrying it.
func TestCriticalNotificationIdleStartsTurn(t *testing.T) {
	h := testkit.New(t,
		testkit.Reply("", testkit.Call("s1", actors.SleepToolName, `{}`)),
		testkit.Reply("Looking at the failure."),
	)
	ctx := context.Background()
	h.Prompt("main", "rest")
	h.WaitEvent("main", testkit.OfType(messages.EventAgentSlept))
	if err := h.Runtime.QueueSystemNotification(ctx, "main", sysNote("disk.full", messages.LevelCritical, "The workspace disk is full.")); err != nil {
		t.Fatal(err)
	}
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	if tt.LastAssistantMessage != "Looking at the failure." {
		t.Fatalf("system-initiated turn = %+v", tt)
	}
	start := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventMessageProcessingStarted, 2)))
	if len(start.Notifications) != 1 || start.Notifications[0].Level != messages.LevelCritical {
		t.Fatalf("carrier = %+v", start.Notifications)
	}
	adm := decode[messages.MessageAdmitted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventMessageAdmitted, 2)))
	if adm.Envelope.Kind != messages.KindSystemTick || adm.Envelope.SourceRefs["system_notification"] != "critical" {
		t.Fatalf("system-initiated message = %+v", adm.Envelope)
	}
}

// TestCriticalNotificationAbortsModelRound: a critical notification during
// a model request abandons it — no provider failure, no retry, no round
// recorded — and a system-initiated round delivers it in the same turn.
func TestCriticalNotificationAbortsModelRound(t *testing.T) {
	gate := make(chan struct{}) // never opened: the first request only ends by cancellation
	h := testkit.New(t, testkit.Step{Text: "never", Gate: gate})
	ctx := context.Background()
	h.Prompt("main", "work")
	<-h.Provider.Called
	h.Provider.Script() // keep the script; the next request has no assistant round either
	if err := h.Runtime.QueueSystemNotification(ctx, "main", sysNote("tool.failed", messages.LevelCritical, "cargo check failed with exit 101.")); err != nil {
		t.Fatal(err)
	}
	<-h.Provider.Called
	reqs := h.Provider.Requests()
	if len(reqs) != 2 || reqs[0].TurnID != reqs[1].TurnID {
		t.Fatalf("%d requests; want the round re-run in the same turn", len(reqs))
	}
	conv := reqs[1].Conversation
	if it := conv[len(conv)-1]; it.Kind != providers.ItemMessage || len(it.Notifications) != 1 || it.Notifications[0].Kind != "tool.failed" {
		t.Fatalf("system-initiated round's last item = %+v", it)
	}
	evs := h.Events("main")
	for _, typ := range []messages.EventType{messages.EventRuntimeError, messages.EventProviderRoundCompleted, messages.EventTurnTerminal} {
		if n := testkit.CountOfType(evs, typ); n != 0 {
			t.Fatalf("%d %s events; an abandoned request is not a failure or a round", n, typ)
		}
	}
	if _, err := h.Runtime.Control(ctx, "main", actors.OpStop, "test over"); err != nil {
		t.Fatal(err)
	}
}

// TestNotificationFilter: a filtered kind is journaled but never carried,
// and it does not stay pending.
func TestNotificationFilter(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("ok")},
		Deps: func(_ string, d *actors.AgentDeps) {
			d.NotificationFilter = messages.NotificationFilter{Kinds: map[string]map[string]bool{
				"mcp": {"enable": false}, "tool": {"stopped": false},
			}}
		},
	})
	ctx := context.Background()
	for _, n := range []messages.SystemNotification{
		sysNote("mcp.reconnected", messages.LevelInfo, "back"),
		sysNote("tool.stopped", messages.LevelInfo, "stopped"),
		sysNote("tool.failed", messages.LevelError, "failed"),
	} {
		if err := h.Runtime.QueueSystemNotification(ctx, "main", n); err != nil {
			t.Fatal(err)
		}
	}
	h.Prompt("main", "hi")
	start := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.OfType(messages.EventMessageProcessingStarted)))
	if len(start.Notifications) != 1 || start.Notifications[0].Kind != "tool.failed" {
		t.Fatalf("carrier = %+v; want only tool.failed", start.Notifications)
	}
	if n := testkit.CountOfType(h.Events("main"), messages.EventSystemNotificationQueued); n != 3 {
		t.Fatalf("%d queued events; the journal records every notification", n)
	}
	if st, _ := h.Runtime.State(ctx, "main"); len(st.PendingNotifications) != 0 {
		t.Fatalf("pending after the carrier: %v", st.PendingNotifications)
	}
}

// recordingNotifier is a Notifier that accepts every delivery.
type recordingNotifier struct {
	mu  sync.Mutex
	got []messages.OperatorNotification
}

func (r *recordingNotifier) Deliver(_ context.Context, n messages.OperatorNotification, report func(messages.OperatorNotificationDelivery)) messages.DeliveryStatus {
	r.mu.Lock()
	r.got = append(r.got, n)
	r.mu.Unlock()
	report(messages.OperatorNotificationDelivery{NotificationID: n.NotificationID, Status: messages.DeliveryAcceptedByTransport,
		Attempt: 1, HTTPStatus: 204, At: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)})
	return messages.DeliveryAcceptedByTransport
}

// TestFailedTurnNotifiesOperator: a failed turn produces an operator
// notification, delivered by the configured notifier, whose delivery
// status is journaled and listed.
func TestFailedTurnNotifiesOperator(t *testing.T) {
	notifier := &recordingNotifier{}
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Fail(providers.KindAuth, "bad key\nsecond line")},
		Deps:  func(_ string, d *actors.AgentDeps) { d.Notifier = notifier },
	})
	h.Prompt("main", "hi")
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	if n.Reason != messages.NotifyTurnFailed || n.Summary == "" || n.TargetOperatorBoundary != messages.BoundaryPrimaryOperator {
		t.Fatalf("notification = %+v", n)
	}
	d := decode[messages.OperatorNotificationDelivery](t, h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationDelivery)))
	if d.NotificationID != n.NotificationID || d.Status != messages.DeliveryAcceptedByTransport {
		t.Fatalf("delivery = %+v", d)
	}
	views, err := h.Runtime.Notifications(context.Background(), "main")
	if err != nil || len(views) != 1 || views[0].Delivery == nil || views[0].Delivery.Status != messages.DeliveryAcceptedByTransport {
		t.Fatalf("notifications = %+v, %v", views, err)
	}
}

// TestChildNotificationGoesToParent: a private child's notification is
// addressed to its parent's boundary, recorded by the parent, and reaches
// the parent's model as a system notification; the webhook is not used.
func TestChildNotificationGoesToParent(t *testing.T) {
	notifier := &recordingNotifier{}
	f := newFamily(t,
		[]testkit.Step{testkit.Reply("", spawnCall("s1", "check the build")), testkit.Reply("Delegated."), testkit.Reply("Noted.")},
		[]testkit.Step{
			testkit.Reply("", testkit.Call("n1", actors.NotifyToolName, `{"message":"  \nBuild is red on main.\nDetails: 3 failures."}`)),
			testkit.Reply("Told my parent."),
		},
		func(_ string, d *actors.AgentDeps) { d.NotifyOperatorTool, d.Notifier = true, notifier })
	h := f.Harness
	f.Prompt("main", "have the build checked")
	kid := spawned(t, h, "main", "s1").ChildAgentID
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent(kid, testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	if n.TargetOperatorBoundary != messages.BoundaryParentSupervisor || n.BoundaryAgentID != "main" || n.Summary != "Build is red on main." {
		t.Fatalf("child notification = %+v", n)
	}
	at := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	if at.AgentID != "main" || at.RequestedByAgentID != kid || at.NotificationID != n.NotificationID {
		t.Fatalf("at the parent = %+v", at)
	}
	q := decode[messages.SystemNotificationQueued](t, h.WaitEvent("main", testkit.OfType(messages.EventSystemNotificationQueued)))
	if q.Notification.Kind != "child.notify_operator" {
		t.Fatalf("parent's system notification = %+v", q.Notification)
	}
	h.WaitEvent(kid, testkit.OfType(messages.EventTurnTerminal))
	notifier.mu.Lock()
	defer notifier.mu.Unlock()
	if len(notifier.got) != 0 {
		t.Fatalf("a child's notification went to the webhook: %+v", notifier.got)
	}
}

// TestProviderFallbackNotifies: a round answered by a fallback model
// queues a provider.fallback warning, which the round's tool batch
// carries to the model.
func TestProviderFallbackNotifies(t *testing.T) {
	step := testkit.Reply("", testkit.Call("c1", "echo", `{"text":"x"}`))
	step.Timeline = &providers.ProviderAttemptTimeline{RequestedModelRef: "anthropic/claude-sonnet-4-5", WinningModelRef: "openai/gpt-5"}
	h := testkit.New(t, step, testkit.Reply("done"))
	h.Prompt("main", "go")
	q := decode[messages.SystemNotificationQueued](t, h.WaitEvent("main", testkit.OfType(messages.EventSystemNotificationQueued)))
	if q.Notification.Kind != "provider.fallback" || q.Notification.Level != messages.LevelWarning {
		t.Fatalf("queued = %+v", q.Notification)
	}
	ex := decode[messages.ToolExecuted](t, h.WaitEvent("main", testkit.OfType(messages.EventToolExecuted)))
	if len(ex.Notifications) != 1 || ex.Notifications[0].Kind != "provider.fallback" {
		t.Fatalf("tool batch carrier = %+v", ex.Notifications)
	}
}

// TestSystemNotificationInterjectCarrier: a trusted interject spliced
// into a running turn carries the pending notifications to the model.
func TestSystemNotificationInterjectCarrier(t *testing.T) {
	gate := make(chan struct{})
	h := testkit.New(t, testkit.Step{Text: "first", Gate: gate}, testkit.Reply("second"))
	h.Prompt("main", "work")
	<-h.Provider.Called
	if err := h.Runtime.QueueSystemNotification(context.Background(), "main", sysNote("tool.stopped", messages.LevelInfo, "Task t1 stopped.")); err != nil {
		t.Fatal(err)
	}
	h.Send(h.Envelope("main", "also check the logs", messages.PriorityInterject))
	close(gate)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.LastAssistantMessage != "second" {
		t.Fatalf("turn = %+v", tt)
	}
	splice := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventMessageProcessingStarted, 2)))
	if splice.Continuation != nil || len(splice.Notifications) != 1 || splice.Notifications[0].Kind != "tool.stopped" {
		t.Fatalf("splice = %+v", splice)
	}
	if n := deliveredCount(t, h.Events("main"), "tool.stopped"); n != 1 {
		t.Fatalf("delivered %d times", n)
	}
}

// TestTaskEndWhileBusyNotifies: a background task that ends while its
// agent is in a turn queues a system notification, which the turn's next
// tool batch carries; the task_result still follows as its own turn.
func TestTaskEndWhileBusyNotifies(t *testing.T) {
	gate := make(chan struct{})
	held := testkit.Reply("", testkit.Call("e1", "ExecCommand", `{"cmd":"true"}`))
	held.Gate = gate
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{
			testkit.Reply("Starting.", testkit.Call("c1", "ExecCommand", `{"cmd":"cat","accepts_input":true,"yield_time_ms":20}`)),
			held,
			testkit.Reply("Done."),
			testkit.Reply("Noted the task's end."),
		},
		Deps: withTools(t),
	})
	h.Prompt("main", "start a background task")
	rec := taskStarted(t, h, "main", 1)
	<-h.Provider.Called
	<-h.Provider.Called // the second round is held: the agent is busy
	exec.KillGroup(rec.Pgid)
	q := decode[messages.SystemNotificationQueued](t, h.WaitEvent("main", testkit.OfType(messages.EventSystemNotificationQueued)))
	if q.Notification.Kind != "task.failed" || q.Notification.Level != messages.LevelError || !strings.Contains(q.Notification.Message, rec.TaskID) {
		t.Fatalf("queued = %+v", q.Notification)
	}
	close(gate)
	ex := toolResult(t, h, "main", "e1")
	if len(ex.Notifications) != 1 || ex.Notifications[0].Kind != "task.failed" {
		t.Fatalf("the batch after the task's end carries %+v", ex.Notifications)
	}
	taskResult(t, h, "main", rec.TaskID)
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
}

// droppedTailStore reports, as the store's own open would, corrupt
// records dropped from a stream's tail.
type droppedTailStore struct {
	persistence.Store
	dropped []persistence.DroppedRecord
}

func (s droppedTailStore) Health() persistence.Health {
	h := s.Store.Health()
	h.DroppedTails = append(h.DroppedTails, s.dropped...)
	return h
}

// TestDroppedJournalTailNotifies: recovery tells the operator and the
// model of each agent whose journal tail the store dropped, once.
func TestDroppedJournalTailNotifies(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("ok"), testkit.Reply("I'll check my last work.")},
		Deps: func(_ string, d *actors.AgentDeps) {
			d.Store = droppedTailStore{Store: d.Store, dropped: []persistence.DroppedRecord{
				{Stream: "main", Seq: 9, Reason: "checksum"}, {Stream: "main", Seq: 10, Reason: "checksum"}}}
		},
	})
	ctx := context.Background()
	h.Prompt("main", "hi")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	for range 2 {
		if _, err := h.Runtime.Recover(ctx); err != nil {
			t.Fatal(err)
		}
	}
	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationRequested))).Notification
	if n.Reason != messages.NotifyJournalTailDropped || !strings.Contains(n.Message, "2 corrupt record(s)") {
		t.Fatalf("notification = %+v", n)
	}
	q := decode[messages.SystemNotificationQueued](t, h.WaitEvent("main", testkit.OfType(messages.EventSystemNotificationQueued)))
	if q.Notification.Kind != "journal.tail_dropped" || q.Notification.Level != messages.LevelError {
		t.Fatalf("queued = %+v", q.Notification)
	}
	h.Prompt("main", "go on")
	start := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventMessageProcessingStarted, 2)))
	if len(start.Notifications) != 1 || start.Notifications[0].Kind != "journal.tail_dropped" {
		t.Fatalf("carrier = %+v", start.Notifications)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if n := testkit.CountOfType(h.Events("main"), messages.EventSystemNotificationQueued); n != 1 {
		t.Fatalf("reported %d times, want once per process", n)
	}
}

// TestTaskWaitingForInputNotifies: a background command blocked reading
// its input is noticed by its task actor's periodic check and queued for
// the model as task.waiting, once per wait.
func TestTaskWaitingForInputNotifies(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{
			testkit.Reply("", testkit.Call("c1", "ExecCommand", `{"cmd":"read answer; echo got:$answer","accepts_input":true,"yield_time_ms":20}`)),
			testkit.Reply("It runs in the background."),
			testkit.Reply("I'll answer it."),
		},
		Deps: withTools(t),
	})
	h.Prompt("main", "start it")
	rec := taskStarted(t, h, "main", 1)
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	// Each advance runs one check; the command reaches its read on its own.
	deadline := time.Now().Add(testkit.WaitTimeout)
	for testkit.CountOfType(h.Events("main"), messages.EventSystemNotificationQueued) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no task.waiting notification; journal:\n%s", testkit.Describe(h.Events("main")))
		}
		h.Clock.Advance(2 * time.Second)
		time.Sleep(5 * time.Millisecond) // polling a process we do not control
	}
	q := decode[messages.SystemNotificationQueued](t, h.WaitEvent("main", testkit.OfType(messages.EventSystemNotificationQueued)))
	if q.Notification.Kind != "task.waiting" || q.Notification.Level != messages.LevelWarning || !strings.Contains(q.Notification.Message, rec.TaskID) {
		t.Fatalf("queued = %+v", q.Notification)
	}
	for range 3 {
		h.Clock.Advance(2 * time.Second)
	}
	h.Prompt("main", "what is pending?")
	start := decode[messages.MessageProcessingStarted](t, h.WaitEvent("main", testkit.NthOfType(messages.EventMessageProcessingStarted, 2)))
	if len(start.Notifications) != 1 || start.Notifications[0].Kind != "task.waiting" {
		t.Fatalf("carrier = %+v", start.Notifications)
	}
	if n := testkit.CountOfType(h.Events("main"), messages.EventSystemNotificationQueued); n != 1 {
		t.Fatalf("%d task.waiting notifications for one wait", n)
	}
}
