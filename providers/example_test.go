package providers_test

import (
	"context"
	"fmt"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/providers"
)

// A chain retries the first candidate, then falls back to the second; the
// timeline shows every attempt.
func ExampleChain() {
	clock := clockwork.NewFakeClock()
	primary := &scripted{name: "openai/gpt-5", steps: []step{fail(providers.KindAuth, 401)}}
	backup := &scripted{name: "anthropic/claude-sonnet-4-5", steps: []step{ok("Hello.")}}
	ch, _ := providers.NewChain(providers.DefaultRetryPolicy(),
		[]providers.Candidate{{Provider: primary}, {Provider: backup}}, providers.WithClock(clock))

	resp, _ := ch.Complete(context.Background(), providers.Request{})
	fmt.Println(resp.Text)
	for _, a := range resp.Timeline.Attempts {
		fmt.Println(a.ModelRef, a.Attempt, a.FailureKind, a.Outcome, a.AdvancedToFallback)
	}
	// Output:
	// Hello.
	// openai/gpt-5 1 auth fail_fast_aborted true
	// anthropic/claude-sonnet-4-5 1  succeeded false
}
