package actors_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/testkit"
)

// dynStep computes a scripted reply from the request, so a step can name
// a work item whose id the runtime made up.
type dynStep func(req providers.Request) testkit.Step

// dynProvider plays dynSteps like testkit.Provider plays steps: the reply
// to a request is the step indexed by the assistant rounds already in its
// conversation.
type dynProvider struct {
	mu    sync.Mutex
	steps []dynStep
	reqs  []providers.Request
}

func (p *dynProvider) Name() string { return "dyn" }

func (p *dynProvider) Complete(_ context.Context, req providers.Request) (providers.Response, error) {
	i := 0
	for _, it := range req.Conversation {
		if it.Kind == providers.ItemAssistant {
			i++
		}
	}
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	ok := i < len(p.steps)
	var st dynStep
	if ok {
		st = p.steps[i]
	}
	p.mu.Unlock()
	if !ok {
		return providers.Response{}, &providers.Error{Provider: "dyn", Kind: providers.KindProtocol, Message: fmt.Sprintf("no step %d", i)}
	}
	s := st(req)
	return providers.Response{Text: s.Text, ToolCalls: s.Calls, StopReason: "end_turn", Model: "dyn-1",
		Usage: messages.TokenUsage{InputTokens: 10, OutputTokens: 1}}, nil
}

func (p *dynProvider) requests() []providers.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]providers.Request(nil), p.reqs...)
}

var workItemIDRe = regexp.MustCompile(`wi_[0-9A-Za-z]+`)

// lastItemID is the newest work item id the request's conversation or
// context mentions.
func lastItemID(req providers.Request) string {
	for i := len(req.Conversation) - 1; i >= 0; i-- {
		if m := workItemIDRe.FindAllString(req.Conversation[i].Text, -1); len(m) > 0 {
			return m[len(m)-1]
		}
	}
	return workItemIDRe.FindString(contextText(req))
}

func contextText(req providers.Request) string {
	var b strings.Builder
	for _, c := range req.Frame.ContextBlocks {
		b.WriteString(c.Text)
	}
	return b.String()
}

// reply is a step with fixed text whose calls are built from the current
// work item id.
func reply(text string, calls ...func(id string) messages.ToolCall) dynStep {
	return func(req providers.Request) testkit.Step {
		id := lastItemID(req)
		st := testkit.Step{Text: text}
		for _, c := range calls {
			st.Calls = append(st.Calls, c(id))
		}
		return st
	}
}

func call(callID, tool, argsFmt string) func(id string) messages.ToolCall {
	return func(id string) messages.ToolCall {
		args := argsFmt
		if strings.Contains(argsFmt, "%s") {
			args = fmt.Sprintf(argsFmt, id)
		}
		return testkit.Call(callID, tool, args)
	}
}

// workHarness starts a harness whose agents get home-bound tools and p.
func workHarness(t *testing.T, p *dynProvider, adjust func(d *actors.AgentDeps)) *testkit.Harness {
	return testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		d.Provider = p
		d.ToolEnv.Home = home
		if adjust != nil {
			adjust(d)
		}
	}})
}

func eventsOf[T messages.Payload](t *testing.T, h *testkit.Harness, typ messages.EventType) []T {
	t.Helper()
	var out []T
	for _, ev := range h.Events("main") {
		if ev.Type == typ {
			out = append(out, decode[T](t, ev))
		}
	}
	return out
}

// workTicks are the work-queue SystemTicks admitted so far, by mode.
func workTicks(t *testing.T, h *testkit.Harness) []string {
	t.Helper()
	var out []string
	for _, a := range eventsOf[messages.MessageAdmitted](t, h, messages.EventMessageAdmitted) {
		if a.Envelope.Kind == messages.KindSystemTick && a.Envelope.SourceRefs["work_queue"] != "" {
			if a.Envelope.Priority != messages.PriorityBackground || a.Envelope.Origin.Kind != messages.OriginSystem ||
				a.Envelope.Trust != messages.TrustedSystem {
				t.Errorf("work tick %+v: want a background, trusted system message", a.Envelope)
			}
			out = append(out, a.Envelope.SourceRefs["work_queue"]+":"+a.Envelope.SourceRefs["work_item_id"])
		}
	}
	return out
}

