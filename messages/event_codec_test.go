package messages_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func TestNewEvent(t *testing.T) {
	at := time.Now() // carries a monotonic reading NewEvent must drop
	e, err := messages.NewEvent("main", at, messages.TimerFired{TimerID: "tmr_1", FireID: "f1"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.ID, "evt_") || e.Seq != 0 || e.AgentID != "main" {
		t.Errorf("NewEvent identity = id %q seq %d agent %q", e.ID, e.Seq, e.AgentID)
	}
	if e.Type != messages.EventTimerFired || e.Version != 1 {
		t.Errorf("NewEvent type = %s v%d, want %s v1", e.Type, e.Version, messages.EventTimerFired)
	}
	if !e.At.Equal(at) || e.At != at.Round(0).UTC() {
		t.Errorf("At = %v, want %v in UTC without monotonic reading", e.At, at)
	}
	if got := string(e.Payload); got != `{"timer_id":"tmr_1","fire_id":"f1"}` {
		t.Errorf("Payload = %s", got)
	}
}

func TestNewEventErrors(t *testing.T) {
	badEnvelope := validEnvelope()
	badEnvelope.Origin = messages.ChannelOrigin("", "")
	tests := []struct {
		name     string
		agentID  string
		at       time.Time
		payload  messages.Payload
		sentinel error
		field    string
	}{
		{"empty agent", "", t0, messages.TimerFired{TimerID: "t"}, messages.ErrInvalidEvent, "agent_id"},
		{"zero time", "main", time.Time{}, messages.TimerFired{TimerID: "t"}, messages.ErrInvalidEvent, "at"},
		{"invalid envelope", "main", t0, messages.MessageAdmitted{Envelope: badEnvelope}, messages.ErrInvalidEnvelope, "origin.channel_id"},
		{"invalid closure", "main", t0, messages.TurnTerminal{TurnID: "t", Kind: messages.TerminalCompleted,
			Closure: messages.Closure{Outcome: messages.OutcomeCompleted, WaitingReason: messages.AwaitingTimer}},
			messages.ErrInvalidClosure, "waiting_reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := messages.NewEvent(tt.agentID, tt.at, tt.payload)
			checkFieldError(t, err, tt.sentinel, tt.field)
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	base := goldenEvent(t, 1, messages.AgentStateChanged{From: messages.StatusAsleep, To: messages.StatusAwakeIdle, Reason: "timer"})
	tests := []struct {
		name   string
		mutate func(*messages.Event)
		field  string
	}{
		{"unknown type", func(e *messages.Event) { e.Type = "agent_exploded" }, "type"},
		{"version zero", func(e *messages.Event) { e.Version = 0 }, "version"},
		{"newer version", func(e *messages.Event) { e.Version = 2 }, "version"},
		{"payload not JSON", func(e *messages.Event) { e.Payload = json.RawMessage(`{"from":`) }, "payload"},
		{"payload for another type", func(e *messages.Event) { e.Type = messages.EventTimerFired }, "payload"},
		{"unknown payload field", func(e *messages.Event) {
			e.Payload = json.RawMessage(`{"from":"asleep","to":"awake_idle","reason":"x","mood":"happy"}`)
		}, "payload"},
		{"unknown enum value", func(e *messages.Event) {
			e.Payload = json.RawMessage(`{"from":"asleep","to":"hibernating","reason":"x"}`)
		}, "payload"},
		{"payload not an object", func(e *messages.Event) { e.Payload = json.RawMessage(`[1]`) }, "payload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := base
			tt.mutate(&e)
			p, err := e.Decode()
			if p != nil {
				t.Errorf("Decode returned payload %#v with error", p)
			}
			checkFieldError(t, err, messages.ErrInvalidEvent, tt.field)
		})
	}
}

func TestDecodeUnknownEnumNamesValue(t *testing.T) {
	e := goldenEvent(t, 1, messages.AgentStateChanged{From: messages.StatusAsleep, To: messages.StatusAwakeIdle})
	e.Payload = json.RawMessage(`{"from":"asleep","to":"hibernating","reason":"x"}`)
	_, err := e.Decode()
	if !errors.Is(err, messages.ErrInvalidEvent) || !strings.Contains(err.Error(), `"hibernating"`) {
		t.Errorf("Decode = %v, want an error naming \"hibernating\"", err)
	}
}

func TestEventValidate(t *testing.T) {
	base := goldenEvent(t, 1, messages.TimerFired{TimerID: "t", FireID: "f"})
	tests := []struct {
		name   string
		mutate func(*messages.Event)
		field  string
	}{
		{"valid", func(*messages.Event) {}, ""},
		{"no id", func(e *messages.Event) { e.ID = "" }, "id"},
		{"no agent", func(e *messages.Event) { e.AgentID = "" }, "agent_id"},
		{"zero at", func(e *messages.Event) { e.At = time.Time{} }, "at"},
		{"empty payload", func(e *messages.Event) { e.Payload = nil }, "payload"},
		{"unknown type", func(e *messages.Event) { e.Type = "x" }, "type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := base
			tt.mutate(&e)
			checkFieldError(t, e.Validate(), messages.ErrInvalidEvent, tt.field)
		})
	}
}

func TestNewEventRefusesWhatWouldNotDecode(t *testing.T) {
	_, err := messages.NewEvent("main", time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		messages.AgentStateChanged{From: messages.StatusAwakeIdle, To: "sideways", Reason: "bad enum"})
	if !errors.Is(err, messages.ErrInvalidEvent) {
		t.Fatalf("NewEvent with an out-of-range status = %v, want ErrInvalidEvent", err)
	}
	ev, err := messages.NewEvent("main", time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		messages.AgentStateChanged{To: messages.StatusStopped, Reason: "quarantined"})
	if err != nil {
		t.Fatalf("a state change without from: %v", err)
	}
	if _, err := ev.Decode(); err != nil {
		t.Fatalf("decode: %v", err)
	}
}

func TestDecodeNamesPayloadForBadJSON(t *testing.T) {
	at := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	for _, raw := range []string{`{"timer_id":`, `{"timer_id":"t1"`, `not json`, `{"timer_id":"t1","fire_id":"f"} trailing`} {
		ev := messages.Event{ID: "evt_1", AgentID: "main", Type: messages.EventTimerFired, Version: 1, At: at, Payload: json.RawMessage(raw)}
		_, err := ev.Decode()
		var fe *messages.FieldError
		if !errors.As(err, &fe) || fe.Field != "payload" || !errors.Is(err, messages.ErrInvalidEvent) {
			t.Errorf("Decode(%q) = %v, want an invalid-event error naming payload", raw, err)
		}
	}
}
