package actors

import (
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Handing a turn's final batch to the memory service, on the agent's
// actor, allocates the brief's record and little else: the events that
// write no record cost nothing, and the record is appended where it goes
// (it was built in a slice of its own, then copied, with its title by
// fmt and its metadata map grown).
func TestMemoryWriteAllocs(t *testing.T) {
	s := newMemoryService(t.TempDir(), persistence.NewMemStore())
	t.Cleanup(s.stop)
	at := time.Date(2026, 11, 24, 20, 15, 0, 0, time.UTC)
	b := []messages.Payload{
		messages.AssistantRoundRecorded{}, messages.TurnTerminal{},
		messages.BriefRecorded{Brief: messages.Brief{ID: "b1", Kind: messages.BriefKind("final"), Text: "Answered the prompt.",
			RelatedMessageID: "m1", CreatedAt: at}},
	}
	s.write("a", b, at, 1) // the first leaves the pending marker
	allocs := testing.AllocsPerRun(100, func() { s.write("a", b, at, 2) })
	// Measured: 8 a batch before, 4 now (the record's title, its
	// metadata map and its bucket, the pending records' slice growing).
	if allocs > 4.5 {
		t.Errorf("%.1f allocations a batch, want at most 4", allocs)
	}
	if got := s.pending["a"]; got == nil || len(got.docs) != 102 || got.docs[0].Title != "final brief 2026-11-24 20:15" {
		t.Errorf("pending %+v, want 102 records titled %q", got, "final brief 2026-11-24 20:15")
	}
}
