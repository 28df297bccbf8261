package testkit

import (
	"context"
	"fmt"
	"sync"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Step is one scripted model reply: text and tool calls, or a failure.
type Step struct {
	Text  string
	Calls []messages.ToolCall
	Usage messages.TokenUsage
	// Err, when set, is returned instead of a reply.
	Err error
	// Gate, when set, holds the reply until it is closed (or the call's
	// context ends), so a test can act while a model round is in flight.
	Gate chan struct{}
	// Timeline, when set, is the reply's provider attempt timeline (as a
	// fallback chain reports it).
	Timeline *providers.ProviderAttemptTimeline
}

// Reply is a step answering text and requesting calls.
func Reply(text string, calls ...messages.ToolCall) Step {
	return Step{Text: text, Calls: calls, Usage: messages.TokenUsage{InputTokens: 100, OutputTokens: 10, TotalTokens: 110}}
}

// Fail is a step failing with a classified provider error.
func Fail(kind providers.ErrorKind, msg string) Step {
	return Step{Err: &providers.Error{Provider: "scripted", Kind: kind, Message: msg}}
}

// Call is a tool call with a fixed id.
func Call(id, name, args string) messages.ToolCall {
	return messages.ToolCall{ID: id, Name: name, Arguments: []byte(args)}
}

// Provider is a scripted providers.Provider. Its reply to a request is the
// step whose index is the number of assistant rounds already in the
// request's conversation, so the same conversation always gets the same
// reply: a request repeated after a crash is answered as before, and the
// extra call is visible in Requests. It records every request.
type Provider struct {
	mu       sync.Mutex
	steps    []Step
	requests []providers.Request
	// Called receives the round index of every request as it arrives
	// (buffered; never blocks the provider).
	Called chan int
}

// NewProvider returns a provider that plays steps.
func NewProvider(steps ...Step) *Provider {
	return &Provider{steps: steps, Called: make(chan int, 1024)}
}

// Script appends steps.
func (p *Provider) Script(steps ...Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps = append(p.steps, steps...)
}

// Name implements providers.Provider.
func (p *Provider) Name() string { return "scripted" }

// Complete implements providers.Provider.
func (p *Provider) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	i := providers.Rounds(req)
	p.mu.Lock()
	p.requests = append(p.requests, req)
	var st Step
	ok := i < len(p.steps)
	if ok {
		st = p.steps[i]
	}
	p.mu.Unlock()
	select {
	case p.Called <- i:
	default:
	}
	if !ok {
		return providers.Response{}, &providers.Error{Provider: "scripted", Kind: providers.KindProtocol,
			Message: fmt.Sprintf("script has no step %d", i)}
	}
	if st.Gate != nil {
		select {
		case <-st.Gate:
		case <-ctx.Done():
			return providers.Response{}, ctx.Err()
		}
	}
	if st.Err != nil {
		return providers.Response{}, st.Err
	}
	return providers.Response{Text: st.Text, ToolCalls: st.Calls, Usage: st.Usage, StopReason: "end_turn",
		ResponseID: fmt.Sprintf("resp_%d", i), Model: "scripted-1", Timeline: st.Timeline}, nil
}

// Requests returns a copy of every request received, in order.
func (p *Provider) Requests() []providers.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]providers.Request(nil), p.requests...)
}

// Router is a providers.Provider that plays a separate script per agent:
// Pick returns the script for a request (say, by its agent id, or by the
// first message of its conversation: one script for a parent, one shared
// by its children, each child indexing it by its own rounds).
type Router struct {
	Pick func(req providers.Request) *Provider
}

// Name implements providers.Provider.
func (r *Router) Name() string { return "scripted" }

// Complete implements providers.Provider.
func (r *Router) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	return r.Pick(req).Complete(ctx, req)
}
