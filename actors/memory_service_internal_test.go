package actors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/persistence"
)

// The service keeps at most maxOpenIndexes idle indexes open, closing the
// least recently used; one in use is never closed under its user, and a
// forgotten (deleted) agent's index is closed at its last release.
func TestMemoryIndexesBounded(t *testing.T) {
	home := t.TempDir()
	s := newMemoryService(home, persistence.NewMemStore())
	t.Cleanup(s.stop)
	ctx := context.Background()
	for i := range maxOpenIndexes + 1 {
		if err := os.MkdirAll(filepath.Join(home, "agents", fmt.Sprintf("a%d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	held, release, err := s.index(ctx, "a0")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= maxOpenIndexes; i++ {
		_, rel, err := s.index(ctx, fmt.Sprintf("a%d", i))
		if err != nil {
			t.Fatal(err)
		}
		rel()
	}
	if n := len(s.indexes); n != maxOpenIndexes {
		t.Fatalf("%d indexes open, want %d", n, maxOpenIndexes)
	}
	if _, ok := s.indexes["a0"]; !ok {
		t.Fatal("the index in use was closed under its user")
	}
	if _, ok := s.indexes["a1"]; ok {
		t.Fatal("a1, the least recently used idle index, is still open")
	}
	if _, err := held.Search(ctx, memory.Query{Text: "anything"}); err != nil {
		t.Fatalf("search on the held index: %v", err)
	}

	s.forget("a0")
	if _, ok := s.indexes["a0"]; ok {
		t.Fatal("a forgotten agent's index is still in the cache")
	}
	if _, err := held.Search(ctx, memory.Query{Text: "anything"}); err != nil {
		t.Fatalf("a forgotten index in use was closed under its user: %v", err)
	}
	release()
	if _, err := held.Search(ctx, memory.Query{Text: "anything"}); !errors.Is(err, memory.ErrClosed) {
		t.Fatalf("search after the last release of a forgotten index = %v, want %v", err, memory.ErrClosed)
	}
}
