package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// Prefix opens every MCP tool's name: mcp__<server>__<tool>.
const Prefix = "mcp__"

// maxToolName is the longest tool name the providers take.
const maxToolName = 64

// toolName is what a server's tool name may be to be offered: the
// characters every provider accepts in a function name.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// ToolName is the catalog name of tool on server.
func ToolName(server, tool string) string { return Prefix + server + "__" + tool }

// SplitToolName returns the server and tool of an MCP tool's catalog name.
func SplitToolName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return "", "", false
	}
	return strings.Cut(rest, "__")
}

// Tool is one MCP server tool as an agent's tool: its schema normalized
// (NormalizeSchema), its calls sent to the server's session. It is safe
// for concurrent use.
type Tool struct {
	srv  *Server
	tool string
	spec tools.Spec
	// Destructive is the server's destructiveHint (true when the server
	// gives none and does not mark the tool read-only, as MCP defines).
	Destructive bool
}

func newTool(srv *Server, t *sdk.Tool) *Tool {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	desc = strings.TrimSpace(fmt.Sprintf("%s (tool %s of MCP server %s)", desc, t.Name, srv.name))
	return &Tool{srv: srv, tool: t.Name, Destructive: destructive(t.Annotations),
		spec: tools.Spec{Name: ToolName(srv.name, t.Name), Description: desc, Parameters: NormalizeSchema(schemaOf(t))}}
}

// destructive reads MCP's destructiveHint: only meaningful when the tool
// is not read-only, and true when absent.
func destructive(a *sdk.ToolAnnotations) bool {
	if a == nil {
		return false // no annotations at all: nothing claimed either way
	}
	if a.ReadOnlyHint {
		return false
	}
	return a.DestructiveHint == nil || *a.DestructiveHint
}

// Spec is the tool's catalog entry.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Call sends the call to the server. Properties the model sent as null
// (a strict schema's way to leave them out) are dropped first. A call cut
// by ctx is reported interrupted; one that outlives the server's timeout
// is a timeout; an unreachable server says so.
func (t *Tool) Call(ctx context.Context, args json.RawMessage) tools.Result {
	name := t.spec.Name
	var m map[string]any
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if err := json.Unmarshal(trimmed, &m); err != nil {
			return tools.Failure(name, messages.ToolError, tools.ToolError{Kind: tools.KindInvalidToolInput,
				Message: "the arguments are not a JSON object: " + err.Error(), RecoveryHint: "send one JSON object matching the tool's schema"})
		}
	}
	dropNulls(m)
	if m == nil {
		m = map[string]any{}
	}
	res, err := t.srv.CallTool(ctx, t.tool, m)
	if err != nil {
		return t.failure(ctx, err)
	}
	return resultOf(ctx, t.srv.name, t.tool, name, res)
}

func (t *Tool) failure(ctx context.Context, err error) tools.Result {
	name := t.spec.Name
	switch {
	case ctx.Err() != nil:
		return tools.Failure(name, messages.ToolInterrupted, tools.ToolError{Kind: tools.KindInterrupted,
			Message:      "the call was cancelled (interrupt or stop) before the MCP server answered",
			RecoveryHint: "the server may have acted on it; check before calling again"})
	case errors.Is(err, context.DeadlineExceeded):
		return tools.Failure(name, messages.ToolError, tools.ToolError{Kind: KindTimeout,
			Message:      fmt.Sprintf("MCP server %s did not answer within %s", t.srv.name, t.srv.cfg.Timeout()),
			RecoveryHint: "the server may still act on it; check before calling again, or ask for less", Retryable: true})
	case errors.Is(err, ErrQuarantined):
		return tools.Failure(name, messages.ToolError, tools.ToolError{Kind: KindUnavailable, Message: err.Error(),
			RecoveryHint: "this server's tools are unavailable until the operator restarts the runtime; do without them"})
	}
	return tools.Failure(name, messages.ToolError, tools.ToolError{Kind: KindUnavailable, Message: err.Error(),
		RecoveryHint: "the server is being restarted; try again shortly", Retryable: true})
}

// dropNulls deletes, recursively, every object property whose value is null.
func dropNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				dropNulls(x)
			}
		}
	case []any:
		for _, x := range v {
			dropNulls(x)
		}
	}
}
