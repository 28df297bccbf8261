package mailbox_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/actors/mailbox"
)

// TestQueuedByBand: messages waiting behind a busy actor count in their
// band, and stop counting once the actor has taken them.
func TestQueuedByBand(t *testing.T) {
	sys := newQuietSystem()
	pid, got := spawnRecorder(t, sys, mailbox.Banded(nil), nil)
	defer sys.Root.Stop(pid)
	before := mailbox.Queued()
	release := blockActor(t, sys.Root, pid)
	sys.Root.Send(pid, normalNote("n1"))
	sys.Root.Send(pid, normalNote("n2"))
	sys.Root.Send(pid, bgNote("b1"))
	sys.Root.Send(pid, interjectNote("i1"))
	waiting := mailbox.Queued()
	for band, want := range map[string]int{"normal": 2, "background": 1, "interject": 1, "next": 0} {
		if d := waiting[band] - before[band]; d != want {
			t.Errorf("queued %s = %d more, want %d (%v)", band, d, want, waiting)
		}
	}
	release()
	expectLabels(t, got, "i1", "n1", "n2", "b1")
	after := mailbox.Queued()
	for band := range waiting {
		if after[band] != before[band] {
			t.Errorf("queued %s = %d after the actor took them, want %d", band, after[band], before[band])
		}
	}
}
