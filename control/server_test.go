package control_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

var update = flag.Bool("update", false, "rewrite openapi.json from the routes")

// fixture is a harness runtime served on a real unix socket.
type fixture struct {
	h        *testkit.Harness
	srv      *control.Server
	c        *control.Client
	sock     string
	shutdown chan struct{}
}

func newFixture(t *testing.T, steps ...testkit.Step) *fixture {
	t.Helper()
	return newFixtureWith(t, nil, steps...)
}

// newFixtureWith is newFixture with a change to the server's config.
func newFixtureWith(t *testing.T, mutate func(*control.Config), steps ...testkit.Step) *fixture {
	t.Helper()
	h := testkit.New(t, steps...)
	// Info answers after the agent's start (and creation) is durable.
	if _, err := h.Runtime.Info(context.Background(), "main"); err != nil {
		t.Fatal(err)
	}
	f := &fixture{h: h, sock: filepath.Join(t.TempDir(), "run", "control.sock"), shutdown: make(chan struct{}, 4)}
	cfg := control.Config{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock, Log: zerolog.Nop(),
		Info:     control.RuntimeInfo{PID: os.Getpid(), HomeDir: h.Home, SocketPath: f.sock, Version: "test"},
		Shutdown: func() { f.shutdown <- struct{}{} }}
	if mutate != nil {
		mutate(&cfg)
	}
	f.srv = control.NewServer(cfg)
	l, err := control.ListenUnix(f.sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.srv.Serve(l) }()
	f.c = control.NewUnixClient(f.sock)
	t.Cleanup(func() {
		f.c.Close()
		if err := f.srv.Close(context.Background()); err != nil {
			t.Errorf("close server: %v", err)
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve = %v, want ErrServerClosed", err)
		}
	})
	return f
}

// raw sends a request with a raw body over the socket.
func (f *fixture) raw(t *testing.T, method, path, body string, header ...string) (*http.Response, string) {
	t.Helper()
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", f.sock)
	}}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequest(method, "http://holon"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp, b.String()
}

func apiError(t *testing.T, err error, status int, kind string) *control.Error {
	t.Helper()
	var e *control.Error
	if !errors.As(err, &e) || e.Status != status || e.Kind != kind {
		t.Fatalf("error = %v (%#v), want HTTP %d %s", err, e, status, kind)
	}
	if e.Message == "" || e.Hint == "" {
		t.Errorf("error %+v: want a message and a hint", e)
	}
	return e
}

func TestPromptAndInspect(t *testing.T) {
	f := newFixture(t, testkit.Reply("Hello, operator."))
	ctx := context.Background()
	res, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "hi", Priority: "next"})
	if err != nil || res.MessageID == "" || res.EventSeq == 0 || res.Duplicate {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))

	briefs, err := f.c.Briefs(ctx, "main")
	if err != nil || len(briefs) != 1 || briefs[0].Text != "Hello, operator." || briefs[0].RelatedMessageID != res.MessageID {
		t.Fatalf("Briefs = %+v, %v", briefs, err)
	}
	items, err := f.c.Transcript(ctx, "main")
	if err != nil || len(items) != 2 || items[0].Text != "hi" || items[1].Text != "Hello, operator." {
		t.Fatalf("Transcript = %+v, %v", items, err)
	}
	st, err := f.c.Status(ctx, "main")
	if err != nil || st.ID != "main" || st.Kind != messages.AgentDefault || st.TotalModelRounds != 1 || st.LastClosure == nil {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	var alias control.AgentSummary
	resp, body := f.raw(t, "GET", "/status", "")
	if resp.StatusCode != 200 || !strings.Contains(body, `"agent_id": "main"`) {
		t.Fatalf("GET /status = %d %s", resp.StatusCode, body)
	}
	_ = alias
	state, err := f.c.State(ctx, "main")
	if err != nil || state.Agent.ID != "main" || state.LastEventSeq == 0 || state.Conversation != 2 {
		t.Fatalf("State = %+v, %v", state, err)
	}
	// A retried prompt with the same message id is admitted once.
	again, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "hi", MessageID: res.MessageID})
	if err != nil || !again.Duplicate || again.MessageID != res.MessageID {
		t.Fatalf("retried Prompt = %+v, %v; want the duplicate acknowledged", again, err)
	}
}

