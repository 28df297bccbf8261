package control_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestPromptDuplicateAnswersTheOriginalSeq: a retried message_id, after
// other events, answers the event_seq of its first admission.
func TestPromptDuplicateAnswersTheOriginalSeq(t *testing.T) {
	f := newFixture(t, testkit.Reply("one"), testkit.Reply("two"))
	ctx := context.Background()
	first, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "first", MessageID: "op-retry-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "second"}); err != nil {
		t.Fatal(err)
	}
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	again, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: "first", MessageID: "op-retry-1"})
	if err != nil || !again.Duplicate || again.EventSeq != first.EventSeq {
		t.Fatalf("retry = %+v, %v; want a duplicate answering event %d", again, err, first.EventSeq)
	}
}

// TestAdmissionRefusesBadInput: whitespace-only prompts, overlong
// message ids and agent ids outside the rule are refused with the rule in
// the error, and nothing is admitted.
func TestAdmissionRefusesBadInput(t *testing.T) {
	f := newFixture(t, testkit.Reply("unused"))
	ctx := context.Background()
	before, err := f.c.Status(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.c.Prompt(ctx, "main", control.PromptRequest{Text: " \n\t "})
	apiError(t, err, http.StatusUnprocessableEntity, control.KindInvalid)
	_, err = f.c.Prompt(ctx, "main", control.PromptRequest{Text: "hi", MessageID: strings.Repeat("m", messages.MessageIDMaxLen+1)})
	if e := apiError(t, err, http.StatusUnprocessableEntity, control.KindInvalid); !strings.Contains(e.Hint, "128") {
		t.Errorf("hint %q: want the bound", e.Hint)
	}
	for _, path := range []string{"/control/agents/bad%20id/prompt", "/control/agents/" + strings.Repeat("a", 65) + "/prompt"} {
		resp, body := f.raw(t, "POST", path, `{"text": "hi"}`)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, messages.AgentIDRule) {
			t.Errorf("POST %s = %d %s, want 400 with the rule", path, resp.StatusCode, body)
		}
	}
	resp, body := f.raw(t, "POST", "/control/agents", `{"agent_id": "has space"}`)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, messages.AgentIDRule) {
		t.Errorf("create = %d %s, want 422 with the rule", resp.StatusCode, body)
	}
	after, err := f.c.Status(ctx, "main")
	if err != nil || after.LastSeq != before.LastSeq || after.Queued != 0 {
		t.Fatalf("Status = %+v, %v; want nothing admitted since event %d", after, err, before.LastSeq)
	}
}