// settle waits until the agent has handled everything sent so far.
func settle(t *testing.T, h *testkit.Harness) actors.AgentState {
	t.Helper()
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestWorkItemToolsLifecycle: create (with a plan artifact and a
// checklist), pick, update and complete with same-round report text; the
// report becomes the result summary, the delivery summary and a result
// brief; read surfaces show the plan artifact descriptor and the
// completion report; a completed item activates nothing.
func TestWorkItemToolsLifecycle(t *testing.T) {
	plan := "# Plan\n" + strings.Repeat("é", 1300) + "\nend\n"
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.CreateWorkItemToolName,
			`{"objective":"Write the quarterly report","plan":`+quote(plan)+`,"todo_list":[{"text":"Draft","state":"pending"},{"text":"Review","state":"pending"}]}`)),
		reply("", call("c2", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`),
			call("c3", actors.UpdateWorkItemToolName, `{"work_item_id":"%s","plan_status":"ready","todo_list":[{"text":"Draft","state":"completed"},{"text":"Review","state":"in_progress"}]}`)),
		reply("The report is written: revenue is up 12%.", call("c4", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("All done."),
	}}
	h := workHarness(t, p, nil)
	h.Prompt("main", "Write the quarterly report.")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	st := settle(t, h)

	created := eventsOf[messages.WorkItemCreated](t, h, messages.EventWorkItemCreated)
	if len(created) != 1 || created[0].Record.PlanStatus != messages.PlanDraft || len(created[0].Record.TodoList) != 2 {
		t.Fatalf("created = %+v", created)
	}
	id := created[0].Record.ID
	if picked := eventsOf[messages.WorkItemPicked](t, h, messages.EventWorkItemPicked); len(picked) != 1 || picked[0].WorkItemID != id {
		t.Fatalf("picked = %+v", picked)
	}
	done := eventsOf[messages.WorkItemCompleted](t, h, messages.EventWorkItemCompleted)
	want := "The report is written: revenue is up 12%."
	if len(done) != 1 || done[0].DeliverySummary == nil || done[0].DeliverySummary.Text != want || done[0].Record.ResultSummary != want {
		t.Fatalf("completed = %+v", done)
	}
	var brief *messages.Brief
	for _, b := range eventsOf[messages.BriefRecorded](t, h, messages.EventBriefRecorded) {
		if b.Brief.WorkItemID == id {
			brief = &b.Brief
		}
	}
	if brief == nil || brief.Kind != messages.BriefResult || brief.Text != want {
		t.Fatalf("result brief = %+v", brief)
	}
	if st.CurrentWorkItemID != "" || len(st.DeliverySummaries) != 1 {
		t.Fatalf("state current %q, summaries %+v", st.CurrentWorkItemID, st.DeliverySummaries)
	}

	// The request after the update projected the current item in full.
	reqs := p.requests()
	ctx := contextText(reqs[2])
	for _, s := range []string{"Current work item:", id, "plan ready", "[completed] Draft", "[in_progress] Review", "preview cut"} {
		if !strings.Contains(ctx, s) {
			t.Errorf("context of round 3 lacks %q:\n%s", s, ctx)
		}
	}

	items, err := h.Runtime.WorkItems(context.Background(), "main")
	if err != nil || len(items) != 1 {
		t.Fatalf("WorkItems = %+v, %v", items, err)
	}
	v := items[0]
	sum := sha256.Sum256([]byte(plan))
	path := filepath.Join(h.Home, "agents", "main", "work-items", id, "plan.md")
	pa := v.PlanArtifact
	if pa == nil || pa.Path != path || pa.Bytes != int64(len(plan)) || pa.Hash != "sha256:"+hex.EncodeToString(sum[:]) ||
		pa.PreviewComplete || len([]rune(pa.Preview)) != 1200 || !strings.HasPrefix(plan, pa.Preview) {
		t.Fatalf("plan artifact = %+v", pa)
	}
	if v.State != messages.WorkItemStateCompleted || v.Readiness != actors.ReadyCompleted || v.CompletionReport == nil ||
		v.CompletionReport.Text != want || v.BlockedBy != "" {
		t.Fatalf("view = %+v", v)
	}
	if ticks := workTicks(t, h); len(ticks) != 0 {
		t.Fatalf("work ticks %v after completion, want none", ticks)
	}
}

func quote(s string) string {
	b := new(strings.Builder)
	fmt.Fprintf(b, "%q", s)
	return b.String()
}

// TestCompleteWithoutReportAndBadInput: a completion without same-round
// text succeeds with a structured warning and records no summary; bad
// input is a clear tool error that changes nothing.
func TestCompleteWithoutReportAndBadInput(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.CreateWorkItemToolName, `{"objective":"Rotate the keys"}`)),
		reply("",
			call("c2", actors.UpdateWorkItemToolName, `{"work_item_id":"wi_nope","plan_status":"ready"}`),
			call("c3", actors.UpdateWorkItemToolName, `{"work_item_id":"%s","recheck_after":5000}`),
			call("c4", actors.UpdateWorkItemToolName, `{"work_item_id":"%s","todo_list":[{"text":"x","state":"done"}]}`),
			call("c5", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`),
			call("c6", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`),
			call("c7", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Done."),
	}}
	h := workHarness(t, p, nil)
	h.Prompt("main", "Rotate the keys.")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	results := map[string]messages.ToolExecuted{}
	for _, e := range eventsOf[messages.ToolExecuted](t, h, messages.EventToolExecuted) {
		results[e.CallID] = e
	}
	for call, want := range map[string]string{"c2": "work_item_not_found", "c3": "recheck_after", "c4": "invalid_tool_input",
		"c7": "work_item_completed"} {
		if r := results[call]; r.Status != messages.ToolError || !strings.Contains(string(r.Envelope), want) {
			t.Errorf("%s = %s %s, want an error naming %s", call, r.Status, r.Envelope, want)
		}
	}
	if r := results["c6"]; r.Status != messages.ToolOK || !strings.Contains(string(r.Envelope), "missing_completion_report") {
		t.Fatalf("complete without text = %s %s, want ok with a warning", r.Status, r.Envelope)
	}
	if n := len(eventsOf[messages.WorkItemUpdated](t, h, messages.EventWorkItemUpdated)); n != 0 {
		t.Fatalf("%d updates recorded from bad input, want 0", n)
	}
	done := eventsOf[messages.WorkItemCompleted](t, h, messages.EventWorkItemCompleted)
	if len(done) != 1 || done[0].DeliverySummary != nil || done[0].Record.ResultSummary != "" {
		t.Fatalf("completed = %+v, want no summary", done)
	}
	for _, b := range eventsOf[messages.BriefRecorded](t, h, messages.EventBriefRecorded) {
		if b.Brief.WorkItemID != "" {
			t.Fatalf("a work-item brief without a report: %+v", b.Brief)
		}
	}
}

// TestNoWorkItemsNoProjection: without work items the prompt is the
// message-driven one and nothing activates.
func TestNoWorkItemsNoProjection(t *testing.T) {
	p := &dynProvider{steps: []dynStep{reply("Hello.")}}
	h := workHarness(t, p, nil)
	h.Prompt("main", "hi")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	settle(t, h)
	if ctx := contextText(p.requests()[0]); strings.Contains(ctx, "Work queue") || strings.Contains(ctx, "wi_") {
		t.Fatalf("context = %q, want no work queue", ctx)
	}
	if ticks := workTicks(t, h); len(ticks) != 0 {
		t.Fatalf("ticks = %v", ticks)
	}
}

// TestWorkQueueActivationAndBackoff: an enqueued item wakes an idle agent
// to pick it; the picked runnable current item is continued by a system
// tick; a tick whose turn makes no progress backs off (30s, then 1m) on
// the clock instead of spinning.
func TestWorkQueueActivationAndBackoff(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Picked it."),
		reply("Nothing to do right now."),
		reply("Still nothing."),
	}}
	h := workHarness(t, p, nil)
	ctx := context.Background()
	v, err := h.Runtime.EnqueueWorkItem(ctx, "main", "Tidy the docs")
	if err != nil || v.State != messages.WorkItemStateOpen || v.Current {
		t.Fatalf("enqueue = %+v, %v", v, err)
	}
	backoff := func(n int) messages.TimerScheduled {
		ev := h.WaitEvent("main", func(ev messages.Event) bool {
			if ev.Type != messages.EventTimerScheduled {
				return false
			}
			ts := decode[messages.TimerScheduled](t, ev)
			if ts.Purpose == messages.TimerWorkItemBackoff {
				n--
			}
			return n == 0
		})
		return decode[messages.TimerScheduled](t, ev)
	}
	first := backoff(1)
	settle(t, h)
	if ticks := workTicks(t, h); strings.Join(ticks, ",") != "pick:"+v.ID+",continue:"+v.ID {
		t.Fatalf("ticks = %v, want a pick tick then one continue tick", ticks)
	}
	if !first.DueAt.Equal(h.Clock.Now().Add(30*time.Second)) || first.WorkItemID != v.ID {
		t.Fatalf("first backoff = %+v, want %v", first, h.Clock.Now().Add(30*time.Second))
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(29 * time.Second)
	if ticks := workTicks(t, h); len(ticks) != 2 {
		t.Fatalf("ticks before the backoff ended = %v", ticks)
	}
	h.Clock.Advance(time.Second)
	second := backoff(2)
	if !second.DueAt.Equal(h.Clock.Now().Add(time.Minute)) {
		t.Fatalf("second backoff due %v, want +1m", second.DueAt)
	}
	settle(t, h)
	if ticks := workTicks(t, h); len(ticks) != 3 {
		t.Fatalf("ticks = %v, want 3", ticks)
	}
	if n := len(p.requests()); n != 4 {
		t.Fatalf("%d model calls, want 4 (no spinning)", n)
	}
	// The pick tick's turn started with no current item; both continue
	// ticks' turns are bound to the item they continue.
	bound := eventsOf[messages.WorkItemBound](t, h, messages.EventWorkItemBound)
	if len(bound) != 2 || bound[0].WorkItemID != v.ID || bound[1].WorkItemID != v.ID {
		t.Fatalf("bound = %+v, want the two continue turns bound to %s", bound, v.ID)
	}
}

// TestRecheckFiresOnceAcrossRestart: a blocked current item's recheck
// timer survives a crash, fires once as a low-priority SystemTick naming
// the item and records recheck_consumed_at; a later restart does not
// deliver it again. The blocked item never activates by itself.
func TestRecheckFiresOnceAcrossRestart(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`),
			call("c2", actors.UpdateWorkItemToolName, `{"work_item_id":"%s","blocked_by":"waiting for CI","recheck_after":60000}`)),
		reply("Blocked on CI."),
		reply("CI is still running."),
	}}
	h := workHarness(t, p, nil)
	v, err := h.Runtime.EnqueueWorkItem(context.Background(), "main", "Merge the release branch")
	if err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	st := settle(t, h)
	rec := st.WorkItems[v.ID]
	if rec == nil || rec.BlockedBy != "waiting for CI" || rec.RecheckAt == nil || !rec.RecheckAt.Equal(h.Clock.Now().Add(time.Minute)) {
		t.Fatalf("record = %+v", rec)
	}
	waitArmed(t, h, 1)
	h.Store().Crash()
	h.Clock.Advance(2 * time.Minute)
	h.Restart()
	consumed := decode[messages.WorkItemRecheckConsumed](t, h.WaitEvent("main", testkit.OfType(messages.EventWorkItemRecheckConsumed)))
	if consumed.WorkItemID != v.ID || !consumed.RecheckAt.Equal(*rec.RecheckAt) {
		t.Fatalf("consumed = %+v", consumed)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	h.Restart()
	h.Clock.Advance(time.Hour)
	st = settle(t, h)
	if n := len(eventsOf[messages.WorkItemRecheckConsumed](t, h, messages.EventWorkItemRecheckConsumed)); n != 1 {
		t.Fatalf("recheck consumed %d times, want 1", n)
	}
	if r := st.WorkItems[v.ID]; r.RecheckConsumedAt == nil || r.BlockedBy == "" {
		t.Fatalf("record after recheck = %+v", r)
	}
	if ticks := workTicks(t, h); strings.Join(ticks, ",") != "pick:"+v.ID+",recheck:"+v.ID {
		t.Fatalf("ticks = %v, want the pick and one recheck", ticks)
	}
	if !strings.Contains(lastMessageText(p.requests()), "recheck the blocker of work item "+v.ID) {
		t.Fatal("the recheck tick does not name the item")
	}
}

