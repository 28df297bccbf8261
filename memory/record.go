package memory

import (
	"fmt"
	"strings"
	"time"
)

// Kind names the source of an indexed record.
type Kind string

// The kinds of record the index holds.
const (
	KindSelf     Kind = "self"      // memory/self.md
	KindOperator Kind = "operator"  // memory/operator.md
	KindBrief    Kind = "brief"     // a brief
	KindEpisode  Kind = "episode"   // an archived context episode
	KindWorkItem Kind = "work_item" // a work item
	KindDelivery Kind = "delivery"  // a delivery summary
)

// String returns the kind's wire name.
func (k Kind) String() string { return string(k) }

// Kinds lists every kind, in the order the spec names them.
var Kinds = []Kind{KindSelf, KindOperator, KindBrief, KindEpisode, KindWorkItem, KindDelivery}

// kindList is Kinds for an error message: "self, operator, ...".
func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// isFileKind reports whether records of k are the agent's memory files.
func isFileKind(k Kind) bool { return k == KindSelf || k == KindOperator }

// ScopeKind says whether a record belongs to the agent (searchable from every workspace) or to one
// workspace.
type ScopeKind string

// The scopes a record can have.
const (
	ScopeAgent     ScopeKind = "agent"
	ScopeWorkspace ScopeKind = "workspace"
)

// String returns the scope's wire name.
func (s ScopeKind) String() string { return string(s) }

// Doc is one indexed source record. Kind and Key identify it within the agent: Upsert of the same
// Kind and Key replaces it. Body is the exact original text Get returns.
type Doc struct {
	Kind        Kind
	Key         string // stable id within Kind: brief id, episode id, work item id, "self"
	AgentID     string // the index's agent when empty
	ScopeKind   ScopeKind
	WorkspaceID string // "" when agent-scoped
	SourcePath  string
	Title       string
	Body        string
	UpdatedAt   time.Time
	Metadata    map[string]string
}

// Provenance is what Search and Get say about where a text comes from, in the spec's field names.
type Provenance struct {
	Kind        Kind              `json:"kind"`
	SourceRef   string            `json:"source_ref"`
	ScopeKind   ScopeKind         `json:"scope_kind"`
	WorkspaceID string            `json:"workspace_id"`
	AgentID     string            `json:"agent_id"`
	SourcePath  string            `json:"source_path"`
	Title       string            `json:"title"`
	UpdatedAt   time.Time         `json:"updated_at"`
	Metadata    map[string]string `json:"metadata,omitempty"`
}

// Hit is one Search result: provenance, a snippet of the original text around the match, and a
// score (higher is better; comparable only within one Search).
type Hit struct {
	Provenance
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// Got is Get's answer: provenance and the exact original text, cut at the asked bound.
type Got struct {
	Provenance
	Content   string `json:"content"`
	Truncated bool   `json:"truncated"`
}

// validate checks a Doc before it is written, filling the index's agent and the default scope.
func (d *Doc) validate(agentID string) error {
	if d.Kind == "" || d.Key == "" {
		return fmt.Errorf("%w: kind and key are required (kind %q, key %q)", ErrInvalidDoc, d.Kind, d.Key)
	}
	if d.AgentID == "" {
		d.AgentID = agentID
	}
	if d.AgentID != agentID {
		return fmt.Errorf("%w: doc %s/%s belongs to agent %q, this index to %q", ErrInvalidDoc, d.Kind, d.Key, d.AgentID, agentID)
	}
	switch d.ScopeKind {
	case "":
		d.ScopeKind = ScopeAgent
		if d.WorkspaceID != "" {
			d.ScopeKind = ScopeWorkspace
		}
	case ScopeAgent, ScopeWorkspace:
	default:
		return fmt.Errorf("%w: doc %s/%s has scope %q; want %q or %q", ErrInvalidDoc, d.Kind, d.Key, d.ScopeKind, ScopeAgent, ScopeWorkspace)
	}
	if d.ScopeKind == ScopeWorkspace && d.WorkspaceID == "" {
		return fmt.Errorf("%w: doc %s/%s is workspace-scoped without a workspace id", ErrInvalidDoc, d.Kind, d.Key)
	}
	if d.ScopeKind == ScopeAgent {
		d.WorkspaceID = ""
	}
	return nil
}
