package memory_test

import (
	"bytes"
	"context"
	"database/sql"
	"github.com/rs/zerolog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/memory"
)

// sourced opens an index of the corpus whose Source is the corpus, with the records also upserted.
func sourced(t *testing.T, h string) (*memory.Index, *docs) {
	t.Helper()
	src := &docs{}
	src.add(corpus()...)
	ix := open(t, h, "a1", src)
	return ix, src
}

// damage functions break the index directory of a closed index in the ways a disk or a person can.
var damages = []struct {
	name string
	do   func(t *testing.T, dir string)
}{
	{"directory deleted", func(t *testing.T, dir string) {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}},
	{"file deleted", func(t *testing.T, dir string) {
		if err := os.Remove(filepath.Join(dir, "memory.sqlite3")); err != nil {
			t.Fatal(err)
		}
	}},
	{"file all garbage", func(t *testing.T, dir string) {
		garble(t, filepath.Join(dir, "memory.sqlite3"), 0)
	}},
	{"garbage after the header page", func(t *testing.T, dir string) {
		garble(t, filepath.Join(dir, "memory.sqlite3"), 4096)
	}},
	{"empty file", func(t *testing.T, dir string) {
		if err := os.WriteFile(filepath.Join(dir, "memory.sqlite3"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}},
	{"stale schema version", func(t *testing.T, dir string) {
		db, err := sql.Open("sqlite", filepath.Join(dir, "memory.sqlite3"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`UPDATE meta SET v = 'memory-fts5-0' WHERE k = 'schema'`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`DELETE FROM docs`); err != nil {
			t.Fatal(err)
		}
	}},
}

// garble overwrites the file from offset to its end with bytes that are not SQLite pages.
func garble(t *testing.T, path string, offset int64) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, info.Size()-offset)
	for i := range junk {
		junk[i] = byte(i*131 + 7)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(junk, offset); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestDamagedIndexIsRebuilt(t *testing.T) {
	for _, tt := range damages {
		t.Run(tt.name, func(t *testing.T) {
			h := home(t)
			ix, src := sourced(t, h)
			ref := refOf(t, ix, "postgres")
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			tt.do(t, indexDir(h))

			ix = open(t, h, "a1", src)
			hits := search(t, ix, memory.Query{Text: "数据库", AllWorkspaces: true})
			if got := titles(hits); len(got) == 0 || got[0] != "数据库迁移" {
				t.Fatalf("Search after damage = %q, want 数据库迁移 first", got)
			}
			got, err := ix.Get(ref, 0)
			if err != nil || got.Title != "migrate db" {
				t.Fatalf("Get(ref from before the rebuild) = %+v, %v", got, err)
			}
		})
	}
}

func TestCorruptionFoundBySearchIsRebuilt(t *testing.T) {
	h := home(t)
	src := &docs{}
	src.add(corpus()...)
	var logs bytes.Buffer
	ix, err := memory.Open(indexDir(h), memory.Options{AgentID: "a1", Source: src, Logger: zerolog.New(&logs)})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	logs.Reset()
	// Damage the file under the open index: the next read fails as corrupt, and Search answers
	// from a rebuilt index instead of surfacing the error.
	garble(t, filepath.Join(indexDir(h), "memory.sqlite3"), 4096)
	hits := search(t, ix, memory.Query{Text: "kubernetes", AllWorkspaces: true})
	if got := titles(hits); !slices.Equal(got, []string{"部署 Kubernetes"}) {
		t.Fatalf("Search on corrupt index = %q", got)
	}
	if !strings.Contains(logs.String(), `"reason":"corrupt"`) {
		t.Fatalf("logs = %s, want a rebuild for corruption", logs.String())
	}
}

func TestDirtyMarkerRebuilds(t *testing.T) {
	h := home(t)
	ix, src := sourced(t, h)
	// A write reached the journal (the source) but not the index.
	src.add(doc(memory.KindEpisode, "late", "", "late", "a fact the index missed: quokka"))
	if got := search(t, ix, memory.Query{Text: "quokka"}); len(got) != 0 {
		t.Fatalf("precondition: found %q before the marker", titles(got))
	}
	if err := ix.MarkDirty(); err != nil {
		t.Fatal(err)
	}
	if !ix.Dirty() {
		t.Fatal("Dirty() = false after MarkDirty")
	}
	if got := titles(search(t, ix, memory.Query{Text: "quokka"})); !slices.Equal(got, []string{"late"}) {
		t.Fatalf("Search after MarkDirty = %q, want [late]", got)
	}
	if ix.Dirty() {
		t.Fatal("Dirty() = true after the rebuild")
	}
}

func TestDirtyMarkerRebuildsOnOpen(t *testing.T) {
	h := home(t)
	ix, src := sourced(t, h)
	if err := ix.MarkDirty(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	src.add(doc(memory.KindEpisode, "late", "", "late", "a fact the index missed: quokka"))
	ix = open(t, h, "a1", src)
	if ix.Dirty() {
		t.Fatal("Dirty() = true after Open rebuilt")
	}
	if got := titles(search(t, ix, memory.Query{Text: "quokka"})); !slices.Equal(got, []string{"late"}) {
		t.Fatalf("Search after Open of a dirty index = %q, want [late]", got)
	}
}

func TestRebuildKeepsRefs(t *testing.T) {
	h := home(t)
	ix, src := sourced(t, h)
	ref := refOf(t, ix, "canary")
	if err := ix.Rebuild(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if got, err := ix.Get(ref, 0); err != nil || got.Title != "rollback" {
		t.Fatalf("Get after Rebuild = %+v, %v", got, err)
	}
	if got := refOf(t, ix, "canary"); got != ref {
		t.Fatalf("ref after Rebuild = %q, want %q", got, ref)
	}
}
