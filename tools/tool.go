package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/holon-actors/holon-actors/messages"
)

// Tool is one capability a model can call. Implementations are shared and
// safe for concurrent use.
type Tool interface {
	Spec() Spec
	// Call runs the tool with the model's JSON arguments. Failures are
	// results (Status error with an error envelope), not Go errors: the
	// model sees them and can correct its call.
	Call(ctx context.Context, args json.RawMessage) Result
}

// Spec names and describes a tool; Parameters is its JSON schema.
type Spec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Result is how a tool call ended: the canonical envelope kept in the
// journal and the receipt rendered for the model.
type Result struct {
	Status   messages.ToolStatus
	Envelope json.RawMessage
	Receipt  string
}

// Registry maps tool names to tools. It is immutable once built.
type Registry struct {
	byName map[string]Tool
	names  []string
}

// NewRegistry builds a registry; two tools with one name are an error.
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{byName: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		name := t.Spec().Name
		if name == "" {
			return nil, fmt.Errorf("tools: a tool has an empty name")
		}
		if _, dup := r.byName[name]; dup {
			return nil, fmt.Errorf("tools: two tools named %q", name)
		}
		r.byName[name] = t
		r.names = append(r.names, name)
	}
	sort.Strings(r.names)
	return r, nil
}

// Lookup returns the tool named name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Names lists the tool names, sorted.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

// Specs lists the tools' specs in name order.
func (r *Registry) Specs() []Spec {
	out := make([]Spec, 0, len(r.names))
	for _, n := range r.names {
		out = append(out, r.byName[n].Spec())
	}
	return out
}
