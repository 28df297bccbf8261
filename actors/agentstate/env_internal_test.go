package agentstate

import (
	"fmt"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// testNow is the fixed time of the decisions' table tests.
var testNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// testEnv is an Env for agent "a1" at testNow whose IDs count up
// per prefix ("ntf-1", "ntf-2", "brief-1"), so a decision's output is
// deterministic.
func testEnv() Env {
	n := map[string]int{}
	return Env{AgentID: "a1", Now: testNow, NewID: func(prefix string) string {
		n[prefix]++
		return fmt.Sprintf("%s-%d", prefix, n[prefix])
	}}
}

// eventTypes is the event types of b, in order.
func eventTypes(b Batch) []string {
	out := make([]string, len(b))
	for i, p := range b {
		out[i] = string(p.EventType())
	}
	return out
}

// only returns the single payload of type T in b, failing the test when
// there is not exactly one.
func only[T messages.Payload](t *testing.T, b Batch) T {
	t.Helper()
	var out []T
	for _, p := range b {
		if v, ok := p.(T); ok {
			out = append(out, v)
		}
	}
	if len(out) != 1 {
		var zero T
		t.Fatalf("Batch %v has %d %T, want 1", eventTypes(b), len(out), zero)
	}
	return out[0]
}
