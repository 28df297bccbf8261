package actors

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// finishSuspend settles a turn whose model asked its operator a question
// (suspendedTurn), then arms the deadline timer and sends the
// notification on its way.
func (a *agent) finishSuspend() { a.mustCommit(suspendedTurn(a.state, a.env())) }

// respond answers or cancels a suspension (answerSuspension), answering
// once the batch is durable.
func (a *agent) respond(m *respondSuspension) *suspensionResult {
	b, resp, err := answerSuspension(a.state, a.env(), m)
	if err == nil && b != nil {
		if err = a.commit(b); err != nil {
			err = fmt.Errorf("answer %s: %w", resp.SuspensionID, err)
		}
	}
	if err != nil {
		return &suspensionResult{err: err}
	}
	return &suspensionResult{response: resp}
}

// suspensionDeadline handles the fire of a suspension's attempt timer
// (suspensionFire).
func (a *agent) suspensionDeadline(f timers.Fire, ts TimerState) {
	a.mustCommit(suspensionFire(a.state, a.env(), f, ts))
}

// afterResume is the status a resumed agent returns to (resumedStatus).
func (a *agent) afterResume() messages.AgentStatus { return resumedStatus(a.state) }

func sameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(compactJSON(a), compactJSON(b))
}

func compactJSON(v json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		return v
	}
	return buf.Bytes()
}
