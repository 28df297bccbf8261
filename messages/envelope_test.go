package messages_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

func TestEnvelopeGolden(t *testing.T) {
	for name, m := range goldenEnvelopes() {
		t.Run(name, func(t *testing.T) {
			if err := m.Validate(); err != nil {
				t.Fatalf("fixture does not validate: %v", err)
			}
			checkGolden(t, filepath.Join("testdata", name), m)
		})
	}
}

func TestEnvelopeGoldensCoverUnions(t *testing.T) {
	origins, bodies := map[messages.OriginKind]bool{}, map[messages.BodyType]bool{}
	for _, m := range goldenEnvelopes() {
		origins[m.Origin.Kind], bodies[m.Body.Type] = true, true
	}
	for _, k := range messages.EnumValues["OriginKind"] {
		if !origins[messages.OriginKind(k)] {
			t.Errorf("no golden envelope has a %s origin", k)
		}
	}
	for _, b := range messages.EnumValues["BodyType"] {
		if !bodies[messages.BodyType(b)] {
			t.Errorf("no golden envelope has a %s body", b)
		}
	}
}

func TestNormalize(t *testing.T) {
	m := messages.MessageEnvelope{
		ID: "m1", AgentID: "main", CreatedAt: t0CET, Kind: messages.KindWebhookEvent,
		Origin: messages.WebhookOrigin("github", ""), AuthorityClass: messages.AuthorityIntegrationSignal,
		Body: messages.TextBody("x"), TriggerKind: messages.TriggerOperatorInput, // caller-supplied: overwritten
	}
	m.Normalize()
	if m.Trust != messages.TrustedIntegration {
		t.Errorf("Trust = %q, want %q", m.Trust, messages.TrustedIntegration)
	}
	if m.Priority != messages.PriorityNormal {
		t.Errorf("Priority = %q, want %q", m.Priority, messages.PriorityNormal)
	}
	if m.TriggerKind != messages.TriggerExternalEvent {
		t.Errorf("TriggerKind = %q, want %q", m.TriggerKind, messages.TriggerExternalEvent)
	}
	if !m.CreatedAt.Equal(t0CET) || m.CreatedAt.Location() != t0CET.Location() {
		t.Errorf("CreatedAt = %v, want %v unchanged", m.CreatedAt, t0CET)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("Validate after Normalize: %v", err)
	}
}

func TestNormalizeKeepsExplicitTrustAndPriority(t *testing.T) {
	m := messages.MessageEnvelope{Kind: messages.KindChannelEvent, Origin: messages.ChannelOrigin("c", ""),
		Trust: messages.TrustedOperator, Priority: messages.PriorityBackground}
	m.Normalize()
	if m.Trust != messages.TrustedOperator || m.Priority != messages.PriorityBackground {
		t.Errorf("Normalize changed explicit labels: trust %q, priority %q", m.Trust, m.Priority)
	}
}

// validEnvelope is the base the Validate cases break one field of.
func validEnvelope() messages.MessageEnvelope {
	return goldenEnvelopes()["envelope_operator_text.json"]
}

func TestEnvelopeValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*messages.MessageEnvelope)
		field  string // "" means valid
	}{
		{"valid", func(*messages.MessageEnvelope) {}, ""},
		{"valid null json body", func(m *messages.MessageEnvelope) { m.Body = messages.JSONBody(json.RawMessage("null")) }, ""},
		{"valid operator without actor", func(m *messages.MessageEnvelope) { m.Origin = messages.OperatorOrigin("") }, ""},
		{"valid without optional labels", func(m *messages.MessageEnvelope) {
			m.DeliverySurface, m.AdmissionContext, m.Metadata, m.SourceRefs = "", "", nil, nil
		}, ""},
		{"missing id", func(m *messages.MessageEnvelope) { m.ID = "" }, "id"},
		{"missing agent", func(m *messages.MessageEnvelope) { m.AgentID = "" }, "agent_id"},
		{"zero created_at", func(m *messages.MessageEnvelope) { m.CreatedAt = time.Time{} }, "created_at"},
		{"unknown kind", func(m *messages.MessageEnvelope) { m.Kind = "prompt" }, "kind"},
		{"empty kind", func(m *messages.MessageEnvelope) { m.Kind = "" }, "kind"},
		{"unknown origin kind", func(m *messages.MessageEnvelope) { m.Origin.Kind = "human" }, "origin.kind"},
		{"channel without channel_id", func(m *messages.MessageEnvelope) { m.Origin = messages.ChannelOrigin("", "u1") }, "origin.channel_id"},
		{"webhook without source", func(m *messages.MessageEnvelope) { m.Origin = messages.WebhookOrigin("", "push") }, "origin.source"},
		{"callback without descriptor", func(m *messages.MessageEnvelope) { m.Origin = messages.CallbackOrigin("", "ci") }, "origin.descriptor_id"},
		{"timer without timer_id", func(m *messages.MessageEnvelope) { m.Origin = messages.TimerOrigin("") }, "origin.timer_id"},
		{"system without subsystem", func(m *messages.MessageEnvelope) { m.Origin = messages.SystemOrigin("") }, "origin.subsystem"},
		{"task without task_id", func(m *messages.MessageEnvelope) { m.Origin = messages.TaskOrigin("") }, "origin.task_id"},
		{"operator with channel_id", func(m *messages.MessageEnvelope) { m.Origin.ChannelID = "c1" }, "origin.channel_id"},
		{"timer with task_id", func(m *messages.MessageEnvelope) {
			m.Origin = messages.TimerOrigin("t1")
			m.Origin.TaskID = "task_1"
		}, "origin.task_id"},
		{"webhook with descriptor_id", func(m *messages.MessageEnvelope) {
			m.Origin = messages.WebhookOrigin("gh", "")
			m.Origin.DescriptorID = "d1"
		}, "origin.descriptor_id"},
		{"unknown trust", func(m *messages.MessageEnvelope) { m.Trust = "trusted" }, "trust"},
		{"empty trust", func(m *messages.MessageEnvelope) { m.Trust = "" }, "trust"},
		{"unknown authority", func(m *messages.MessageEnvelope) { m.AuthorityClass = "admin" }, "authority_class"},
		{"empty authority", func(m *messages.MessageEnvelope) { m.AuthorityClass = "" }, "authority_class"},
		{"unknown priority", func(m *messages.MessageEnvelope) { m.Priority = "urgent" }, "priority"},
		{"legacy priority spelling in Go", func(m *messages.MessageEnvelope) { m.Priority = "interrupt" }, "priority"},
		{"missing trigger_kind", func(m *messages.MessageEnvelope) { m.TriggerKind = "" }, "trigger_kind"},
		{"mismatched trigger_kind", func(m *messages.MessageEnvelope) { m.TriggerKind = messages.TriggerExternalEvent }, "trigger_kind"},
		{"empty source_refs key", func(m *messages.MessageEnvelope) { m.SourceRefs = map[string]string{"": "x"} }, "source_refs"},
		{"empty source_refs value", func(m *messages.MessageEnvelope) { m.SourceRefs = map[string]string{"timer_id": ""} }, "source_refs.timer_id"},
		{"unknown body type", func(m *messages.MessageEnvelope) { m.Body.Type = "html" }, "body.type"},
		{"empty text body", func(m *messages.MessageEnvelope) { m.Body = messages.TextBody("") }, "body.text"},
		{"text body with value", func(m *messages.MessageEnvelope) { m.Body.Value = json.RawMessage(`1`) }, "body.value"},
		{"text body with title", func(m *messages.MessageEnvelope) { m.Body.Title = "t" }, "body.title"},
		{"json body without value", func(m *messages.MessageEnvelope) { m.Body = messages.JSONBody(nil) }, "body.value"},
		{"json body with invalid value", func(m *messages.MessageEnvelope) { m.Body = messages.JSONBody(json.RawMessage(`{"a":`)) }, "body.value"},
		{"json body with text", func(m *messages.MessageEnvelope) {
			m.Body = messages.JSONBody(json.RawMessage(`1`))
			m.Body.Text = "x"
		}, "body.text"},
		{"brief body without text", func(m *messages.MessageEnvelope) { m.Body = messages.BriefBody("title", "") }, "body.text"},
		{"brief body with value", func(m *messages.MessageEnvelope) {
			m.Body = messages.BriefBody("", "done")
			m.Body.Value = json.RawMessage(`1`)
		}, "body.value"},
		{"empty attachment", func(m *messages.MessageEnvelope) {
			m.Body = messages.BriefBody("", "done", messages.BriefAttachment{URI: "u"}, messages.BriefAttachment{})
		}, "body.attachments[1]"},
		{"attachment with invalid value", func(m *messages.MessageEnvelope) {
			m.Body = messages.BriefBody("", "done", messages.BriefAttachment{Value: json.RawMessage(`nope`)})
		}, "body.attachments[0].value"},
		{"metadata array", func(m *messages.MessageEnvelope) { m.Metadata = json.RawMessage(`[1]`) }, "metadata"},
		{"metadata null", func(m *messages.MessageEnvelope) { m.Metadata = json.RawMessage(`null`) }, "metadata"},
		{"metadata invalid", func(m *messages.MessageEnvelope) { m.Metadata = json.RawMessage(`{"a"}`) }, "metadata"},
		{"unknown surface", func(m *messages.MessageEnvelope) { m.DeliverySurface = "smtp" }, "delivery_surface"},
		{"unknown admission", func(m *messages.MessageEnvelope) { m.AdmissionContext = "root" }, "admission_context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validEnvelope()
			tt.mutate(&m)
			checkFieldError(t, m.Validate(), messages.ErrInvalidEnvelope, tt.field)
		})
	}
}

