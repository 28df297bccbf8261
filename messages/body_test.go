package messages_test

import (
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestBodyJSON(t *testing.T) {
	tests := []struct {
		name string
		body messages.Body
		want string
	}{
		{"text", messages.TextBody("hi"), `{"type":"text","text":"hi"}`},
		{"json object", messages.JSONBody(json.RawMessage(`{"a":[1,2]}`)), `{"type":"json","value":{"a":[1,2]}}`},
		{"json string", messages.JSONBody(json.RawMessage(`"s"`)), `{"type":"json","value":"s"}`},
		{"brief", messages.BriefBody("Done", "All green.", messages.BriefAttachment{URI: "u", Value: json.RawMessage(`1`)}),
			`{"type":"brief","text":"All green.","title":"Done","attachments":[{"uri":"u","value":1}]}`},
		{"brief without title", messages.BriefBody("", "ok"), `{"type":"brief","text":"ok"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.body.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if got := string(mustMarshal(t, tt.body)); got != tt.want {
				t.Errorf("Marshal = %s, want %s", got, tt.want)
			}
			checkRoundTrip(t, []byte(tt.want), tt.body)
		})
	}
}

func TestBodyValidate(t *testing.T) {
	tests := []struct {
		name  string
		body  messages.Body
		field string
	}{
		{"zero", messages.Body{}, "body.type"},
		{"unknown type", messages.Body{Type: "xml", Text: "x"}, "body.type"},
		{"text empty", messages.TextBody(""), "body.text"},
		{"text with attachments", messages.Body{Type: messages.BodyText, Text: "x",
			Attachments: []messages.BriefAttachment{{URI: "u"}}}, "body.attachments"},
		{"json missing value", messages.Body{Type: messages.BodyJSON}, "body.value"},
		{"json bad value", messages.JSONBody(json.RawMessage(`{`)), "body.value"},
		{"json with title", messages.Body{Type: messages.BodyJSON, Value: json.RawMessage(`1`), Title: "t"}, "body.title"},
		{"brief missing text", messages.BriefBody("t", ""), "body.text"},
		{"brief bad attachment", messages.BriefBody("", "x", messages.BriefAttachment{}), "body.attachments[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkFieldError(t, tt.body.Validate(), messages.ErrInvalidEnvelope, tt.field)
		})
	}
}
