package memory_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/memory"
)

// docs is a Source over a slice the test can change, standing in for the journal.
type docs struct {
	mu   sync.Mutex
	list []memory.Doc
}

func (s *docs) Docs(ctx context.Context, yield func(memory.Doc) error) error {
	s.mu.Lock()
	list := append([]memory.Doc(nil), s.list...)
	s.mu.Unlock()
	for _, d := range list {
		if err := yield(d); err != nil {
			return err
		}
	}
	return nil
}

func (s *docs) add(d ...memory.Doc) {
	s.mu.Lock()
	s.list = append(s.list, d...)
	s.mu.Unlock()
}

// home is a fresh agent home; indexDir its index directory.
func home(t *testing.T) string { return t.TempDir() }

func indexDir(home string) string { return filepath.Join(home, ".holon", "indexes") }

// open opens the index of home for agent with src, closing it at cleanup.
func open(t *testing.T, home, agent string, src memory.Source) *memory.Index {
	t.Helper()
	ix, err := memory.Open(indexDir(home), memory.Options{AgentID: agent, Source: src})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	return ix
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// doc is a record of agent a1; ws "" makes it agent-scoped.
func doc(kind memory.Kind, key, ws, title, body string) memory.Doc {
	d := memory.Doc{Kind: kind, Key: key, AgentID: "a1", WorkspaceID: ws, Title: title, Body: body,
		SourcePath: "journal", UpdatedAt: t0}
	if ws != "" {
		d.ScopeKind = memory.ScopeWorkspace
	}
	return d
}

// titles is the titles of hits, in order.
func titles(hits []memory.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Title
	}
	return out
}

func search(t *testing.T, ix *memory.Index, q memory.Query) []memory.Hit {
	t.Helper()
	hits, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%q): %v", q.Text, err)
	}
	return hits
}
