package control

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// holedStore hides the events of a seq range, as a crash repair that
// dropped a torn tail leaves a journal: HighestSeq above events that are
// gone. It counts reads, so a long hole can be seen to cost a few.
type holedStore struct {
	persistence.Store
	lo, hi uint64
	reads  int
}

func (h *holedStore) Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error) {
	h.reads++
	evs, err := h.Store.Read(ctx, stream, from, to, 0)
	if err != nil {
		return nil, err
	}
	kept := slices.DeleteFunc(evs, func(ev messages.Event) bool { return ev.Seq >= h.lo && ev.Seq <= h.hi })
	if limit > 0 && len(kept) > limit {
		kept = kept[:limit]
	}
	return kept, nil
}

// TestReadNewestWalksOverHoles: the newest events are found below a range
// of dropped seqs, however long, in a few reads; a journal whose every
// event is gone gives none, and the walk ends.
func TestReadNewestWalksOverHoles(t *testing.T) {
	ctx := context.Background()
	mem := persistence.NewMemStore()
	t.Cleanup(func() { _ = mem.Close() })
	evs := make([]messages.Event, 5000)
	for i := range evs {
		ev, err := messages.NewEvent("a", time.Now(), messages.ToolExecuted{TurnID: "turn-1", CallID: fmt.Sprint("call-", i),
			ToolName: "exec_command", Status: messages.ToolOK, Envelope: []byte(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		evs[i] = ev
	}
	if _, err := mem.Append(ctx, "a", evs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		lo, hi uint64
		n      int
		want   []uint64
		reads  int // at most
	}{
		{"no hole", 0, 0, 3, []uint64{4998, 4999, 5000}, 1},
		{"torn tail of 3", 4998, 5000, 2, []uint64{4996, 4997}, 5},
		{"tail of 4000 dropped", 1001, 5000, 2, []uint64{999, 1000}, 16},
		{"hole inside the answer", 4990, 4999, 3, []uint64{4988, 4989, 5000}, 8},
		{"every event gone", 1, 5000, 3, nil, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := &holedStore{Store: mem, lo: c.lo, hi: c.hi}
			s := &Server{cfg: Config{Store: h}}
			got, err := s.readNewest(ctx, "a", 5000, c.n)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []uint64
			for _, ev := range got {
				seqs = append(seqs, ev.Seq)
			}
			if !slices.Equal(seqs, c.want) {
				t.Fatalf("newest %d = %v, want %v", c.n, seqs, c.want)
			}
			if h.reads > c.reads {
				t.Errorf("%d reads, want at most %d", h.reads, c.reads)
			}
		})
	}
}
