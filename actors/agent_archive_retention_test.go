package actors_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestExportImportOfAnArchivedAgent: once retention moved the head of an
// agent's journal into archive segments, its export still holds the whole
// history, an import of that export rebuilds it event for event, and the
// agent itself still starts (replaying through the archive) after a restart.
func TestExportImportOfAnArchivedAgent(t *testing.T) {
	steps := []testkit.Step{testkit.Reply("one"), testkit.Reply("two"), testkit.Reply("three")}
	h := testkit.NewWith(t, testkit.Options{Deps: withHome, Steps: steps})
	ctx := context.Background()
	var last uint64
	for _, text := range []string{"a", "b", "c"} {
		h.Prompt("w", text)
		last = h.WaitEvent("w", func(ev messages.Event) bool {
			return ev.Type == messages.EventTurnTerminal && ev.Seq > last
		}).Seq
	}
	high, err := h.Store().HighestSeq(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	before, err := h.Store().Read(ctx, "w", 1, high, 0)
	if err != nil || uint64(len(before)) != high {
		t.Fatalf("read %d of %d events: %v", len(before), high, err)
	}
	if moved := h.ArchiveUpTo("w", high-3); moved != int(high-3) {
		t.Fatalf("archived %d events, want %d", moved, high-3)
	}
	var buf bytes.Buffer
	if err := h.Runtime.Export(ctx, "w", &buf); err != nil {
		t.Fatal(err)
	}
	other := testkit.NewWith(t, testkit.Options{Deps: withHome})
	res, err := other.Runtime.Import(ctx, bytes.NewReader(buf.Bytes()), actors.DefaultMaxArchiveBytes)
	if err != nil {
		t.Fatalf("Import of an archived agent's export = %v", err)
	}
	after, err := other.Store().Read(ctx, "w", 1, high, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("import holds %d events (%+v), the source had %d", len(after), res, len(before))
	}
	for i := range before {
		if after[i].Seq != before[i].Seq || after[i].ID != before[i].ID || after[i].Type != before[i].Type ||
			!bytes.Equal(after[i].Payload, before[i].Payload) {
			t.Fatalf("imported event %d = %+v, source %+v", i+1, after[i], before[i])
		}
	}
	h.GracefulRestart()
	// A shutdown or a start may journal a state change after high.
	if in, err := h.Runtime.Info(ctx, "w"); err != nil || in.LastSeq < high {
		t.Fatalf("after a restart Info(w) = %+v, %v; want LastSeq at least %d", in, err, high)
	}
	again, err := h.Store().Read(ctx, "w", 1, high, 0)
	if err != nil || len(again) != len(before) || again[0].ID != before[0].ID {
		t.Fatalf("after a restart read %d of %d events (%v)", len(again), len(before), err)
	}
}
