package control_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestAPromptOverTheAPIReusingARemoteClientsIDIsRefused: the control API
// checks the sender of a duplicate as the remote surface does. A socket
// prompt reusing the message_id of a remote client's prompt is refused
// with a conflict (it was answered as that prompt's duplicate, as if
// admitted), and the socket's own retry is still a duplicate. The API's
// ServeAPI hands the refusal back as the *Error.
func TestAPromptOverTheAPIReusingARemoteClientsIDIsRefused(t *testing.T) {
	op, h := newOperator(t)
	op.API = control.NewServer(control.Config{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock}).Handler()
	ctx := context.Background()
	if _, err := op.Prompt(ctx, control.Caller{Name: "remote:alice"}, control.OperatorPrompt{AgentID: "main", MessageID: "m-remote", Text: "alice's"}); err != nil {
		t.Fatal(err)
	}
	post := func(id, text string) *httptest.ResponseRecorder {
		body, _ := json.Marshal(control.PromptRequest{MessageID: id, Text: text})
		rec := httptest.NewRecorder()
		op.API.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/control/agents/main/prompt", strings.NewReader(string(body))))
		return rec
	}
	if rec := post("m-remote", "the socket's"); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"kind":"conflict"`) {
		t.Fatalf("a socket prompt with alice's message_id = %d %s, want 409 conflict", rec.Code, rec.Body)
	}
	for range 2 {
		if rec := post("m-socket", "the socket's"); rec.Code != http.StatusAccepted {
			t.Fatalf("the socket's own prompt = %d %s", rec.Code, rec.Body)
		}
	}
	var again control.PromptResponse
	if rec := post("m-socket", "the socket's"); json.Unmarshal(rec.Body.Bytes(), &again) != nil || !again.Duplicate {
		t.Errorf("the socket's retry = %s, want a duplicate", rec.Body)
	}
	_, err := op.ServeAPI(ctx, http.MethodPost, "/control/agents/main/prompt", []byte(`{"message_id":"m-remote","text":"x"}`))
	if e, ok := err.(*control.Error); !ok || e.Status != http.StatusConflict || e.Kind != control.KindConflict || e.Hint == "" {
		t.Errorf("ServeAPI = %v, want the 409 as an *Error", err)
	}
	if _, err := op.ServeAPI(ctx, http.MethodGet, "/agents/nobody/transcript", nil); err == nil || err.(*control.Error).Status != http.StatusNotFound {
		t.Errorf("ServeAPI of an unknown agent = %v, want 404", err)
	}
}
