package control_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os/user"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// ask is a model round calling RequestOperatorInput with args.
func ask(args string) testkit.Step {
	return testkit.Reply("", testkit.Call("call_ask", "RequestOperatorInput", args))
}

// refund is a choice question with descriptions.
const refund = `{"question": "Refund order #12345?", "response_type": "choice", "choices": [
	{"value": "approve", "label": "Approve refund", "description": "Issue full refund to original payment method", "style": "primary"},
	{"value": "deny", "label": "Deny refund", "style": "danger"}],
	"context": {"order_id": "12345"}, "timeout_seconds": 3600, "fallback_policy": "complete_with_fallback", "fallback_value": "deny"}`

// suspendedFixture serves a runtime whose agent main asks args and is then
// suspended awaiting the answer; the model says "resumed" after it.
func suspendedFixture(t *testing.T, args string, mutate ...func(*control.Config)) (*fixture, messages.SuspensionRecord) {
	t.Helper()
	var m func(*control.Config)
	if len(mutate) > 0 {
		m = mutate[0]
	}
	f := newFixtureWith(t, m, ask(args), testkit.Reply("resumed"))
	return f, f.suspend(t, "main")
}

// suspend prompts agent and waits until it is suspended awaiting input;
// it returns the agent's open suspension.
func (f *fixture) suspend(t *testing.T, agent string) messages.SuspensionRecord {
	t.Helper()
	f.h.Prompt(agent, "handle the refund")
	f.h.WaitEvent(agent, isStatus(messages.StatusSuspended))
	open, err := f.c.Suspensions(context.Background(), agent, true)
	if err != nil || len(open) != 1 {
		t.Fatalf("open suspensions of %s = %+v, %v; want one", agent, open, err)
	}
	return open[0]
}

func isBrief(text string) func(messages.Event) bool {
	return func(ev messages.Event) bool {
		if ev.Type != messages.EventBriefRecorded {
			return false
		}
		p, err := ev.Decode()
		return err == nil && p.(messages.BriefRecorded).Brief.Text == text
	}
}

func isStatus(s messages.AgentStatus) func(messages.Event) bool {
	return func(ev messages.Event) bool {
		if ev.Type != messages.EventAgentStateChanged {
			return false
		}
		p, err := ev.Decode()
		return err == nil && p.(messages.AgentStateChanged).To == s
	}
}

// post sends a JSON body and returns the status and raw answer.
func (f *fixture) post(t *testing.T, path, body string) (int, string) {
	t.Helper()
	resp, b := f.raw(t, "POST", path, body, "Content-Type", "application/json")
	return resp.StatusCode, b
}

func respondPath(agent, sid string) string {
	return "/control/agents/" + agent + "/suspensions/" + sid + "/respond"
}

// errorBody decodes a failed answer's error object.
func errorBody(t *testing.T, body string) control.Error {
	t.Helper()
	var out struct{ Error control.Error }
	if err := json.Unmarshal([]byte(body), &out); err != nil || out.Error.Kind == "" {
		t.Fatalf("error body %s: %v", body, err)
	}
	return out.Error
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("compact %s: %v", s, err)
	}
	return b.String()
}

// resumed reports whether the journal of agent records the end of sid.
func resumed(t *testing.T, f *fixture, agent, sid string) int {
	t.Helper()
	n := 0
	for _, ev := range f.h.Events(agent) {
		if ev.Type != messages.EventSuspensionResumed {
			continue
		}
		p, err := ev.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if p.(messages.SuspensionResumed).SuspensionID == sid {
			n++
		}
	}
	return n
}

