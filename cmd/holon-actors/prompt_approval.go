package main

import (
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// approvalAsked is the tool approval question ev asks about message
// msgID's turn; nil for any other event. prompt --wait returns at it: the
// turn waits for the operator, not for time.
func approvalAsked(ev control.StreamEvent, msgID string) *messages.SuspensionRecord {
	if ev.Provenance.Kind != messages.EventSuspensionRequested {
		return nil
	}
	var p messages.SuspensionRequested
	if json.Unmarshal(ev.Payload, &p) != nil {
		return nil
	}
	r := &p.Suspension
	if r.MessageID != msgID || r.ToolApproval() == nil {
		return nil
	}
	return r
}

// printApproval says which call waits for approval, with its exact
// arguments, and how to answer.
func printApproval(e *env, id string, r *messages.SuspensionRecord) {
	a := r.ToolApproval()
	fmt.Fprintf(e.stdout, "the turn waits for your approval (%s): %s\n", r.ID, r.Question)
	fmt.Fprintf(e.stdout, "tool %s, arguments %s\n", a.ToolName, a.Arguments)
	fmt.Fprintf(e.stdout, "answer with: holon-actors respond %s %s yes (run it) or no (refuse it)\n", id, r.ID)
}
