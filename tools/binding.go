package tools

import "context"

type execRootKey struct{}

// WithExecRoot binds an agent's execution root to ctx. File and command
// tools called with ctx work inside it, so one tool value serves every
// agent; the runtime binds it for each tool call.
func WithExecRoot(ctx context.Context, root ExecRoot) context.Context {
	return context.WithValue(ctx, execRootKey{}, root)
}

// ExecRootFrom returns the execution root bound to ctx.
func ExecRootFrom(ctx context.Context) (ExecRoot, bool) {
	r, ok := ctx.Value(execRootKey{}).(ExecRoot)
	return r, ok && r.Dir() != ""
}

// Grammar is the input grammar of a freeform tool.
type Grammar struct {
	Syntax     string `json:"syntax"` // "lark"
	Definition string `json:"definition"`
}

// Freeform is implemented by tools that OpenAI-compatible providers may
// expose as custom tools whose input is free text constrained by Grammar
// instead of a JSON object. Their Call accepts both: the raw text, and the
// JSON object of Spec().Parameters for providers without freeform tools.
type Freeform interface {
	Tool
	Grammar() Grammar
}
