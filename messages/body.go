package messages

import (
	"encoding/json"
	"fmt"
)

// BodyType is the variant of a message body.
type BodyType string

// The body types.
const (
	BodyText  BodyType = "text"
	BodyJSON  BodyType = "json"
	BodyBrief BodyType = "brief"
)

var bodyTypes = enum[BodyType]{name: "body type", values: []BodyType{BodyText, BodyJSON, BodyBrief}}

// String returns the BodyType as spelled in JSON.
func (t BodyType) String() string { return string(t) }

// Valid reports whether t is one of the spec's body types.
func (t BodyType) Valid() bool { return bodyTypes.valid(t) }

// UnmarshalText parses a body type, rejecting unknown values.
func (t *BodyType) UnmarshalText(text []byte) error { return bodyTypes.unmarshal(t, text) }

// ParseBodyType returns the BodyType spelled s or an error wrapping
// ErrUnknownValue.
func ParseBodyType(s string) (BodyType, error) { return bodyTypes.parse(s) }

// Body is a message payload, kept structured as long as possible. It is a
// tagged union on Type (a protobuf oneof in messages.proto):
//
//	text   Text (required)
//	json   Value (required, any JSON value)
//	brief  Text (required), Title, Attachments
//
// Build one with TextBody, JSONBody or BriefBody.
type Body struct {
	Type        BodyType          `json:"type"`
	Text        string            `json:"text,omitempty"`
	Value       json.RawMessage   `json:"value,omitempty"`
	Title       string            `json:"title,omitempty"`
	Attachments []BriefAttachment `json:"attachments,omitempty"`
}

// bodyShapes is the union's layout: per type, its required and optional
// fields by JSON key.
var bodyShapes = map[BodyType]shape{
	BodyText:  {required: []string{"text"}},
	BodyJSON:  {required: []string{"value"}},
	BodyBrief: {required: []string{"text"}, optional: []string{"title", "attachments"}},
}

// TextBody returns a text body.
func TextBody(text string) Body { return Body{Type: BodyText, Text: text} }

// JSONBody returns a json body holding value, which must be valid JSON.
func JSONBody(value json.RawMessage) Body { return Body{Type: BodyJSON, Value: value} }

// BriefBody returns a brief body; title and attachments are optional.
func BriefBody(title, text string, attachments ...BriefAttachment) Body {
	return Body{Type: BodyBrief, Title: title, Text: text, Attachments: attachments}
}

// Validate reports the first malformed field of b as a *FieldError wrapping
// ErrInvalidEnvelope, with paths as inside an envelope ("body.text",
// "body.attachments[1].value").
func (b Body) Validate() error { return b.validate("body") }

func (b Body) validate(prefix string) error {
	s, ok := bodyShapes[b.Type]
	if !ok {
		return fieldError(ErrInvalidEnvelope, prefix+".type", fmt.Sprintf("%q is not a body type", b.Type))
	}
	if err := s.check(ErrInvalidEnvelope, prefix, string(b.Type)+" body", b.fields()); err != nil {
		return err
	}
	if len(b.Value) > 0 && !json.Valid(b.Value) {
		return fieldError(ErrInvalidEnvelope, prefix+".value", "is not valid JSON")
	}
	for i, a := range b.Attachments {
		if err := a.validate(fmt.Sprintf("%s.attachments[%d]", prefix, i)); err != nil {
			return err
		}
	}
	return nil
}

func (b Body) fields() []field {
	return []field{
		{"text", b.Text != ""},
		{"value", len(b.Value) > 0},
		{"title", b.Title != ""},
		{"attachments", len(b.Attachments) > 0},
	}
}

func (a BriefAttachment) validate(path string) error {
	switch {
	case a.URI == "" && len(a.Value) == 0:
		return fieldError(ErrInvalidEnvelope, path, "has neither uri nor value")
	case len(a.Value) > 0 && !json.Valid(a.Value):
		return fieldError(ErrInvalidEnvelope, path+".value", "is not valid JSON")
	}
	return nil
}
