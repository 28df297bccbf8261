package tools

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Renderer derives the model-visible receipt from a canonical success
// envelope. Each tool family has one; it must be deterministic, so a
// receipt rendered again from the journal's envelope is the same.
type Renderer interface {
	Render(env Envelope) string
}

// RenderFunc adapts a function to Renderer.
type RenderFunc func(env Envelope) string

// Render calls f.
func (f RenderFunc) Render(env Envelope) string { return f(env) }

// Confirmation is the renderer of small receipt-style tools: the summary
// text alone.
var Confirmation Renderer = RenderFunc(func(env Envelope) string { return env.SummaryText })

// JSONResult renders the summary followed by the result as indented JSON,
// bounded to maxChars with head and tail kept: for tools whose structure
// is the most readable form. Strings inside are shown once, never as
// escaped JSON inside JSON.
func JSONResult(maxChars int) Renderer {
	return RenderFunc(func(env Envelope) string {
		if len(env.Result) == 0 {
			return env.SummaryText
		}
		body, _ := HeadTail(PrettyJSON(env.Result), maxChars)
		return env.SummaryText + "\n\n" + body
	})
}

// PrettyJSON indents JSON without escaping <, > and &; a string value
// that itself holds a JSON object or array is shown as that JSON instead
// of an escaped string. Text that is not JSON is returned as it is.
func PrettyJSON(raw []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(unnestJSON(v)); err != nil {
		return string(raw)
	}
	return strings.TrimRight(b.String(), "\n")
}

// unnestJSON replaces strings that hold a JSON object or array by their
// decoded value, so they are not rendered double-escaped.
func unnestJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = unnestJSON(e)
		}
	case []any:
		for i, e := range x {
			x[i] = unnestJSON(e)
		}
	case string:
		t := strings.TrimSpace(x)
		if len(t) > 1 && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
			var inner any
			dec := json.NewDecoder(strings.NewReader(t))
			dec.UseNumber()
			if dec.Decode(&inner) == nil {
				return unnestJSON(inner)
			}
		}
	}
	return v
}

// ReadableOutput shows command output that is one line of JSON as
// indented JSON, keys in their order, and anything else as it is: JSON
// printed by a command is never re-escaped.
func ReadableOutput(s string) string {
	t := strings.TrimSpace(s)
	if len(t) < 2 || (t[0] != '{' && t[0] != '[') || strings.Contains(t, "\n") {
		return s
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(t), "", "  "); err != nil {
		return s
	}
	return b.String()
}
