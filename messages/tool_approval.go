package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
)

// ErrInvalidToolApproval is wrapped by ToolApprovals.Validate errors.
var ErrInvalidToolApproval = errors.New("invalid tool approval")

// ApprovalMode is what happens when a model calls a tool: it runs (auto),
// waits for the operator's yes (ask), or is refused (deny).
type ApprovalMode string

// The approval modes.
const (
	ApprovalAuto ApprovalMode = "auto"
	ApprovalAsk  ApprovalMode = "ask"
	ApprovalDeny ApprovalMode = "deny"
)

// Valid reports a known mode.
func (m ApprovalMode) Valid() bool {
	return m == ApprovalAuto || m == ApprovalAsk || m == ApprovalDeny
}

// ApprovalRule gives the mode of the tools whose name matches Tool, a
// path.Match pattern ("mcp__github__*", "ExecCommand").
type ApprovalRule struct {
	Tool string       `json:"tool"`
	Mode ApprovalMode `json:"mode"`
}

// ToolApprovals is the runtime's tool approval policy (config.json
// tool_approval): the rules of agent id (Agents) are tried first, then
// Default's, in order; the first whose pattern matches decides.
type ToolApprovals struct {
	Default []ApprovalRule            `json:"default,omitempty"`
	Agents  map[string][]ApprovalRule `json:"agents,omitempty"`
}

// Mode is the mode of tool for agent id, and whether a rule matched.
func (p ToolApprovals) Mode(id, tool string) (ApprovalMode, bool) {
	for _, rules := range [][]ApprovalRule{p.Agents[id], p.Default} {
		for _, r := range rules {
			if ok, _ := path.Match(r.Tool, tool); ok {
				return r.Mode, true
			}
		}
	}
	return "", false
}

// Validate reports a rule that cannot work, naming it.
func (p ToolApprovals) Validate() error {
	if err := validateRules("tool_approval.default", p.Default); err != nil {
		return err
	}
	for id, rules := range p.Agents {
		if err := validateRules("tool_approval.agents."+id, rules); err != nil {
			return err
		}
	}
	return nil
}

func validateRules(field string, rules []ApprovalRule) error {
	for i, r := range rules {
		switch {
		case strings.TrimSpace(r.Tool) == "":
			return fmt.Errorf("%w: %s[%d].tool is empty: give a tool name or a pattern (mcp__github__*)", ErrInvalidToolApproval, field, i)
		case !r.Mode.Valid():
			return fmt.Errorf("%w: %s[%d].mode %q: give auto, ask or deny", ErrInvalidToolApproval, field, i, r.Mode)
		}
		if _, err := path.Match(r.Tool, ""); err != nil {
			return fmt.Errorf("%w: %s[%d].tool %q is not a valid pattern (%v)", ErrInvalidToolApproval, field, i, r.Tool, err)
		}
	}
	return nil
}

// ToolApprovalRequest is what a tool approval suspension asks about: the
// call waiting for the operator's yes, with its exact arguments. It is
// kept in the suspension's context as {"tool_approval": {...}}; the turn
// waits mid-round for the answer to run or refuse the call CallID.
type ToolApprovalRequest struct {
	ToolName  string          `json:"tool_name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ApprovalContext is the suspension context of a tool approval.
func (r ToolApprovalRequest) ApprovalContext() json.RawMessage {
	b, _ := json.Marshal(map[string]ToolApprovalRequest{"tool_approval": r})
	return b
}

// ToolApproval is the call a tool approval suspension asks about; nil
// for any other question.
func (r *SuspensionRecord) ToolApproval() *ToolApprovalRequest {
	if len(r.Context) == 0 || !bytes.Contains(r.Context, []byte(`"tool_approval"`)) {
		return nil
	}
	var c struct {
		ToolApproval *ToolApprovalRequest `json:"tool_approval"`
	}
	if json.Unmarshal(r.Context, &c) != nil {
		return nil
	}
	return c.ToolApproval
}
