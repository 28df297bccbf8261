package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirBytesCountsAllocatedBlocks: a file that is a hole (as an open
// Badger store's memtable files mostly are) adds nothing to dirBytes, a
// written one its length rounded up to whole blocks.
func TestDirBytesCountsAllocatedBlocks(t *testing.T) {
	dir := t.TempDir()
	hole, err := os.Create(filepath.Join(dir, "000001.mem"))
	if err != nil {
		t.Fatal(err)
	}
	if err := hole.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	if err := hole.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "000002.sst"), make([]byte, 100_000), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := dirBytes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got < 100_000 || got > 100_000+64<<10 {
		t.Fatalf("dirBytes = %d, want the written 100,000 bytes in whole blocks, not the 64 MiB hole", got)
	}
}

// TestDirBytesSkipsFilesGoneUnderIt: a file listed with its directory but
// removed before it is looked at (Badger deleting a compacted table during
// the walk) counts as nothing; the walk goes on and fails on nothing.
func TestDirBytesSkipsFilesGoneUnderIt(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"gone.sst", "kept.sst"} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, 8192), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "gone.sst")); err != nil {
		t.Fatal(err)
	}
	var total int64
	count := countAllocated(&total)
	for _, d := range entries {
		if err := count(filepath.Join(dir, d.Name()), d, nil); err != nil {
			t.Fatalf("%s: %v, want it skipped", d.Name(), err)
		}
	}
	kept, err := os.Stat(filepath.Join(dir, "kept.sst"))
	if err != nil {
		t.Fatal(err)
	}
	if want := allocatedBytes(kept); total != want {
		t.Fatalf("counted %d bytes, want the kept file's %d", total, want)
	}
}
