package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// MessageEnvelope is the one shape every queued input normalizes to before an
// agent admits it. Admission fills the runtime-derived labels: Normalize sets
// the trust default, TriggerKind and the default priority; AuthorityClass
// comes from DeriveAuthority, never from a public caller. Once sent, an
// envelope is immutable.
type MessageEnvelope struct {
	ID             string         `json:"id"`
	AgentID        string         `json:"agent_id"`
	CreatedAt      time.Time      `json:"created_at"`
	Kind           MessageKind    `json:"kind"`
	Origin         Origin         `json:"origin"`
	Trust          TrustLevel     `json:"trust"`           // compatibility label; see AuthorityClass
	AuthorityClass AuthorityClass `json:"authority_class"` // derived at admission
	Priority       Priority       `json:"priority"`
	TriggerKind    TriggerKind    `json:"trigger_kind"` // always TriggerKindFor(Kind)
	WorkItemID     string         `json:"work_item_id,omitempty"`
	TaskID         string         `json:"task_id,omitempty"`
	// SourceRefs holds stable raw source references (callback descriptor id,
	// timer id, task result id, ...) so routing never parses Metadata.
	SourceRefs map[string]string `json:"source_refs,omitempty"`
	Body       Body              `json:"body"`
	// Metadata is transport- or adapter-specific context; a JSON object when
	// present. Public ingress metadata is provenance, never binding state.
	Metadata         json.RawMessage        `json:"metadata,omitempty"`
	DeliverySurface  MessageDeliverySurface `json:"delivery_surface,omitempty"`
	AdmissionContext AdmissionContext       `json:"admission_context,omitempty"`
	CorrelationID    string                 `json:"correlation_id,omitempty"` // ties a workflow's messages together
	CausationID      string                 `json:"causation_id,omitempty"`   // the message or task that caused this one
}

// Normalize fills the labels the runtime derives at admission: Trust defaults
// to DefaultTrust(Origin.Kind) when empty, Priority to PriorityNormal when
// empty, and TriggerKind is always set to TriggerKindFor(Kind). CreatedAt and
// every caller-supplied field stay as given; AuthorityClass is left alone.
func (m *MessageEnvelope) Normalize() {
	if m.Trust == "" {
		m.Trust = DefaultTrust(m.Origin.Kind)
	}
	if m.Priority == "" {
		m.Priority = PriorityNormal
	}
	m.TriggerKind = TriggerKindFor(m.Kind)
}

// Validate reports the first malformed field of m as a *FieldError wrapping
// ErrInvalidEnvelope and naming the field by its JSON path ("origin.timer_id",
// "body.value", "source_refs"). It checks shape and closed sets only; whether
// the labels fit the ingress is DeriveAuthority's business.
func (m MessageEnvelope) Validate() error {
	for _, check := range []func() error{
		m.validateIdentity,
		m.validateLabels,
		m.validateRefs,
		func() error { return m.Origin.validate("origin") },
		func() error { return m.Body.validate("body") },
		m.validateAdmission,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (m MessageEnvelope) validateIdentity() error {
	switch {
	case m.ID == "":
		return envelopeError("id", "is empty")
	case m.AgentID == "":
		return envelopeError("agent_id", "is empty")
	case m.CreatedAt.IsZero():
		return envelopeError("created_at", "is zero")
	case !m.Kind.Valid():
		return envelopeError("kind", fmt.Sprintf("%q is not a message kind", m.Kind))
	}
	return nil
}

func (m MessageEnvelope) validateLabels() error {
	switch want := TriggerKindFor(m.Kind); {
	case !m.Trust.Valid():
		return envelopeError("trust", fmt.Sprintf("%q is not a trust level", m.Trust))
	case !m.AuthorityClass.Valid():
		return envelopeError("authority_class", fmt.Sprintf("%q is not an authority class", m.AuthorityClass))
	case !m.Priority.Valid():
		return envelopeError("priority", fmt.Sprintf("%q is not a priority", m.Priority))
	case m.TriggerKind != want:
		return envelopeError("trigger_kind", fmt.Sprintf("%q does not match kind %s (want %s)", m.TriggerKind, m.Kind, want))
	}
	return nil
}

func (m MessageEnvelope) validateRefs() error {
	for k, v := range m.SourceRefs {
		switch {
		case k == "":
			return envelopeError("source_refs", "has an empty key")
		case v == "":
			return envelopeError("source_refs."+k, "is empty")
		}
	}
	if len(m.Metadata) > 0 && !isJSONObject(m.Metadata) {
		return envelopeError("metadata", "is not a JSON object")
	}
	return nil
}

func (m MessageEnvelope) validateAdmission() error {
	switch {
	case m.DeliverySurface != "" && !m.DeliverySurface.Valid():
		return envelopeError("delivery_surface", fmt.Sprintf("%q is not a delivery surface", m.DeliverySurface))
	case m.AdmissionContext != "" && !m.AdmissionContext.Valid():
		return envelopeError("admission_context", fmt.Sprintf("%q is not an admission context", m.AdmissionContext))
	}
	return nil
}

func envelopeError(field, reason string) error { return fieldError(ErrInvalidEnvelope, field, reason) }

// isJSONObject reports whether raw is one valid JSON object.
func isJSONObject(raw []byte) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(raw)
}
