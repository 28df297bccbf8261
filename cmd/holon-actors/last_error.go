package main

import (
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// describeLastError is an agent's last error with when it happened and,
// once a later turn completed, when it was resolved.
func describeLastError(in agentstate.AgentInfo) string {
	s := oneLineText(in.LastError)
	if in.LastErrorAt != nil {
		s += " (at " + in.LastErrorAt.Local().Format(time.DateTime) + ")"
	}
	if in.LastErrorResolvedAt != nil {
		s = "resolved at " + in.LastErrorResolvedAt.Local().Format(time.DateTime) + " by a completed turn; was: " + s
	}
	return s
}

// whenText is " at <local time>" for a known time, "" for the zero time.
func whenText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " at " + t.Local().Format(time.DateTime)
}
