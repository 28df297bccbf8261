package actors_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// flipEventRecord flips a byte of event seq of stream in the Badger store
// of dataDir, as bit rot would (the key layout is persistence's:
// 'r' stream 0x00 'e' seq).
func flipEventRecord(t *testing.T, dataDir, stream string, seq uint64) {
	t.Helper()
	db, err := badger.Open(badger.DefaultOptions(dataDir).WithLogger(nil))
	if err != nil {
		t.Fatalf("open badger: %v", err)
	}
	defer db.Close()
	key := binary.BigEndian.AppendUint64(append(append([]byte{'r'}, stream...), 0, 'e'), seq)
	err = db.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return err
		}
		v[len(v)-2] ^= 0x5a
		return txn.Set(key, v)
	})
	if err != nil {
		t.Fatalf("flip %s seq %d: %v", stream, seq, err)
	}
}

// TestJournalDamageIsContained: an agent whose journal fails its checksum
// in the middle is quarantined by itself. Recovery succeeds, the agent is
// not resumed (its requests fail at once with ErrJournalQuarantined, also
// on later tries), listings show it quarantined, every other agent keeps
// working, and the operator is told once, through the default agent.
func TestJournalDamageIsContained(t *testing.T) {
	notifier := &recordingNotifier{}
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("one"), testkit.Reply("two"), testkit.Reply("three")},
		Deps: func(_ string, d *actors.AgentDeps) {
			d.Notifier, d.DefaultAgentID = notifier, "main"
		},
	})
	ctx := context.Background()
	for _, id := range []string{"main", "victim"} {
		h.Prompt(id, "hi")
		h.WaitEvent(id, testkit.OfType(messages.EventTurnTerminal))
	}
	h.RestartWith(func(dir string) { flipEventRecord(t, dir, "victim", 2) })

	for range 2 {
		if _, err := h.Runtime.Info(ctx, "victim"); !errors.Is(err, actors.ErrJournalQuarantined) {
			t.Fatalf("Info(victim) = %v, want ErrJournalQuarantined", err)
		}
	}
	list, err := h.Runtime.List(ctx)
	if err != nil {
		t.Fatalf("List = %v", err)
	}
	var listed bool
	for _, in := range list {
		if in.ID == "victim" {
			listed = in.JournalQuarantined && strings.Contains(in.LastError, "seq 2")
		}
	}
	if !listed {
		t.Errorf("List = %+v, want victim marked quarantined at seq 2", list)
	}

	h.Prompt("main", "still there?")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))

	n := decode[messages.OperatorNotificationRequested](t, h.WaitEvent("main", func(ev messages.Event) bool {
		return ev.Type == messages.EventOperatorNotificationRequested && strings.Contains(string(ev.Payload), messages.NotifyJournalQuarantined)
	})).Notification
	if n.RequestedByAgentID != "victim" || !strings.Contains(n.Message, "victim") || !strings.Contains(n.Message, "doctor") {
		t.Errorf("notification = %+v", n)
	}
	h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationDelivery))
	notifier.mu.Lock()
	sent := 0
	for _, got := range notifier.got {
		if got.Reason == messages.NotifyJournalQuarantined {
			sent++
		}
	}
	notifier.mu.Unlock()
	if sent != 1 {
		t.Errorf("journal_quarantined sent %d times, want once", sent)
	}
}

// TestStoreFindingsNotifyOperator: what the store found when it opened
// besides quarantines (here: its integrity marks were lost, so losses
// before now cannot be detected) reaches the operator once, recorded by
// the default agent.
func TestStoreFindingsNotifyOperator(t *testing.T) {
	h := testkit.NewWith(t, testkit.Options{
		Steps: []testkit.Step{testkit.Reply("one")},
		Deps:  func(_ string, d *actors.AgentDeps) { d.DefaultAgentID = "main" },
	})
	h.Prompt("main", "hi")
	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
	h.RestartWith(func(dir string) {
		if err := os.Remove(filepath.Join(dir, "journal.marks")); err != nil {
			t.Fatal(err)
		}
	})
	ev := h.WaitEvent("main", testkit.OfType(messages.EventOperatorNotificationRequested))
	n := decode[messages.OperatorNotificationRequested](t, ev).Notification
	if n.Reason != messages.NotifyStoreDamaged || !strings.Contains(n.Message, "integrity marks were missing") {
		t.Fatalf("notification = %+v", n)
	}
	if _, err := h.Runtime.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := testkit.CountOfType(h.Events("main"), messages.EventOperatorNotificationRequested); got != 1 {
		t.Fatalf("%d notifications, want one per process", got)
	}
}