func TestCreateAndListAgents(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	in, err := f.c.CreateAgent(ctx, "reviewer")
	if err != nil || in.ID != "reviewer" || in.Kind != messages.AgentNamed || in.Status != messages.StatusAwakeIdle {
		t.Fatalf("CreateAgent = %+v, %v", in, err)
	}
	_, err = f.c.CreateAgent(ctx, "reviewer")
	apiError(t, err, http.StatusConflict, control.KindConflict)
	_, err = f.c.CreateAgent(ctx, "../etc")
	apiError(t, err, http.StatusUnprocessableEntity, control.KindInvalid)
	list, err := f.c.Agents(ctx)
	if err != nil || len(list) != 2 || list[0].ID != "main" || list[1].ID != "reviewer" {
		t.Fatalf("Agents = %+v, %v", list, err)
	}
	// A dormant agent is listed from its snapshot without activating it.
	if err := f.h.Runtime.PassivateIdle(ctx); err != nil {
		t.Fatal(err)
	}
	f.h.GracefulRestart()
	srv := control.NewServer(control.Config{Runtime: f.h.Runtime, Store: f.h.Store(), Clock: f.h.Clock})
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/agents/list", nil))
	var out struct{ Agents []agentstate.AgentInfo }
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || len(out.Agents) != 2 || out.Agents[1].Active ||
		out.Agents[1].Status != messages.StatusAwakeIdle || out.Agents[1].Kind != messages.AgentNamed {
		t.Fatalf("Agents after restart = %s (%v); want reviewer listed, dormant", rec.Body, err)
	}
	if active := f.h.Runtime.Active(); len(active) != 0 {
		t.Fatalf("listing activated %v", active)
	}
}

func TestLifecycleAndStoppedBoundary(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	res, err := f.c.Lifecycle(ctx, "main", actors.OpStop, "")
	if err != nil || res.Status != messages.StatusStopped {
		t.Fatalf("stop = %+v, %v", res, err)
	}
	_, err = f.c.Prompt(ctx, "main", control.PromptRequest{Text: "hello?"})
	apiError(t, err, http.StatusConflict, control.KindAgentStopped)
	_, err = f.c.Lifecycle(ctx, "main", actors.OpWake, "")
	apiError(t, err, http.StatusConflict, control.KindResumeRequired)
	if res, err = f.c.Lifecycle(ctx, "main", actors.OpResume, "back to work"); err != nil || res.Status != messages.StatusAwakeIdle {
		t.Fatalf("resume = %+v, %v", res, err)
	}
}

