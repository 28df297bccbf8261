package pgjournal

import (
	"runtime"
	"testing"
	"time"
)

// TestCommitterLingers: after a commit of several appends, collect waits
// (here: Linger and the last commit are long) until the group is full; after
// a lone writer's commit it takes what is queued and does not wait; a
// closed queue ends the wait.
func TestCommitterLingers(t *testing.T) {
	const failAfter = 10 * time.Second
	newC := func(lastGroup int) *committer {
		s := &Store{cfg: Config{MaxGroup: 10, Linger: time.Hour}}
		c := newCommitter(s)
		c.lastGroup, c.lastCommit = lastGroup, 2*time.Hour
		return c
	}
	collect := func(c *committer) <-chan []*appendReq {
		out := make(chan []*appendReq, 1)
		go func() {
			g, _ := c.collect()
			out <- g
		}()
		return out
	}
	wait := func(out <-chan []*appendReq) []*appendReq {
		t.Helper()
		select {
		case g := <-out:
			return g
		case <-time.After(failAfter):
			t.Fatal("collect did not return")
			return nil
		}
	}

	// taken waits until collect has taken what was queued.
	taken := func(c *committer) {
		for deadline := time.Now().Add(failAfter); len(c.in) > 0; runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatal("collect did not take the queued append")
			}
		}
	}

	c := newC(5)
	c.in <- &appendReq{stream: "s0"}
	out := collect(c)
	taken(c)
	for i := 1; i < 10; i++ {
		c.in <- &appendReq{stream: "s"}
	}
	if g := wait(out); len(g) != 10 {
		t.Fatalf("collect after a commit of 5 = %d appends, want a full group of 10", len(g))
	}

	c = newC(1)
	c.in <- &appendReq{stream: "lone"}
	if g := wait(collect(c)); len(g) != 1 {
		t.Fatalf("collect after a lone writer's commit = %d appends, want 1 at once", len(g))
	}

	c = newC(5)
	c.in <- &appendReq{stream: "s0"}
	out = collect(c)
	taken(c)
	c.in <- &appendReq{stream: "s1"}
	close(c.in)
	if g := wait(out); len(g) != 2 {
		t.Fatalf("collect with the queue closed while lingering = %d appends, want 2", len(g))
	}
}
