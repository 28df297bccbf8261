package memory

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// streamProjected hands every valid record over in order with its
// projection, skips the invalid ones, and ends its reader at the first
// error of either side.
func TestStreamProjected(t *testing.T) {
	const n = 3*pipeBatch + 7
	src := SourceFunc(func(ctx context.Context, yield func(Doc) error) error {
		for i := range n {
			d := Doc{Kind: KindBrief, Key: fmt.Sprint(i), Title: "数据库 title", Body: fmt.Sprint("body ", i)}
			if i%100 == 50 {
				d.Key = "" // refused: no key
			}
			if err := yield(d); err != nil {
				return err
			}
		}
		return nil
	})
	var got []string
	skipped := 0
	err := streamProjected(context.Background(), src, "a1", func(error) { skipped++ }, func(p projected) error {
		if p.title != project(p.doc.Title) || p.doc.AgentID != "a1" {
			t.Fatalf("record %s: title projection %q, agent %q", p.doc.Key, p.title, p.doc.AgentID)
		}
		got = append(got, p.doc.Key)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := n - skipped; skipped != 8 || len(got) != want || got[0] != "0" || got[len(got)-1] != fmt.Sprint(n-1) {
		t.Errorf("%d records written (first %s, last %s), %d skipped; want %d in order, 8 skipped", len(got), got[0], got[len(got)-1], skipped, want)
	}

	stop := errors.New("disk full")
	written := 0
	err = streamProjected(context.Background(), src, "a1", func(error) {}, func(projected) error {
		if written++; written == pipeBatch+1 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || written != pipeBatch+1 {
		t.Errorf("after a write error: %v with %d written, want %v at %d", err, written, stop, pipeBatch+1)
	}

	bad := errors.New("journal unreadable")
	err = streamProjected(context.Background(), SourceFunc(func(ctx context.Context, yield func(Doc) error) error {
		_ = yield(Doc{Kind: KindBrief, Key: "k"})
		return bad
	}), "a1", func(error) {}, func(projected) error { return nil })
	if !errors.Is(err, bad) {
		t.Errorf("source error = %v, want %v", err, bad)
	}
}
