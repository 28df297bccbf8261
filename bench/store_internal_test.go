package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// TestInFreshStore: the store is filled, closed, still on disk for the
// second phase, and removed afterwards unless kept; a directory holding
// streams already is refused and left alone.
func TestInFreshStore(t *testing.T) {
	ctx := context.Background()
	for _, keep := range []bool{false, true} {
		o := persistence.DefaultOptions(filepath.Join(t.TempDir(), "store"))
		var filled, then bool
		err := inFreshStore(ctx, o, o.Dir, keep, func(st *persistence.BadgerStore) error {
			filled = true
			ev, err := messages.NewEvent("a1", time.Now(), messages.AgentStateChanged{From: messages.StatusAsleep, To: messages.StatusAwakeIdle})
			if err != nil {
				return err
			}
			_, err = st.Append(ctx, "a1", []messages.Event{ev})
			return err
		}, func() error {
			then = true
			if _, err := os.Stat(o.Dir); err != nil {
				t.Errorf("keep %v: store directory gone before the second phase: %v", keep, err)
			}
			st, err := persistence.Open(o) // closed by the first phase: it can be reopened
			if err != nil {
				return err
			}
			return st.Close()
		})
		if err != nil || !filled || !then {
			t.Fatalf("keep %v: inFreshStore = %v (filled %v, then %v)", keep, err, filled, then)
		}
		_, err = os.Stat(o.Dir)
		if kept := err == nil; kept != keep {
			t.Errorf("keep %v: directory kept = %v", keep, kept)
		}
		if keep {
			err := inFreshStore(ctx, o, o.Dir, false, func(*persistence.BadgerStore) error { return errors.New("ran") }, nil)
			if err == nil || !strings.Contains(err.Error(), "already holds 1 streams") {
				t.Errorf("inFreshStore over a used store = %v, want it refused", err)
			}
			if _, err := os.Stat(o.Dir); err != nil {
				t.Errorf("a refused directory was removed: %v", err)
			}
		}
	}
}

func TestCheckWorkload(t *testing.T) {
	tests := []struct {
		name, dir string
		counts    []count
		want      string
	}{
		{"fine", "d", []count{{"agents", 1}, {"turns", 5}}, ""},
		{"no dir", "", []count{{"agents", 1}}, "turns bench: dir is empty"},
		{"first bad count", "d", []count{{"agents", 0}, {"turns", -1}}, "turns bench: agents is 0, want at least 1"},
		{"second bad count", "d", []count{{"agents", 3}, {"turns", -1}}, "turns bench: turns is -1, want at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkWorkload("turns", tt.dir, tt.counts...)
			if got := errString(err); got != tt.want {
				t.Errorf("checkWorkload = %q, want %q", got, tt.want)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
