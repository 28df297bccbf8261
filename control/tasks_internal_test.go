package control

import (
	"testing"
	"time"
)

// TestSortTasks: running tasks first, then newest first, then by id.
func TestSortTasks(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	got := sortTasks([]TaskView{
		{TaskID: "old-done", Status: "completed", CreatedAt: t0},
		{TaskID: "old-running", Status: "running", CreatedAt: t0},
		{TaskID: "new-done", Status: "failed", CreatedAt: t0.Add(time.Minute)},
		{TaskID: "b-new-running", Status: "running", CreatedAt: t0.Add(time.Minute)},
		{TaskID: "a-new-running", Status: "running", CreatedAt: t0.Add(time.Minute)},
	})
	want := []string{"a-new-running", "b-new-running", "old-running", "new-done", "old-done"}
	for i, w := range want {
		if got[i].TaskID != w {
			t.Fatalf("order = %v, want %v", ids(got), want)
		}
	}
}

func ids(v []TaskView) []string {
	out := make([]string, len(v))
	for i, t := range v {
		out[i] = t.TaskID
	}
	return out
}
