package telemetry_test

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
)

// TestObserveTurnAllocs: with metrics on and tracing off, a turn of two
// model rounds and a tool call costs a handful of allocations (the turn's
// record), not one per metric: the label-bound handles are cached and
// the batch is not copied.
func TestObserveTurnAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector changes what allocates")
	}
	tel, err := telemetry.New(telemetry.Config{}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	batches, now := turnBatches("t"), time.Now()
	turn := func() {
		for _, b := range batches {
			tel.Observe("a", messages.AgentDefault, now, b)
		}
	}
	turn() // the first turn makes the handles
	if n := testing.AllocsPerRun(100, turn); n > 6 {
		t.Errorf("a turn's telemetry made %v allocations, want at most 6", n)
	}
}

// TestTracedTurnAllocs: a traced turn (the same, four spans ending into
// a synchronous exporter) reuses its record from the turn before and its
// span options within the turn: at most 52 allocations (67 when every
// span's options and every turn's record were made anew).
func TestTracedTurnAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector changes what allocates")
	}
	tel, err := telemetry.New(telemetry.Config{}, telemetry.Options{Log: zerolog.Nop(), Exporter: discard{}})
	if err != nil {
		t.Fatal(err)
	}
	batches, now := turnBatches("t"), time.Now()
	turn := func() {
		for _, b := range batches {
			tel.Observe("a", messages.AgentDefault, now, b)
		}
	}
	turn()
	if n := testing.AllocsPerRun(100, turn); n > 52 {
		t.Errorf("a traced turn made %v allocations, want at most 52", n)
	}
}
