package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// admittedPrompt is the payload shape of the benchmark's events: an operator
// prompt as admission journals it. It is local to the benchmark so the
// workload stays fixed while the real envelope evolves.
type admittedPrompt struct {
	ID       string               `json:"id"`
	AgentID  string               `json:"agent_id"`
	Kind     messages.MessageKind `json:"kind"`
	Origin   promptOrigin         `json:"origin"`
	Priority messages.Priority    `json:"priority"`
	Body     promptBody           `json:"body"`
}

type promptOrigin struct {
	Kind string `json:"kind"`
}

type promptBody struct {
	Text string `json:"text"`
}

// promptText is the operator's prompt. Its length puts the payload at about
// 200 bytes for the usual stream and message ids.
const promptText = "Summarise the failing tests of the nightly build."

// streamName names the i-th stream of a run, as an agent id would.
func streamName(i int) string { return fmt.Sprintf("%s%05d", streamPrefix, i) }

const streamPrefix = "bench-agent-"

// streamEvents returns n message_admitted events for stream, with ids unique
// across streams and payloads shaped like an admitted operator prompt.
func streamEvents(stream string, n int, at time.Time) ([]messages.Event, error) {
	events := make([]messages.Event, n)
	for i := range events {
		id := fmt.Sprintf("msg-%s-%07d", strings.TrimPrefix(stream, streamPrefix), i+1)
		payload, err := json.Marshal(admittedPrompt{
			ID:       id,
			AgentID:  stream,
			Kind:     messages.KindOperatorPrompt,
			Origin:   promptOrigin{Kind: "operator"},
			Priority: messages.PriorityNormal,
			Body:     promptBody{Text: promptText},
		})
		if err != nil {
			return nil, fmt.Errorf("encode payload %s: %w", id, err)
		}
		events[i] = messages.Event{
			ID:      "evt-" + id,
			AgentID: stream,
			Type:    messages.EventMessageAdmitted,
			Version: 1,
			At:      at.Add(time.Duration(i) * time.Millisecond),
			Payload: payload,
		}
	}
	return events, nil
}

// snapshotData returns size bytes of JSON standing in for an agent's state.
func snapshotData(stream string, seq uint64, size int) []byte {
	head := fmt.Sprintf(`{"agent_id":%q,"last_seq":%d,"state":"awake_idle","notes":"`, stream, seq)
	tail := `"}`
	pad := max(size-len(head)-len(tail), 0)
	return []byte(head + strings.Repeat("x", pad) + tail)
}