// checkFieldError asserts err is nil when field is "", and otherwise a
// *FieldError naming field and wrapping sentinel.
func checkFieldError(t *testing.T, err, sentinel error, field string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("Validate() = %v, want nil", err)
		}
		return
	}
	var fe *messages.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("Validate() = %v, want a *FieldError for %s", err, field)
	}
	if fe.Field != field {
		t.Errorf("Validate() names field %q, want %q (%v)", fe.Field, field, err)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("Validate() = %v, want it to wrap %v", err, sentinel)
	}
	if !strings.Contains(err.Error(), field) {
		t.Errorf("Validate() = %q, want the message to name %q", err, field)
	}
}

func TestEnvelopeUnmarshalRejectsUnknownEnumValues(t *testing.T) {
	canon := mustMarshal(t, validEnvelope())
	tests := []struct{ name, from, to, want string }{
		{"kind", `"kind":"operator_prompt"`, `"kind":"operator_request"`, `"operator_request"`},
		{"origin kind", `"kind":"operator"`, `"kind":"owner"`, `"owner"`},
		{"trust", `"trust":"trusted_operator"`, `"trust":"root"`, `"root"`},
		{"priority", `"priority":"interject"`, `"priority":"asap"`, `"asap"`},
		{"body type", `"type":"text"`, `"type":"markdown"`, `"markdown"`},
		{"surface", `"delivery_surface":"cli_prompt"`, `"delivery_surface":"tty"`, `"tty"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.Replace(string(canon), tt.from, tt.to, 1)
			if in == string(canon) {
				t.Fatalf("fixture has no %s", tt.from)
			}
			var m messages.MessageEnvelope
			err := json.Unmarshal([]byte(in), &m)
			if !errors.Is(err, messages.ErrUnknownValue) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Unmarshal = %v, want ErrUnknownValue naming %s", err, tt.want)
			}
		})
	}
}

func TestEnvelopeUnmarshalLegacyPriority(t *testing.T) {
	in := strings.Replace(string(mustMarshal(t, validEnvelope())), `"priority":"interject"`, `"priority":"interrupt"`, 1)
	var m messages.MessageEnvelope
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if m.Priority != messages.PriorityInterject {
		t.Errorf("Priority = %q, want %q", m.Priority, messages.PriorityInterject)
	}
	if out := string(mustMarshal(t, m)); !strings.Contains(out, `"priority":"interject"`) {
		t.Errorf("re-encoded as %s, want the canonical spelling", out)
	}
}
