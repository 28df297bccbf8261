package gateway_test

import (
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// TestAnotherClientsMessageIDIsRefused: a message_id makes one sender's
// retries idempotent. Another certificate sending the same id is refused
// with a conflict, not told its prompt was admitted (it was not: the
// first sender's was), and the first sender's retry is still a duplicate.
func TestAnotherClientsMessageIDIsRefused(t *testing.T) {
	r := newRig(t)
	pa, ina := r.client(t, r.c.alice)
	pb, inb := r.client(t, r.c.bob)
	first, ok := r.request(t, pa, ina, textPrompt("main", "m-shared", "alice's prompt")).(*remotepb.PromptAccepted)
	if !ok || first.Duplicate {
		t.Fatalf("alice's prompt = %v, want admitted", first)
	}
	e, ok := r.request(t, pb, inb, textPrompt("main", "m-shared", "bob-prompt")).(*remotepb.Error)
	if !ok || e.Code != control.KindConflict || e.HttpStatus != 409 || !strings.Contains(e.Message, "m-shared") || e.Hint == "" {
		t.Errorf("bob's prompt with alice's message_id = %v, want a conflict naming the id, with a hint", e)
	}
	if e != nil && strings.Contains(e.Message+e.Hint, "alice") {
		t.Errorf("the refusal names the other sender: %v", e)
	}
	for _, ev := range r.h.Events("main") {
		if strings.Contains(string(ev.Payload), "bob-prompt") {
			t.Errorf("bob's prompt was journaled: event %d %s", ev.Seq, ev.Type)
		}
	}
	again, ok := r.request(t, pa, ina, textPrompt("main", "m-shared", "alice's prompt")).(*remotepb.PromptAccepted)
	if !ok || !again.Duplicate || again.EventSeq != first.EventSeq {
		t.Errorf("alice's retry = %v, want the first admission, duplicate", again)
	}
}
