package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestChildren(t *testing.T) {
	dir := t.TempDir()
	cfg := bench.DefaultChildrenConfig(dir)
	cfg.Count, cfg.Parents, cfg.Keep = 20, 2, true
	r, err := bench.Children(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Children != 20 || r.Parents != 2 || r.ChildrenPerParent != 10 {
		t.Errorf("Children counted %d children over %d parents, %d each; want 20 over 2, 10 each", r.Children, r.Parents, r.ChildrenPerParent)
	}
	if r.ChildrenPerSec <= 0 || r.Seconds <= 0 {
		t.Errorf("children_per_sec %v, seconds %v: want both > 0", r.ChildrenPerSec, r.Seconds)
	}
	if r.ChildP50Ms <= 0 || r.ChildP50Ms > r.ChildP99Ms || r.ChildP99Ms > r.ChildMaxMs {
		t.Errorf("latencies p50 %v, p99 %v, max %v: want 0 < p50 <= p99 <= max", r.ChildP50Ms, r.ChildP99Ms, r.ChildMaxMs)
	}
	if r.ChildrenArchived != 20 || r.Orphans != 0 || r.LiveChildren != 20 {
		t.Errorf("children_archived %d, orphans %d, live_children %d; want 20, 0, 20", r.ChildrenArchived, r.Orphans, r.LiveChildren)
	}
	if r.ParentTurns != 22 {
		t.Errorf("parent_turns = %d, want 22 (one delegation turn per parent, one per task_result)", r.ParentTurns)
	}
	if r.RSSParentsWarmBytes <= 0 || r.RSSChildrenLiveBytes <= 0 {
		t.Errorf("rss parents warm %d, children live %d: want both > 0", r.RSSParentsWarmBytes, r.RSSChildrenLiveBytes)
	}
	if _, err := os.Stat(filepath.Join(dir, bench.ChildrenDir)); err != nil {
		t.Errorf("Keep: %v", err)
	}
}
