package messages

import (
	"encoding/json"
	"time"
)

// BriefKind is the form of a user-facing brief.
type BriefKind string

// The brief kinds.
const (
	BriefAck     BriefKind = "ack"     // work continues asynchronously
	BriefResult  BriefKind = "result"  // what changed, completed or needs review
	BriefFailure BriefKind = "failure" // why the active turn failed, in operator language
	// BriefActionRequired asks the operator to act: a question is waiting
	// for an answer.
	BriefActionRequired BriefKind = "action_required"
)

var briefKinds = enum[BriefKind]{name: "brief kind", values: []BriefKind{BriefAck, BriefResult, BriefFailure, BriefActionRequired}}

// String returns the BriefKind as spelled in JSON.
func (k BriefKind) String() string { return string(k) }

// Valid reports whether k is one of the spec's brief kinds.
func (k BriefKind) Valid() bool { return briefKinds.valid(k) }

// UnmarshalText parses a brief kind, rejecting unknown values.
func (k *BriefKind) UnmarshalText(text []byte) error { return briefKinds.unmarshal(k, text) }

// ParseBriefKind returns the BriefKind spelled s or an error wrapping
// ErrUnknownValue.
func ParseBriefKind(s string) (BriefKind, error) { return briefKinds.parse(s) }

// BriefAttachment is a reference or a structured value attached to a brief.
// At least one of URI and Value is set; Value holds JSON.
type BriefAttachment struct {
	URI   string          `json:"uri,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// Brief is a user-facing communication record: an acknowledgement, a result
// or a failure, persisted explicitly rather than inferred from model text.
// Text may be empty for a result whose terminal turn produced no assistant
// text.
type Brief struct {
	ID         string    `json:"id"`
	AgentID    string    `json:"agent_id"`
	Kind       BriefKind `json:"kind"`
	WorkItemID string    `json:"work_item_id,omitempty"`
	// WorkspaceID is the workspace active when the brief was recorded
	// ("" in briefs older than the field, or the agent's home).
	WorkspaceID      string            `json:"workspace_id,omitempty"`
	Text             string            `json:"text"`
	Attachments      []BriefAttachment `json:"attachments,omitempty"`
	RelatedMessageID string            `json:"related_message_id,omitempty"`
	RelatedTaskID    string            `json:"related_task_id,omitempty"`
	CreatedAt        time.Time         `json:"created_at"`
}