// TestBadRequestsChangeNothing: every refused request leaves the journal
// as it was and says what was wrong.
func TestBadRequestsChangeNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	before, err := f.h.Store().HighestSeq(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	tests := []struct {
		name, method, path, body string
		status                   int
		kind                     string
	}{
		{"malformed", "POST", "/control/agents/main/prompt", `{"text": `, 400, control.KindBadRequest},
		{"unknown field", "POST", "/control/agents/main/prompt", `{"txt": "hi"}`, 400, control.KindBadRequest},
		{"two objects", "POST", "/control/agents/main/prompt", `{"text": "a"} {"text": "b"}`, 400, control.KindBadRequest},
		{"too deep", "POST", "/control/agents/main/prompt", deep, 400, control.KindBadRequest},
		{"oversized", "POST", "/control/agents/main/prompt", `{"text": "` + strings.Repeat("x", control.MaxBodyBytes) + `"}`, 413, control.KindTooLarge},
		{"empty text", "POST", "/control/agents/main/prompt", `{"text": ""}`, 422, control.KindInvalid},
		{"bad priority", "POST", "/control/agents/main/prompt", `{"text": "hi", "priority": "urgent"}`, 422, control.KindInvalid},
		{"unknown agent", "POST", "/control/agents/ghost/prompt", `{"text": "hi"}`, 404, control.KindNotFound},
		{"unknown agent status", "GET", "/agents/ghost/status", "", 404, control.KindNotFound},
		{"unknown agent respond", "POST", "/control/agents/ghost/suspensions/susp_1/respond", `{"value": "yes"}`, 404, control.KindNotFound},
		{"unknown agent suspensions", "GET", "/agents/ghost/suspensions", "", 404, control.KindNotFound},
		{"unknown agent notifications", "GET", "/agents/ghost/notifications", "", 404, control.KindNotFound},
		{"respond unknown field", "POST", "/control/agents/main/suspensions/susp_1/respond", `{"value": "yes", "by": "me"}`, 400, control.KindBadRequest},
		{"bad suspension state", "GET", "/agents/main/suspensions?state=closed", "", 400, control.KindBadRequest},
		{"bad cursor", "GET", "/agents/main/events?after=-1", "", 400, control.KindBadRequest},
		{"bad limit", "GET", "/agents/main/events?limit=100000", "", 400, control.KindBadRequest},
		{"unknown route", "GET", "/nope", "", 404, control.KindNotFound},
		{"wrong method", "DELETE", "/agents/list", "", 405, control.KindMethod},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.raw(t, tt.method, tt.path, tt.body)
			if resp.StatusCode != tt.status || !strings.Contains(body, `"kind":"`+tt.kind+`"`) ||
				!strings.Contains(body, `"hint":`) || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%s %s = %d %s, want %d %s with a hint", tt.method, tt.path, resp.StatusCode, body, tt.status, tt.kind)
			}
		})
	}
	if after, err := f.h.Store().HighestSeq(ctx, "main"); err != nil || after != before {
		t.Fatalf("journal moved from %d to %d (%v): a refused request changed state", before, after, err)
	}
	if exists, _ := f.h.Runtime.Exists(ctx, "ghost"); exists {
		t.Fatal("a request for an unknown agent created it")
	}
}

// TestConcurrentClientsLoseNothing: prompts from many clients at once are
// all admitted, each exactly once.
func TestConcurrentClientsLoseNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.c.Lifecycle(ctx, "main", actors.OpPause, "hold the queue"); err != nil {
		t.Fatal(err)
	}
	const clients, each = 8, 25
	ids := make(chan string, clients*each)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := control.NewUnixClient(f.sock)
			defer c.Close()
			for j := range each {
				res, err := c.Prompt(ctx, "main", control.PromptRequest{Text: fmt.Sprintf("client %d prompt %d", i, j)})
				if err != nil {
					t.Error(err)
					return
				}
				ids <- res.MessageID
			}
		}()
	}
	wg.Wait()
	close(ids)
	acked := map[string]bool{}
	for id := range ids {
		acked[id] = true
	}
	state, err := f.c.State(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	queued := map[string]bool{}
	for _, q := range state.Queue {
		queued[q.MessageID] = true
	}
	if len(acked) != clients*each || len(queued) != clients*each {
		t.Fatalf("%d acknowledged, %d queued; want %d each", len(acked), len(queued), clients*each)
	}
	for id := range acked {
		if !queued[id] {
			t.Fatalf("acknowledged %s is not queued", id)
		}
	}
}

func TestRuntimeStatusAndShutdown(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st, err := f.c.RuntimeStatus(ctx)
	if err != nil || !st.Healthy || st.PID != os.Getpid() || st.SocketPath != f.sock || st.Activity.State != "idle" ||
		st.Activity.ActiveAgentCount != 1 {
		t.Fatalf("RuntimeStatus = %+v, %v", st, err)
	}
	for range 2 {
		if err := f.c.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	<-f.shutdown
	select {
	case <-f.shutdown:
		t.Fatal("Shutdown callback ran twice")
	default:
	}
}

func TestSocketFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	sock := filepath.Join(dir, "control.sock")
	l, err := control.ListenUnix(sock)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, sock: 0o600} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}
	// A live socket is not taken over.
	if _, err := control.ListenUnix(sock); !errors.Is(err, control.ErrSocketInUse) {
		t.Fatalf("second ListenUnix = %v, want ErrSocketInUse", err)
	}
	// A stale one (its listener gone, the file left) is replaced.
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	l2, err := control.ListenUnix(sock)
	if err != nil {
		t.Fatalf("ListenUnix over a stale socket: %v", err)
	}
	l2.Close()
	// Anything that is not a socket is left alone.
	plain := filepath.Join(dir, "file.sock")
	if err := os.WriteFile(plain, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := control.ListenUnix(plain); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("ListenUnix over a file = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(plain); string(b) != "keep me" {
		t.Fatal("the file was changed")
	}
}