// TestRespondMatrix: every response type refuses an invalid value with 422
// invalid_answer (valid_choices when it has choices) and leaves the
// question open; accepts a valid one with the RFC's body; answers the same
// answer again the same way; and refuses a different later one with 409.
func TestRespondMatrix(t *testing.T) {
	tests := []struct {
		name, args     string
		valid, invalid string // JSON values
		label, desc    string
		validChoices   []string
		different      string
	}{
		{name: "choice", args: refund, valid: `"approve"`, invalid: `"maybe"`, label: "Approve refund",
			desc: "Issue full refund to original payment method", validChoices: []string{"approve", "deny"}, different: `"deny"`},
		{name: "choice is the default type", args: `{"question": "Which region?", "choices": [{"value": "eu", "label": "Europe"}, {"value": "us", "label": "US"}]}`,
			valid: `"us"`, invalid: `42`, label: "US", validChoices: []string{"eu", "us"}, different: `"eu"`},
		{name: "confirm yes", args: `{"question": "Deploy to production?", "response_type": "confirm"}`,
			valid: `"yes"`, invalid: `"maybe"`, label: "Yes", validChoices: []string{"yes", "no"}, different: `"no"`},
		{name: "confirm no", args: `{"question": "Deploy to production?", "response_type": "confirm"}`,
			valid: `"no"`, invalid: `"YES!"`, label: "No", validChoices: []string{"yes", "no"}, different: `"yes"`},
		{name: "confirm with its own labels", args: `{"question": "Ship it?", "response_type": "confirm", "choices": [{"value": "yes", "label": "Ship", "description": "Roll out now"}, {"value": "no", "label": "Hold"}]}`,
			valid: `"yes"`, invalid: `"later"`, label: "Ship", desc: "Roll out now", validChoices: []string{"yes", "no"}, different: `"no"`},
		{name: "text", args: `{"question": "What should the release be called?", "response_type": "text"}`,
			valid: `"Aurora"`, invalid: `"   "`, different: `"Borealis"`},
		{name: "form", args: `{"question": "Fill in the refund", "response_type": "form", "context": {"fields": "amount, reason"}}`,
			valid: `{"amount": 12.5, "reason": "duplicate charge"}`, invalid: `"not an object"`, different: `{"amount": 1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := suspendedFixture(t, tt.args)
			path := respondPath("main", s.ID)

			// Invalid: 422 with the valid choices; the question stays open.
			for _, bad := range []string{tt.invalid, `null`} {
				code, body := f.post(t, path, `{"value": `+bad+`}`)
				e := errorBody(t, body)
				if code != http.StatusUnprocessableEntity || e.Kind != control.KindInvalidAnswer || e.Hint == "" ||
					!slices.Equal(e.ValidChoices, tt.validChoices) {
					t.Fatalf("answer %s = %d %s; want 422 invalid_answer with valid_choices %v", bad, code, body, tt.validChoices)
				}
			}
			if code, body := f.post(t, path, `{}`); code != http.StatusUnprocessableEntity {
				t.Fatalf("answer without a value = %d %s, want 422", code, body)
			}
			if open, err := f.c.Suspensions(context.Background(), "main", true); err != nil || len(open) != 1 {
				t.Fatalf("after invalid answers the open suspensions are %+v, %v; want the question still open", open, err)
			}

			// Valid: the RFC's body.
			answer := `{"value": ` + tt.valid + `, "metadata": {"channel": "cli"}}`
			code, first := f.post(t, path, answer)
			if code != http.StatusOK {
				t.Fatalf("answer %s = %d %s, want 200", tt.valid, code, first)
			}
			var res control.SuspensionResponse
			if err := json.Unmarshal([]byte(first), &res); err != nil {
				t.Fatal(err)
			}
			if res.AgentID != "main" || res.SuspensionID != s.ID || res.Resolution != messages.ResolutionResponded ||
				compactJSON(t, string(res.Value)) != compactJSON(t, tt.valid) || res.ChoiceLabel != tt.label ||
				res.ChoiceDescription != tt.desc || res.RespondedBy != socketOperator(t) || res.RespondedAt.IsZero() {
				t.Fatalf("answer body %s", first)
			}
			for _, key := range []string{"agent_id", "suspension_id", "resolution", "value", "responded_by", "responded_at"} {
				if !strings.Contains(first, `"`+key+`"`) {
					t.Errorf("answer body lacks %q: %s", key, first)
				}
			}
			f.h.WaitEvent("main", isBrief("resumed")) // the resumed turn's result

			// The same answer again: the same body. Another one: 409.
			if code, again := f.post(t, path, answer); code != http.StatusOK || again != first {
				t.Fatalf("repeated answer = %d %s, want the first answer's 200 %s", code, again, first)
			}
			code, body := f.post(t, path, `{"value": `+tt.different+`}`)
			if e := errorBody(t, body); code != http.StatusConflict || e.Kind != control.KindConflict || e.Hint == "" {
				t.Fatalf("a different answer = %d %s, want 409 conflict", code, body)
			}
			if n := resumed(t, f, "main", s.ID); n != 1 {
				t.Fatalf("%d suspension_resumed events, want 1", n)
			}
			all, err := f.c.Suspensions(context.Background(), "main", false)
			if err != nil || len(all) != 1 || all[0].Open() || all[0].Resolution != messages.ResolutionResponded ||
				compactJSON(t, string(all[0].Response)) != compactJSON(t, tt.valid) {
				t.Fatalf("suspensions after the answer = %+v, %v", all, err)
			}
		})
	}
}

// TestRespondErrors: unknown agents and suspensions are 404 (and create
// nothing); an agent that is not suspended is 409; a refused body is 400.
func TestRespondErrors(t *testing.T) {
	f, s := suspendedFixture(t, refund)
	ctx := context.Background()
	tests := []struct {
		name, path, body string
		status           int
		kind             string
	}{
		{"unknown agent", respondPath("ghost", s.ID), `{"value": "approve"}`, 404, control.KindNotFound},
		{"unknown agent cancel", "/control/agents/ghost/suspensions/" + s.ID + "/cancel", `{}`, 404, control.KindNotFound},
		{"unknown suspension", respondPath("main", "susp_nope"), `{"value": "approve"}`, 404, control.KindNotFound},
		{"unknown suspension cancel", "/control/agents/main/suspensions/susp_nope/cancel", `{}`, 404, control.KindNotFound},
		{"unknown field", respondPath("main", s.ID), `{"value": "approve", "suspension_id": "` + s.ID + `"}`, 400, control.KindBadRequest},
		{"not JSON", respondPath("main", s.ID), `approve`, 400, control.KindBadRequest},
		{"cancel unknown field", "/control/agents/main/suspensions/" + s.ID + "/cancel", `{"why": "x"}`, 400, control.KindBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := f.post(t, tt.path, tt.body)
			if e := errorBody(t, body); code != tt.status || e.Kind != tt.kind || e.Hint == "" || e.Message == "" {
				t.Fatalf("POST %s = %d %s, want %d %s with a message and a hint", tt.path, code, body, tt.status, tt.kind)
			}
		})
	}
	for _, path := range []string{"/agents/ghost/suspensions", "/agents/ghost/notifications"} {
		if resp, body := f.raw(t, "GET", path, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d %s, want 404", path, resp.StatusCode, body)
		}
	}
	if exists, _ := f.h.Runtime.Exists(ctx, "ghost"); exists {
		t.Fatal("a request for an unknown agent created it")
	}
	if open, err := f.c.Suspensions(ctx, "main", true); err != nil || len(open) != 1 || resumed(t, f, "main", s.ID) != 0 {
		t.Fatalf("after refused requests: open %+v, %v; want the question untouched", open, err)
	}

	// Paused, the agent is not suspended awaiting input: 409 until resumed.
	if res, err := f.c.Lifecycle(ctx, "main", actors.OpPause, "hold on"); err != nil || res.Status != messages.StatusPaused {
		t.Fatalf("pause = %+v, %v", res, err)
	}
	code, body := f.post(t, respondPath("main", s.ID), `{"value": "approve"}`)
	if e := errorBody(t, body); code != http.StatusConflict || e.Kind != control.KindConflict || !strings.Contains(e.Message, "not suspended") {
		t.Fatalf("answer to a paused agent = %d %s, want 409 conflict saying it is not suspended", code, body)
	}
	if res, err := f.c.Lifecycle(ctx, "main", actors.OpResume, ""); err != nil || res.Status != messages.StatusSuspended {
		t.Fatalf("resume = %+v, %v; want suspended again", res, err)
	}
	if _, err := f.c.Respond(ctx, "main", s.ID, control.RespondRequest{Value: json.RawMessage(`"approve"`)}); err != nil {
		t.Fatalf("answer after resume: %v", err)
	}
}

// TestRespondNeedsTheControlToken: on TCP the answer routes need the
// control token like every operator route; without it nothing resolves.
func TestRespondNeedsTheControlToken(t *testing.T) {
	f, s := suspendedFixture(t, refund)
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessTunnel, Token: testToken})
	send := func(path string, header ...string) (int, string) {
		return postTCP(t, base+path, `{"value": "approve"}`, header...)
	}
	respond, cancel := respondPath("main", s.ID), "/control/agents/main/suspensions/"+s.ID+"/cancel"
	for _, path := range []string{respond, cancel} {
		for name, hdr := range map[string][]string{
			"no token":    nil,
			"wrong token": {"Authorization", "Bearer " + strings.Repeat("x", len(testToken))},
		} {
			if code, body := send(path, hdr...); code != http.StatusUnauthorized || errorBody(t, body).Kind != control.KindUnauthorized {
				t.Fatalf("POST %s with %s = %d %s, want 401", path, name, code, body)
			}
		}
		if code, _ := send(path + "?token=" + testToken); code != http.StatusUnauthorized {
			t.Fatalf("POST %s with the token in the query = %d, want 401", path, code)
		}
	}
	if resumed(t, f, "main", s.ID) != 0 {
		t.Fatal("an unauthenticated request resolved the suspension")
	}
	if code, body := postTCP(t, base+respond, `{"value": "approve", "responded_by": "mallory"}`, "Authorization", "Bearer "+testToken); code != http.StatusBadRequest ||
		!strings.Contains(body, "responded_by is not taken from the request") || resumed(t, f, "main", s.ID) != 0 {
		t.Fatalf("POST %s with the token claiming who answers = %d %s, want 400 and nothing resolved", respond, code, body)
	}
	code, body := send(respond, "Authorization", "Bearer "+testToken)
	var res control.SuspensionResponse
	if code != http.StatusOK || json.Unmarshal([]byte(body), &res) != nil || res.RespondedBy != "operator:token" {
		t.Fatalf("POST %s with the token = %d %s, want 200 answered by operator:token", respond, code, body)
	}
}

// TestPublicIngressCannotAnswer: input from the public ingress is evidence
// for the agent, never an answer: the question stays open, and the answer
// routes do not exist under the public prefixes.
func TestPublicIngressCannotAnswer(t *testing.T) {
	f, s := suspendedFixture(t, refund, func(c *control.Config) { c.PublicIngress = true })
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessTunnel, Token: testToken})
	for _, body := range []string{
		`{"source": "chat", "text": "approve"}`,
		`{"source": "chat", "event": "suspension_response", "json": {"suspension_id": "` + s.ID + `", "value": "approve", "responded_by": "operator"}}`,
	} {
		resp, err := http.Post(base+"/ingress/agents/main/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("ingress %s = %d, want 202 (admitted as evidence)", body, resp.StatusCode)
		}
	}
	for _, path := range []string{"/ingress/agents/main/suspensions/" + s.ID + "/respond", "/triggers/agents/main/suspensions/" + s.ID + "/respond"} {
		resp, err := http.Post(base+path, "application/json", strings.NewReader(`{"value": "approve"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("POST %s = %d, want 404", path, resp.StatusCode)
		}
	}
	st, err := f.c.Status(context.Background(), "main")
	if err != nil || st.Status != messages.StatusSuspended || !slices.Equal(st.OpenSuspensions, []string{s.ID}) {
		t.Fatalf("status after ingress = %+v, %v; want still suspended on %s", st, err, s.ID)
	}
	if n := resumed(t, f, "main", s.ID); n != 0 {
		t.Fatalf("public ingress resolved the suspension (%d suspension_resumed)", n)
	}
}

// TestConcurrentAnswers: two different answers at once: one wins (200),
// the other is told the question is closed (409).
func TestConcurrentAnswers(t *testing.T) {
	f, s := suspendedFixture(t, refund)
	codes := make([]int, 2)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, value := range []string{"approve", "deny"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := control.NewUnixClient(f.sock)
			defer c.Close()
			<-start
			_, err := c.Respond(context.Background(), "main", s.ID, control.RespondRequest{Value: json.RawMessage(`"` + value + `"`)})
			var e *control.Error
			switch {
			case err == nil:
				codes[i] = http.StatusOK
			case errors.As(err, &e):
				codes[i] = e.Status
			default:
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	slices.Sort(codes)
	if !slices.Equal(codes, []int{http.StatusOK, http.StatusConflict}) {
		t.Fatalf("concurrent answers got %v, want one 200 and one 409", codes)
	}
	if n := resumed(t, f, "main", s.ID); n != 1 {
		t.Fatalf("%d suspension_resumed events, want 1", n)
	}
}

// TestCancelSuspension: a cancelled question answers 200 with resolution
// cancelled; an answer after it is 409.
func TestCancelSuspension(t *testing.T) {
	f, s := suspendedFixture(t, refund)
	ctx := context.Background()
	if st, err := f.c.RuntimeStatus(ctx); err != nil || st.Activity.WaitingAgentCount != 1 || st.Activity.State != "waiting" {
		t.Fatalf("runtime activity = %+v, %v; want the suspended agent waiting", st.Activity, err)
	}
	res, err := f.c.CancelSuspension(ctx, "main", s.ID, control.CancelSuspensionRequest{Reason: "handled by phone"})
	if err != nil || res.AgentID != "main" || res.SuspensionID != s.ID || res.Resolution != messages.ResolutionCancelled ||
		res.RespondedBy != socketOperator(t) || res.RespondedAt.IsZero() {
		t.Fatalf("cancel = %+v, %v", res, err)
	}
	_, err = f.c.Respond(ctx, "main", s.ID, control.RespondRequest{Value: json.RawMessage(`"approve"`)})
	apiError(t, err, http.StatusConflict, control.KindConflict)
	all, err := f.c.Suspensions(ctx, "main", false)
	if err != nil || len(all) != 1 || all[0].Resolution != messages.ResolutionCancelled {
		t.Fatalf("suspensions after cancel = %+v, %v", all, err)
	}
}

// TestListSuspensionsAndNotifications: per agent newest first (open and
// closed, or ?state=open), every agent's open ones, and the notifications
// the questions raised.
func TestListSuspensionsAndNotifications(t *testing.T) {
	f := newFixture(t, ask(refund), testkit.Reply("resumed"))
	ctx := context.Background()
	if _, err := f.c.CreateAgent(ctx, "reviewer"); err != nil {
		t.Fatal(err)
	}
	first := f.suspend(t, "main")
	second := f.suspend(t, "reviewer")
	if first.AgentID != "main" || second.AgentID != "reviewer" || first.Question != "Refund order #12345?" ||
		first.ResponseType != messages.ResponseChoice || len(first.Choices) != 2 || first.ExpiresAt == nil {
		t.Fatalf("suspensions %+v, %+v", first, second)
	}
	open, err := f.c.OpenSuspensions(ctx)
	if err != nil || len(open) != 2 || open[0].ID != first.ID || open[1].ID != second.ID {
		t.Fatalf("OpenSuspensions = %+v, %v; want main's, then reviewer's", open, err)
	}
	if _, err := f.c.Respond(ctx, "main", first.ID, control.RespondRequest{Value: json.RawMessage(`"deny"`)}); err != nil {
		t.Fatal(err)
	}
	if open, err = f.c.OpenSuspensions(ctx); err != nil || len(open) != 1 || open[0].ID != second.ID {
		t.Fatalf("OpenSuspensions after an answer = %+v, %v; want reviewer's only", open, err)
	}
	if mine, err := f.c.Suspensions(ctx, "main", true); err != nil || len(mine) != 0 {
		t.Fatalf("main's open suspensions = %+v, %v; want none", mine, err)
	}
	if mine, err := f.c.Suspensions(ctx, "main", false); err != nil || len(mine) != 1 || mine[0].Resolution != messages.ResolutionResponded {
		t.Fatalf("main's suspensions = %+v, %v; want the answered one", mine, err)
	}
	resp, body := f.raw(t, "GET", "/agents/main/suspensions?state=closed", "")
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("?state=closed = %d %s, want 400", resp.StatusCode, body)
	}
	resp, body = f.raw(t, "GET", "/suspensions", "")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"suspensions"`) || !strings.Contains(body, second.ID) {
		t.Fatalf("GET /suspensions = %d %s", resp.StatusCode, body)
	}

	ns, err := f.c.Notifications(ctx, "reviewer")
	i := slices.IndexFunc(ns, func(n agentstate.NotificationView) bool { return n.SuspensionID == second.ID })
	if err != nil || i < 0 {
		t.Fatalf("Notifications = %+v, %v; want the question's", ns, err)
	}
	if n := ns[i]; n.Reason != messages.NotifySuspensionRequested || n.AgentID != "reviewer" ||
		n.TargetOperatorBoundary != messages.BoundaryPrimaryOperator || n.CreatedAt.IsZero() {
		t.Fatalf("notification %+v, want the question's suspension_requested", n)
	}
	resp, body = f.raw(t, "GET", "/agents/main/notifications", "")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"agent_id": "main"`) || !strings.Contains(body, `"notifications"`) {
		t.Fatalf("GET notifications = %d %s", resp.StatusCode, body)
	}
}

// socketOperator is who answers over the socket: this test's user.
func socketOperator(t *testing.T) string {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return "operator:" + u.Username
}

// postTCP posts body to url with header pairs and returns the answer.
func postTCP(t *testing.T, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	return resp.StatusCode, b.String()
}

// TestRespondedByIsNotTakenFromTheBody: an answer or a cancellation that
// names who answers is refused with 400 and changes nothing; the answer
// without it is recorded, in the journal too, as the socket's operator.
func TestRespondedByIsNotTakenFromTheBody(t *testing.T) {
	f, s := suspendedFixture(t, refund)
	path := respondPath("main", s.ID)
	for p, body := range map[string]string{
		path: `{"value": "approve", "responded_by": "operator"}`,
		"/control/agents/main/suspensions/" + s.ID + "/cancel": `{"responded_by": "alice", "reason": "x"}`,
	} {
		code, out := f.post(t, p, body)
		if e := errorBody(t, out); code != http.StatusBadRequest || e.Kind != control.KindBadRequest ||
			!strings.Contains(e.Message, "responded_by") || !strings.Contains(e.Hint, "remove responded_by") {
			t.Fatalf("POST %s %s = %d %s, want 400 saying responded_by is not taken from the body", p, body, code, out)
		}
	}
	if open, err := f.c.Suspensions(context.Background(), "main", true); err != nil || len(open) != 1 || resumed(t, f, "main", s.ID) != 0 {
		t.Fatalf("after refused claims the open suspensions are %+v, %v; want the question still open", open, err)
	}
	if code, out := f.post(t, path, `{"value": "approve"}`); code != http.StatusOK {
		t.Fatalf("answer = %d %s", code, out)
	}
	all, err := f.c.Suspensions(context.Background(), "main", false)
	if err != nil || len(all) != 1 || all[0].RespondedBy != socketOperator(t) {
		t.Fatalf("the journal's suspension = %+v, %v; want responded_by %s", all, err, socketOperator(t))
	}
}
