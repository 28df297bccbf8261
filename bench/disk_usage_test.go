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
