package memory_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/memory"
)

// TestConcurrentUse searches, writes and rebuilds from several goroutines at once: every call
// succeeds and, under -race, touches nothing unguarded.
func TestConcurrentUse(t *testing.T) {
	h := home(t)
	ix, src := sourced(t, h)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64) // one slot per call at most; read after Wait
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				d := doc(memory.KindEpisode, fmt.Sprint("g", g, "-", i), "ws-a", "concurrent", fmt.Sprint("parallel note ", g, " ", i))
				src.add(d)
				if err := ix.Upsert(d); err != nil {
					errs <- err
					return
				}
				if _, err := ix.Search(ctx, memory.Query{Text: "parallel 数据库", WorkspaceID: "ws-a"}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			if err := ix.Rebuild(ctx, nil); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := search(t, ix, memory.Query{Text: "parallel", WorkspaceID: "ws-a", Limit: memory.MaxLimit}); len(got) != 40 {
		t.Fatalf("Search(parallel) = %d hits, want all 40 notes", len(got))
	}
}