func TestClientNotRunning(t *testing.T) {
	c := control.NewUnixClient(filepath.Join(t.TempDir(), "control.sock"))
	defer c.Close()
	if _, err := c.RuntimeStatus(context.Background()); !errors.Is(err, control.ErrNotRunning) {
		t.Fatalf("RuntimeStatus = %v, want ErrNotRunning", err)
	}
}

func TestOpenAPIInSync(t *testing.T) {
	f := newFixture(t)
	want, err := control.BuildOpenAPI(f.srv.Routes())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("openapi.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := f.raw(t, "GET", "/openapi.json", "")
	if resp.StatusCode != 200 || body != string(want) {
		t.Fatalf("served openapi.json differs from the routes (go test ./control -run OpenAPI -update rewrites it)")
	}
}

// TestEventsPagesAndStream: JSON pages cover the journal without a gap;
// the event stream replays, then delivers live, and resumes from a cursor
// with no gap and no duplicate.
func TestEventsPagesAndStream(t *testing.T) {
	f := newFixture(t, testkit.Reply("first"), testkit.Reply("second"))
	ctx := context.Background()
	first, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "one"})
	if err != nil {
		t.Fatal(err)
	}
	// Settled: created→idle, idle→running, running→idle.
	f.h.WaitEvent("main", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	high, _ := f.h.Store().HighestSeq(ctx, "main")

	var seqs []uint64
	for after := uint64(0); ; {
		page, err := f.c.Events(ctx, "main", after, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Events) == 0 {
			break
		}
		for _, ev := range page.Events {
			seqs = append(seqs, ev.Provenance.EventSeq)
			if !ev.Provenance.Replayed || ev.Presentation.SourceEventKind != ev.Provenance.Kind {
				t.Fatalf("event %+v: want replayed with its source kind", ev.Provenance)
			}
			if ev.Provenance.Kind == messages.EventMessageAdmitted &&
				(ev.Provenance.MessageID != first.MessageID || ev.Provenance.AuthorityClass != messages.AuthorityOperatorInstruction) {
				t.Fatalf("admission provenance %+v", ev.Provenance)
			}
		}
		after = page.NextAfter
	}
	assertConsecutive(t, seqs, 1, high)

	// Follow from the start: replay, then the second turn live.
	replayed := make(chan struct{})
	var streamed []control.StreamEvent
	done := make(chan error, 1)
	go func() {
		_, err := f.c.Follow(ctx, "main", 0, func(ev control.StreamEvent) error {
			streamed = append(streamed, ev)
			if ev.Provenance.EventSeq == high {
				close(replayed)
			}
			if ev.Provenance.Kind == messages.EventBriefRecorded && ev.Presentation.Body == "second" {
				return control.ErrStop
			}
			return nil
		})
		done <- err
	}()
	<-replayed
	if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "two"}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	last := streamed[len(streamed)-1]
	if last.Provenance.Replayed || last.Presentation.Visibility != control.VisibilityTurnResult {
		t.Fatalf("live brief %+v: want live, turn_result", last)
	}
	seqs = seqs[:0]
	for _, ev := range streamed {
		seqs = append(seqs, ev.Provenance.EventSeq)
	}
	assertConsecutive(t, seqs, 1, last.Provenance.EventSeq)

	// Resume from the middle (Last-Event-ID) up to what exists now.
	end := last.Provenance.EventSeq
	var resumed []uint64
	got, err := f.c.Follow(ctx, "main", high, func(ev control.StreamEvent) error {
		resumed = append(resumed, ev.Provenance.EventSeq)
		if ev.Provenance.EventSeq == end {
			return control.ErrStop
		}
		return nil
	})
	if err != nil || got != end {
		t.Fatalf("resumed Follow = %d, %v; want %d", got, err, end)
	}
	assertConsecutive(t, resumed, high+1, end)
}

