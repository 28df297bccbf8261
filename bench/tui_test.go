package bench_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

// TestTUISmall runs the console bench at a small size: the console
// connects, paints the agent's newest events and shows every key typed,
// while the other agents run turns.
func TestTUISmall(t *testing.T) {
	cfg := bench.TUIConfig{Dir: t.TempDir(), Events: 300, Busy: 3, Paints: 2, Keystrokes: 45}
	r, err := bench.TUI(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Events < 300 || r.FirstPaintP50Ms <= 0 || r.KeyP50Ms <= 0 || r.Keystrokes != 45 {
		t.Errorf("result %+v: want at least 300 events and measured paints and keys", r)
	}
	if r.BusyTurns == 0 {
		t.Errorf("the busy agents ran no turn while the console was measured")
	}
}
