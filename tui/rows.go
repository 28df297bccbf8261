package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// row is one line group of the main conversation.
type row struct {
	seq  uint64
	text string
}

// rowFor is the conversation row of ev in display mode d, if it has one:
// operator messages and briefs always; progress and curated tool activity
// from verbose; the rest of an agent's execution in debug. State-sync
// events are never rows (they refresh the status line).
func rowFor(agent string, ev control.StreamEvent, d Display) (row, bool) {
	p := ev.Presentation
	r := row{seq: ev.Provenance.EventSeq}
	switch {
	case p.Category == control.CategoryStateSync:
		return r, false
	case ev.Provenance.Kind == messages.EventMessageAdmitted:
		if o := ev.Provenance.Origin; o != nil && o.Kind == messages.OriginOperator {
			r.text = "you › " + operatorText(ev)
			return r, true
		}
		r.text = "  · " + p.Summary
		return r, d >= DisplayDebug
	case p.Category == control.CategoryBrief:
		return briefRow(agent, r, p, d)
	case p.Category == control.CategoryTool:
		r.text = "  ▸ " + p.Summary
		if ev.Provenance.Kind == messages.EventToolCallStarted {
			r.text = "  ▸ " + p.Summary + " " + oneLine(p.Body, 120)
			return r, d >= DisplayDebug
		}
		return r, d >= DisplayVerbose
	case p.Visibility == control.VisibilityProgress:
		r.text = "  ⋯ " + p.Summary
		return r, d >= DisplayVerbose
	case p.Visibility == control.VisibilityTrace:
		r.text = "  · " + p.Summary
		return r, d >= DisplayDebug
	}
	r.text = "  ! " + p.Title + ": " + p.Summary
	return r, true
}

// briefRow shows a brief under the agent's name, marked by its kind.
func briefRow(agent string, r row, p control.Presentation, d Display) (row, bool) {
	switch p.Visibility {
	case control.VisibilityProgress: // an acknowledgement
		r.text = agent + " · " + p.Title + ": " + p.Body
		return r, d >= DisplayVerbose
	case control.VisibilityActionRequired:
		r.text = agent + " ? " + p.Body
	default:
		mark := " › "
		if p.Title == "Failure" {
			mark = " ✗ "
		}
		r.text = agent + mark + p.Body
	}
	return r, true
}

// operatorText is what the operator said: a prompt's text, or the
// answer to a question.
func operatorText(ev control.StreamEvent) string {
	var p messages.MessageAdmitted
	if json.Unmarshal(ev.Payload, &p) != nil || p.Envelope.Body.Text != "" || len(p.Envelope.Body.Value) == 0 {
		return ev.Presentation.Body
	}
	var v struct {
		Answer *struct {
			Value    json.RawMessage `json:"value"`
			Question string          `json:"question"`
		} `json:"input_response"`
	}
	if json.Unmarshal(p.Envelope.Body.Value, &v) != nil || v.Answer == nil {
		return oneLine(string(p.Envelope.Body.Value), 200)
	}
	value := string(v.Answer.Value)
	var text string
	if json.Unmarshal(v.Answer.Value, &text) == nil {
		value = text
	}
	return fmt.Sprintf("answered %q: %s", oneLine(v.Answer.Question, 60), oneLine(value, 100))
}

// activityOf is the one-line "working" summary an event gives the current
// turn, if any: its assistant progress or tool activity.
func activityOf(ev control.StreamEvent) (string, bool) {
	p := ev.Presentation
	switch p.Category {
	case control.CategoryProgress, control.CategoryTool:
		return p.Summary, true
	}
	return "", false
}

// oneLine flattens s to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
