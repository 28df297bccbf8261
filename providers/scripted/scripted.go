// Package scripted is a deterministic providers.Provider that plays a
// script file: for demos, tutorials and tests of the real binary. It is
// never chosen silently: the runtime uses it only when the model is set to
// "scripted" and a script file is given.
//
// A script is JSON:
//
//	{
//	  "steps": [
//	    {"text": "Let me check.", "tool_calls": [{"name": "Sleep", "arguments": {"duration_ms": 1000}}]},
//	    {"text": "Done."},
//	    {"error": {"kind": "rate_limited", "message": "slow down"}}
//	  ],
//	  "then": "fail"
//	}
//
// The reply to a request is the step whose index is the number of
// assistant rounds already in the request's conversation, so a
// conversation always gets the same reply, also after a restart. Past the
// last step, "then" decides: "fail" (the default) answers a provider error
// saying the script is exhausted, "echo" answers "echo: " and the text of
// the latest message, "repeat" plays the last step again. System
// notifications carried by the conversation change neither.
//
// "roles" gives other agents their own scripts: an agent whose first
// message starts with "<role>:" (a delegation such as SpawnAgent's
// initial_message "worker: count the files") plays roles[role], by its
// own rounds, and every other agent plays the top-level script:
//
//	{"steps": [...], "roles": {"worker": {"steps": [{"text": "42"}]}}}
package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Name is the provider's name and model.
const Name = "scripted"

// Script is a parsed script file.
type Script struct {
	Steps []Step             `json:"steps"`
	Then  string             `json:"then,omitempty"`
	Roles map[string]*Script `json:"roles,omitempty"`
}

// Step is one reply: text and tool calls, or an error.
type Step struct {
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	Error     *StepError `json:"error,omitempty"`
}

// ToolCall is a scripted tool call; an empty ID gets one from the step.
type ToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// StepError is a scripted provider failure.
type StepError struct {
	Kind    providers.ErrorKind `json:"kind"`
	Message string              `json:"message"`
}

// The "then" modes.
const (
	ThenFail   = "fail"
	ThenEcho   = "echo"
	ThenRepeat = "repeat"
)

// Load reads and checks a script file.
func Load(path string) (*Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	s, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return s, nil
}

// Parse decodes and checks a script, naming the first bad field.
func Parse(b []byte) (*Script, error) {
	var s Script
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("not a valid script (want {\"steps\": [...]}): %w", err)
	}
	if err := s.check(true); err != nil {
		return nil, err
	}
	return &s, nil
}

// check checks a script and, at the top level, its roles.
func (s *Script) check(top bool) error {
	switch s.Then {
	case "":
		s.Then = ThenFail
	case ThenFail, ThenEcho, ThenRepeat:
	default:
		return fmt.Errorf("then %q: want fail, echo or repeat", s.Then)
	}
	if len(s.Steps) == 0 && s.Then != ThenEcho {
		return errors.New("steps is empty: give at least one step, or \"then\": \"echo\"")
	}
	for i, st := range s.Steps {
		if err := st.check(); err != nil {
			return fmt.Errorf("steps[%d].%w", i, err)
		}
	}
	for name, r := range s.Roles {
		switch {
		case !top:
			return errors.New("roles: only the top-level script has roles")
		case name == "" || strings.ContainsAny(name, ": \n"):
			return fmt.Errorf("roles[%q]: a role is a plain word (no colon or space)", name)
		case r == nil:
			return fmt.Errorf("roles[%q]: is empty", name)
		}
		if err := r.check(false); err != nil {
			return fmt.Errorf("roles[%q].%w", name, err)
		}
	}
	return nil
}

func (st Step) check() error {
	if st.Error != nil {
		if st.Text != "" || len(st.ToolCalls) > 0 {
			return errors.New("error: a step is either a reply or an error, not both")
		}
		if st.Error.Kind == "" || st.Error.Message == "" {
			return errors.New("error: needs kind and message")
		}
		return nil
	}
	for j, c := range st.ToolCalls {
		if c.Name == "" {
			return fmt.Errorf("tool_calls[%d].name: is empty", j)
		}
		if len(c.Arguments) > 0 && !json.Valid(c.Arguments) {
			return fmt.Errorf("tool_calls[%d].arguments: not valid JSON", j)
		}
	}
	return nil
}

// Provider plays a Script. It is immutable and safe for concurrent use.
type Provider struct{ script *Script }

// New returns a provider playing s.
func New(s *Script) *Provider { return &Provider{script: s} }

// Name implements providers.Provider.
func (p *Provider) Name() string { return Name }

// Complete implements providers.Provider.
func (p *Provider) Complete(ctx context.Context, req providers.Request) (providers.Response, error) {
	if err := ctx.Err(); err != nil {
		return providers.Response{}, &providers.Error{Provider: Name, Kind: providers.KindTimeout, Message: err.Error()}
	}
	round := providers.Rounds(req)
	s := p.script.forRequest(req)
	st, ok := s.step(round)
	if !ok {
		if s.Then == ThenEcho {
			return reply(round, Step{Text: "echo: " + latestMessage(req.Conversation)}), nil
		}
		return providers.Response{}, &providers.Error{Provider: Name, Kind: providers.KindProtocol,
			Message: fmt.Sprintf("script exhausted: round %d asked, the script has %d steps (add steps, or set \"then\": \"echo\")", round, len(s.Steps))}
	}
	if st.Error != nil {
		return providers.Response{}, &providers.Error{Provider: Name, Kind: st.Error.Kind, Message: st.Error.Message}
	}
	return reply(round, st), nil
}

// forRequest is the script a request plays: its role's, when its first
// message names one.
func (s *Script) forRequest(req providers.Request) *Script {
	if len(s.Roles) == 0 || len(req.Conversation) == 0 {
		return s
	}
	role, _, ok := strings.Cut(req.Conversation[0].Text, ":")
	if r := s.Roles[role]; ok && r != nil {
		return r
	}
	return s
}

func (s *Script) step(round int) (Step, bool) {
	steps := s.Steps
	switch {
	case round < len(steps):
		return steps[round], true
	case s.Then == ThenRepeat:
		return steps[len(steps)-1], true
	}
	return Step{}, false
}

func reply(round int, st Step) providers.Response {
	calls := make([]messages.ToolCall, len(st.ToolCalls))
	for i, c := range st.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", round, i)
		}
		args := c.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		calls[i] = messages.ToolCall{ID: id, Name: c.Name, Arguments: args}
	}
	stop := "end_turn"
	if len(calls) > 0 {
		stop = "tool_use"
	}
	out := tokens(st.Text)
	return providers.Response{Text: st.Text, ToolCalls: calls, StopReason: stop, Model: Name,
		ResponseID: fmt.Sprintf("scripted_%d", round),
		Usage:      messages.TokenUsage{OutputTokens: out, TotalTokens: out}}
}

// latestMessage is the text of the newest message item.
func latestMessage(conv []providers.Item) string {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Kind == providers.ItemMessage {
			return conv[i].Text
		}
	}
	return ""
}

// tokens estimates output tokens as chars/4, as the tool budgets do.
func tokens(s string) uint64 { return uint64((len(s) + 3) / 4) }
