package actors_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

func withHome(home string, d *actors.AgentDeps) { d.ToolEnv.Home = home }

// TestDeleteForgetsAgentAcrossRestart: a deleted agent is not listed,
// activated or created again, also after a restart, and its archive in
// the trash imports on another runtime with its whole journal.
func TestDeleteForgetsAgentAcrossRestart(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{Deps: withHome, Steps: []testkit.Step{testkit.Reply("done")}})
	ctx := context.Background()
	if _, err := h.Runtime.Info(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	h.Prompt("w", "hi")
	h.WaitEvent("w", testkit.OfType(messages.EventTurnTerminal))
	if _, err := h.Runtime.Delete(ctx, actors.DefaultAgentID, actors.DeleteOptions{}); !errors.Is(err, actors.ErrNotDeletable) {
		t.Fatalf("Delete(main) = %v, want ErrNotDeletable", err)
	}
	res, err := h.Runtime.Delete(ctx, "w", actors.DeleteOptions{})
	if err != nil || len(res.Deleted) != 1 || res.Archive == "" {
		t.Fatalf("Delete = %+v, %v", res, err)
	}
	high, err := h.Store().HighestSeq(ctx, "w") // never lowered: what the archive holds
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		if ok, err := h.Runtime.Exists(ctx, "w"); ok || err != nil {
			t.Fatalf("%s: Exists(w) = %t, %v; want false", when, ok, err)
		}
		if _, err := h.Runtime.Info(ctx, "w"); !errors.Is(err, actors.ErrAgentDeleted) {
			t.Fatalf("%s: Info(w) = %v, want ErrAgentDeleted", when, err)
		}
		list, err := h.Runtime.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range list {
			if in.ID == "w" {
				t.Fatalf("%s: w is listed", when)
			}
		}
		if evs, err := h.Store().Read(ctx, "w", 1, high, 0); err != nil || len(evs) != 0 {
			t.Fatalf("%s: %d events of w left (%v)", when, len(evs), err)
		}
	}
	check("after delete")
	h.Restart()
	check("after a restart")

	archive, err := os.ReadFile(res.Archive)
	if err != nil {
		t.Fatal(err)
	}
	other := testkit.NewWith(t, testkit.Options{Deps: withHome})
	bad := bytes.Clone(archive)
	bad[len(bad)/2] ^= 0xff
	if _, err := other.Runtime.Import(ctx, bytes.NewReader(bad), actors.DefaultMaxArchiveBytes); !errors.Is(err, actors.ErrBadArchive) {
		t.Fatalf("Import of a damaged archive = %v, want ErrBadArchive", err)
	}
	if n, _ := other.Store().HighestSeq(ctx, "w"); n != 0 {
		t.Fatalf("a refused import wrote %d events", n)
	}
	got, err := other.Runtime.Import(ctx, bytes.NewReader(archive), actors.DefaultMaxArchiveBytes)
	if err != nil || got.AgentID != "w" || uint64(got.Events) != high {
		t.Fatalf("Import = %+v, %v; want w's %d events", got, err, high)
	}
	if in, err := other.Runtime.Info(ctx, "w"); err != nil || in.LastSeq != high {
		t.Fatalf("imported w = %+v, %v; want it recovered at %d", in, err, high)
	}
	if _, err := other.Runtime.Import(ctx, bytes.NewReader(archive), actors.DefaultMaxArchiveBytes); !errors.Is(err, actors.ErrAgentExists) {
		t.Fatalf("Import again = %v, want ErrAgentExists", err)
	}
}
