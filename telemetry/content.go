package telemetry

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// ChatMessage is one message of a model round's input or output in the
// shape of the GenAI conventions' gen_ai.input.messages and
// gen_ai.output.messages: a role and its parts.
type ChatMessage struct {
	Role  string        `json:"role"` // system, user, assistant, tool
	Parts []MessagePart `json:"parts"`
	// FinishReason is why the model stopped, on an output message.
	FinishReason string `json:"finish_reason,omitempty"`
}

// MessagePart is one part of a ChatMessage: text (Content), a tool call
// (ID, Name, Arguments) or a tool call's response (ID, Response).
type MessagePart struct {
	Type      string          `json:"type"` // text, tool_call, tool_call_response
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  string          `json:"response,omitempty"`
}

// The bounds of captured content: a part's text beyond maxPartBytes is cut
// (marked), and a messages attribute keeps the latest messages that fit
// in maxContentBytes (at least the last one).
const (
	maxPartBytes    = 4 << 10
	maxContentBytes = 16 << 10
)

// MaxInputMessages is how many of the conversation's latest items an
// agent need hand over as a round's input (OpenTurn.Input): no more fit.
const MaxInputMessages = 64

// contentJSON is msgs as a conventions' messages attribute: each text
// redacted by the secret registry, then bounded (cut parts, the oldest
// messages dropped).
func (t *Telemetry) contentJSON(msgs []ChatMessage) string {
	enc := make([][]byte, 0, len(msgs))
	size := 2 // []
	for i := len(msgs) - 1; i >= 0; i-- {
		b := t.encodeMessage(msgs[i])
		if len(enc) > 0 && size+len(b)+1 > maxContentBytes {
			break
		}
		enc = append(enc, b)
		size += len(b) + 1
	}
	var out bytes.Buffer
	out.Grow(size)
	out.WriteByte('[')
	for i := len(enc) - 1; i >= 0; i-- {
		out.Write(enc[i])
		if i > 0 {
			out.WriteByte(',')
		}
	}
	out.WriteByte(']')
	return out.String()
}

// encodeMessage is m as JSON, its texts redacted and cut.
func (t *Telemetry) encodeMessage(m ChatMessage) []byte {
	parts := make([]MessagePart, len(m.Parts))
	for i, p := range m.Parts {
		p.Content, p.Response = t.bounded(p.Content), t.bounded(p.Response)
		if len(p.Arguments) > 0 {
			args := t.secrets.Redact(string(p.Arguments))
			if len(args) > maxPartBytes || !json.Valid([]byte(args)) {
				args = strconv.Quote(cut(args)) // a JSON string, then
			}
			p.Arguments = json.RawMessage(args)
		}
		parts[i] = p
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(ChatMessage{Role: m.Role, Parts: parts, FinishReason: m.FinishReason}) // strings and valid raw JSON only: cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// bounded is s redacted, then cut to maxPartBytes.
func (t *Telemetry) bounded(s string) string {
	if s == "" {
		return s
	}
	return cut(t.secrets.Redact(s))
}

// cut shortens s to maxPartBytes (on a rune boundary), saying how much
// was left out.
func cut(s string) string {
	if len(s) <= maxPartBytes {
		return s
	}
	n := maxPartBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…[" + strconv.Itoa(len(s)-n) + " bytes cut]"
}

// CapturesContent reports whether spans carry message content: tracing
// is on and Config.CaptureContent asks for it. An agent hands over a
// round's input (OpenTurn.Input) only then.
func (t *Telemetry) CapturesContent() bool {
	return t != nil && t.tracer != nil && t.cfg.CaptureContent
}
