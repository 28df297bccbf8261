package actors

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestArchiveArtifactsSkipsOnlyFilesBeingWritten: an artifact whose name
// merely contains ".tmp" is archived; the writer's NAME.tmp-RANDOM files are
// not.
func TestArchiveArtifactsSkipsOnlyFilesBeingWritten(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"report.txt", "data.tmp.json", "task_1/stdout.log", "task_1/stdout.log.tmp-Q2XZ", "x.tmp"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	aw := newArchiveWriter(io.Discard, time.Unix(0, 0))
	n, err := archiveArtifacts(aw, dir, "artifacts/")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range aw.files {
		got = append(got, f.Path)
	}
	want := []string{"artifacts/data.tmp.json", "artifacts/report.txt", "artifacts/task_1/stdout.log", "artifacts/x.tmp"}
	if n != len(want) || !slices.Equal(got, want) {
		t.Fatalf("archived %d: %v, want %v", n, got, want)
	}
}
