package control_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// TestCreateAgentWithCommandPolicy: the policy is journaled with the new
// agent; an invalid one is refused with the field named and creates
// nothing.
func TestCreateAgentWithCommandPolicy(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	bad := &messages.CommandPolicy{Allow: []string{"git --version"}}
	_, err := f.c.CreateAgentWith(ctx, control.CreateAgentRequest{AgentID: "builder", CommandPolicy: bad})
	apiError(t, err, http.StatusUnprocessableEntity, control.KindInvalid)
	if err == nil || !strings.Contains(err.Error(), "allow[0]") {
		t.Errorf("error %v does not name allow[0]", err)
	}
	if list, _ := f.c.Agents(ctx); len(list) != 1 {
		t.Fatalf("a refused create left agents %+v", list)
	}
	p := &messages.CommandPolicy{Allow: []string{"git", "go"}, ConfineToRoot: true}
	if _, err := f.c.CreateAgentWith(ctx, control.CreateAgentRequest{AgentID: "builder", CommandPolicy: p}); err != nil {
		t.Fatal(err)
	}
	page, err := f.c.Events(ctx, "builder", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got *messages.CommandPolicySet
	for _, ev := range page.Events {
		if ev.Provenance.Kind == messages.EventCommandPolicySet {
			got = new(messages.CommandPolicySet)
			if err := json.Unmarshal(ev.Payload, got); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got == nil || got.Policy == nil || !got.Policy.ConfineToRoot || strings.Join(got.Policy.Allow, ",") != "git,go" {
		t.Fatalf("journaled policy = %+v in %d events", got, len(page.Events))
	}
}
