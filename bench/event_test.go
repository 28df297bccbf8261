package bench

import (
	"encoding/json"
	"testing"
	"time"
)

func TestStreamEvents(t *testing.T) {
	events, err := streamEvents(streamName(42), 3, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ids := make(map[string]bool)
	for i, e := range events {
		if err := e.Validate(); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
		if e.AgentID != streamName(42) {
			t.Errorf("event %d agent_id = %q, want %q", i, e.AgentID, streamName(42))
		}
		if n := len(e.Payload); n < 180 || n > 260 {
			t.Errorf("event %d payload is %d bytes, want about 200", i, n)
		}
		ids[e.ID] = true
	}
	if len(ids) != len(events) {
		t.Errorf("%d distinct ids for %d events", len(ids), len(events))
	}
}

func TestSnapshotData(t *testing.T) {
	d := snapshotData(streamName(1), 90, 1024)
	if len(d) != 1024 || !json.Valid(d) {
		t.Errorf("snapshotData is %d bytes, valid JSON %t; want 1024 and true", len(d), json.Valid(d))
	}
}