func assertConsecutive(t *testing.T, seqs []uint64, from, to uint64) {
	t.Helper()
	if uint64(len(seqs)) != to-from+1 {
		t.Fatalf("got seqs %v, want %d..%d", seqs, from, to)
	}
	for i, s := range seqs {
		if s != from+uint64(i) {
			t.Fatalf("got seqs %v, want %d..%d without gap or duplicate", seqs, from, to)
		}
	}
}

// TestModelOverride: the override is journaled, shown in the status, and
// sent with the agent's next model request; an empty model clears it.
func TestModelOverride(t *testing.T) {
	f := newFixture(t, testkit.Reply("one"), testkit.Reply("two"))
	ctx := context.Background()
	in, err := f.c.SetModel(ctx, "main", "openai/gpt-5", "try the bigger model")
	if err != nil || in.Model != "openai/gpt-5" {
		t.Fatalf("SetModel = %+v, %v", in, err)
	}
	if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	if reqs := f.h.Provider.Requests(); len(reqs) != 1 || reqs[0].Model != "openai/gpt-5" {
		t.Fatalf("the model request carried %q, want the override", reqs[0].Model)
	}
	if in, err = f.c.SetModel(ctx, "main", "", ""); err != nil || in.Model != "" {
		t.Fatalf("clear = %+v, %v", in, err)
	}
	st, err := f.c.Status(ctx, "main")
	if err != nil || st.Model != "" {
		t.Fatalf("status after clear = %+v, %v", st, err)
	}
	n := 0
	for _, ev := range f.h.Events("main") {
		if ev.Type == messages.EventAgentModelSet {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d agent_model_set events, want 2", n)
	}
}

// TestInterruptRoute: POST /control/agents/{id}/interrupt ends the turn in
// flight unless keep_message_id names it; the operator's prompt sent with
// it runs next.
func TestInterruptRoute(t *testing.T) {
	gate := make(chan struct{})
	f := newFixture(t, testkit.Step{Text: "Done.", Gate: gate})
	ctx := context.Background()
	first, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "A long job."})
	if err != nil {
		t.Fatal(err)
	}
	<-f.h.Provider.Called
	if res, err := f.c.Interrupt(ctx, "main", first.MessageID, ""); err != nil || res.Status != messages.StatusAwakeRunning {
		t.Fatalf("interrupt sparing the turn = %+v, %v", res, err)
	}
	second, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "Instead, this.", Priority: "next"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Interrupt(ctx, "main", second.MessageID, "changed my mind"); err != nil {
		t.Fatal(err)
	}
	ended := f.h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	if !strings.Contains(string(ended.Payload), `"message_id":"`+first.MessageID+`"`) || !strings.Contains(string(ended.Payload), `"kind":"aborted"`) {
		t.Fatalf("first turn ended %s", ended.Payload)
	}
	close(gate)
	next := f.h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if !strings.Contains(string(next.Payload), `"message_id":"`+second.MessageID+`"`) {
		t.Fatalf("second turn %s, want the interrupting prompt's", next.Payload)
	}
}

// TestDotSegmentAgentIDsRefused: "." and ".." are not agent ids; a path
// with them as a segment is refused, not cleaned and redirected to
// another route (GET /agents/../status would answer the default agent's
// status, as if it were agent "..").
func TestDotSegmentAgentIDsRefused(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, id := range []string{"..", "."} {
		st, err := f.c.Status(ctx, id)
		if e := apiError(t, err, 400, control.KindBadRequest); !strings.Contains(e.Message, `"`+id+`"`) {
			t.Errorf("Status(%q) = %+v, error %q: want it to name the id", id, st, e.Message)
		}
		_, err = f.c.State(ctx, id)
		apiError(t, err, 400, control.KindBadRequest)
		_, err = f.c.Lifecycle(ctx, id, actors.OpStop, "")
		apiError(t, err, 400, control.KindBadRequest)
	}
	resp, body := f.raw(t, "GET", "/agents/%2E%2E/status", "")
	if resp.StatusCode != 400 || !strings.Contains(body, `"kind":"bad_request"`) {
		t.Fatalf("GET /agents/%%2E%%2E/status = %d %s, want 400 bad_request", resp.StatusCode, body)
	}
	if info, err := f.h.Runtime.Info(ctx, "main"); err != nil || info.Status == messages.StatusStopped {
		t.Fatalf("main = %+v, %v: a refused request changed state", info, err)
	}
}