func lastMessageText(reqs []providers.Request) string {
	conv := reqs[len(reqs)-1].Conversation
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Kind == providers.ItemMessage {
			return conv[i].Text
		}
	}
	return ""
}

// TestStaleProgressReminder: after N model rounds without a work-item
// mutation the next request carries a reminder (completed todos omitted),
// then again only after the cooldown; a mutation restarts the count.
func TestStaleProgressReminder(t *testing.T) {
	echo := call("e", "echo", `{"text":"working"}`)
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`),
			call("c2", actors.UpdateWorkItemToolName, `{"work_item_id":"%s","todo_list":[{"text":"Old step","state":"completed"},{"text":"Next step","state":"pending"}]}`)),
		reply("", echo), reply("", echo), reply("", echo), reply("", echo), reply("", echo), reply("", echo),
		reply("Finished.", call("c3", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Done."),
	}}
	h := workHarness(t, p, func(d *actors.AgentDeps) {
		d.WorkItemReminder = actors.WorkItemReminder{Rounds: 2, CooldownRounds: 2, MaxTokens: 100}
		d.LoopBreakerRepeats = -1 // the same echo six times in a row is the point here
	})
	if _, err := h.Runtime.EnqueueWorkItem(context.Background(), "main", "Refactor the parser"); err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("main", testkit.OfType(messages.EventWorkItemCompleted))
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	settle(t, h)
	var with []int
	for i, req := range p.requests() {
		ctx := contextText(req)
		if i := strings.Index(ctx, "Work-item reminder"); i >= 0 {
			r := ctx[i:]
			if !strings.Contains(r, "Next step") || strings.Contains(r, "Old step") || len(r) > 400 {
				t.Errorf("reminder = %q", r)
			}
		}
		if strings.Contains(ctx, "Work-item reminder") {
			with = append(with, i)
		}
	}
	if fmt.Sprint(with) != "[3 5 7]" {
		t.Fatalf("reminders in requests %v, want [3 5 7]", with)
	}
	for _, ev := range h.Events("main") {
		if strings.Contains(string(ev.Payload), "Work-item reminder") {
			t.Fatalf("the reminder was journaled: %s", ev.Type)
		}
	}
}

// TestPlanWithoutHome: without an agent home the plan is not stored; the
// item is created with a warning and no artifact.
func TestPlanWithoutHome(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.CreateWorkItemToolName, `{"objective":"Sketch","plan":"step one"}`)),
		reply("ok"),
	}}
	h := testkit.NewWith(t, testkit.Options{Deps: func(_ string, d *actors.AgentDeps) { d.Provider = p }})
	h.Prompt("main", "sketch")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	items, err := h.Runtime.WorkItems(context.Background(), "main")
	if err != nil || len(items) != 1 || items[0].PlanArtifact != nil {
		t.Fatalf("items = %+v, %v", items, err)
	}
	r := eventsOf[messages.ToolExecuted](t, h, messages.EventToolExecuted)[0]
	if r.Status != messages.ToolOK || !strings.Contains(string(r.Envelope), "plan_not_stored") {
		t.Fatalf("create = %s", r.Envelope)
	}
	if _, err := os.Stat(filepath.Join(h.Home, "agents")); err == nil {
		t.Fatal("an agent home was created")
	}
}

// TestTurnEndBlocksBoundItemOnTasks: a turn bound to the current item that
// ends waiting on its background task commits a runtime blocker on that
// item (with a recheck), so the item waits instead of being re-activated.
func TestTurnEndBlocksBoundItemOnTasks(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Picked."),
		reply("", call("c2", "ExecCommand", `{"cmd": "sleep 30", "yield_time_ms": 50}`)),
		reply("The build runs in the background."),
	}}
	h := testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		withTools(t)(home, d)
		d.Provider = p
	}})
	v, err := h.Runtime.EnqueueWorkItem(context.Background(), "main", "Build the release")
	if err != nil {
		t.Fatal(err)
	}
	upd := decode[messages.WorkItemUpdated](t, h.WaitEvent("main", testkit.OfType(messages.EventWorkItemUpdated)))
	if upd.Record.ID != v.ID || !strings.HasPrefix(upd.Record.BlockedBy, "awaiting task results: task_") || upd.Record.RecheckAt == nil {
		t.Fatalf("turn-end commit = %+v", upd.Record)
	}
	items, err := h.Runtime.WorkItems(context.Background(), "main")
	if err != nil || len(items) != 1 || items[0].SchedulingState != actors.SchedWaitingTask || items[0].Readiness != actors.ReadyBlocked {
		t.Fatalf("items = %+v, %v", items, err)
	}
	if ticks := workTicks(t, h); len(ticks) != 2 {
		t.Fatalf("ticks = %v, want the pick and one continue, none while waiting", ticks)
	}
}

// TestWorkClosure: a turn that leaves persisted runnable work ends
// continuable with a work signal: activate_queued for a queued item (the
// model must pick it), continue_active for the current one; once the
// work is done the closure is completed.
func TestWorkClosure(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.CreateWorkItemToolName, `{"objective":"Tidy the docs"}`)),
		reply("Queued."),
		reply("", call("c2", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Picked."),
		reply("The docs are tidy.", call("c3", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Done."),
	}}
	h := workHarness(t, p, nil)
	h.Prompt("main", "Plan the docs work.")
	var got []string
	for n := 1; n <= 3; n++ {
		tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, n)))
		if err := tt.Closure.Validate(); err != nil {
			t.Fatalf("turn %d closure: %v", n, err)
		}
		s := string(tt.Closure.Outcome)
		if w := tt.Closure.WorkSignal; w != nil {
			s += ":" + w.Status + ":" + w.ReactivationMode
		}
		got = append(got, s)
	}
	want := "[continuable:queued:activate_queued continuable:active:continue_active completed]"
	if fmt.Sprint(got) != want {
		t.Fatalf("closures = %v, want %s", got, want)
	}
}

// TestWorkTraceProjection: the turns bound to the current work item leave
// a bounded trace of what was said and done, which the next request's
// projection shows; completing the item drops it.
func TestWorkTraceProjection(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.CreateWorkItemToolName, `{"objective":"Tidy the docs"}`)),
		reply("", call("c2", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Picked it."),
		// the continue tick's turn, bound to the item
		reply("Checking the index first.", call("e1", "echo", `{"text":"index ok"}`)),
		reply("The index is fine; next the glossary."),
		// the next continue tick's turn
		reply("All tidy.", call("c3", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Done."),
	}}
	h := testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		d.Provider = p
		d.ToolEnv.Home = home
	}})
	h.Prompt("main", "Tidy the docs.")
	h.WaitEvent("main", testkit.OfType(messages.EventWorkItemCompleted))
	reqs := p.requests()
	ctx := contextText(reqs[5])
	i := strings.Index(ctx, "Recent progress on it")
	if i < 0 {
		t.Fatalf("no trace in the projection:\n%s", ctx)
	}
	trace := ctx[i:]
	for _, want := range []string{"said: Checking the index first.", "echo ok: ", "said: The index is fine; next the glossary."} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %q:\n%s", want, trace)
		}
	}
	if st := settle(t, h); len(st.WorkTrace) != 0 {
		t.Fatalf("trace after completion = %v", st.WorkTrace)
	}
}

// TestCurrentItemWaitsWithItsAgent: while its agent rests until woken the
// current item is waiting_external (readiness blocked), so nothing
// activates it; a wake makes it runnable again and it continues.
func TestCurrentItemWaitsWithItsAgent(t *testing.T) {
	p := &dynProvider{steps: []dynStep{
		reply("", call("c1", actors.CreateWorkItemToolName, `{"objective":"Watch the deploy"}`)),
		reply("", call("c2", actors.PickWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Waiting for the deploy.", call("s1", actors.SleepToolName, `{"reason":"the deploy webhook wakes me"}`)),
		reply("The deploy is done.", call("c3", actors.CompleteWorkItemToolName, `{"work_item_id":"%s"}`)),
		reply("Done."),
	}}
	h := workHarness(t, p, nil)
	ctx := context.Background()
	h.Prompt("main", "Watch the deploy.")
	h.WaitEvent("main", statusIs(messages.StatusAsleep))
	items, err := h.Runtime.WorkItems(ctx, "main")
	if err != nil || len(items) != 1 || items[0].SchedulingState != actors.SchedWaitingExternal || items[0].Readiness != actors.ReadyBlocked {
		t.Fatalf("items while asleep = %+v, %v", items, err)
	}
	if ticks := workTicks(t, h); len(ticks) != 0 {
		t.Fatalf("work ticks while the agent rests: %v", ticks)
	}
	if _, err := h.Runtime.WakeHint(ctx, "main", "deploy", "finished", true); err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("main", testkit.OfType(messages.EventWorkItemCompleted))
}
