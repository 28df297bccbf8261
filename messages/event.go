package messages

import (
	"encoding/json"
	"fmt"
	"time"
)

// EventType names one kind of journal event. The set is closed: Validate
// rejects any type this build does not know, so a journal written by a newer
// build is refused loudly instead of being half-understood.
type EventType string

// Event is one durable fact in an agent's journal. The journal assigns Seq
// (event_seq, starting at 1, consecutive, never reused) when it appends the
// event; callers leave it zero. Payload holds the JSON of the typed payload
// for Type at schema Version.
type Event struct {
	Seq     uint64          `json:"event_seq,omitempty"`
	ID      string          `json:"id"`
	AgentID string          `json:"agent_id"`
	Type    EventType       `json:"type"`
	Version uint32          `json:"version"`
	At      time.Time       `json:"at"`
	Payload json.RawMessage `json:"payload"`
}

// Validate reports the first field of e that is malformed, naming it.
func (e Event) Validate() error {
	if len(e.Payload) == 0 || !json.Valid(e.Payload) {
		if err := e.validateHeader(); err != nil {
			return err
		}
		return fieldError(ErrInvalidEvent, "payload", "is not valid JSON")
	}
	return e.validateHeader()
}

// validateHeader checks every field but the payload's JSON validity, which
// Decode leaves to its JSON decoder instead of scanning the payload twice.
func (e Event) validateHeader() error {
	switch {
	case e.ID == "":
		return fieldError(ErrInvalidEvent, "id", "is empty")
	case e.AgentID == "":
		return fieldError(ErrInvalidEvent, "agent_id", "is empty")
	case e.At.IsZero():
		return fieldError(ErrInvalidEvent, "at", "is zero")
	case len(e.Payload) == 0:
		return fieldError(ErrInvalidEvent, "payload", "is not valid JSON")
	}
	v, ok := eventVersions[e.Type]
	if !ok {
		return fieldError(ErrInvalidEvent, "type", fmt.Sprintf("%q is not a known event type", e.Type))
	}
	if e.Version == 0 || e.Version > v {
		return fieldError(ErrInvalidEvent, "version", fmt.Sprintf("%d is not supported for %s (1..%d)", e.Version, e.Type, v))
	}
	return nil
}
