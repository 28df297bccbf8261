package actors_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// exportedW is the archive of agent w after one turn.
func exportedW(t *testing.T) []byte {
	t.Helper()
	h := testkit.NewWith(t, testkit.Options{Deps: withHome, Steps: []testkit.Step{testkit.Reply("done")}})
	ctx := context.Background()
	if _, err := h.Runtime.Info(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	h.Prompt("w", "hi")
	h.WaitEvent("w", testkit.OfType(messages.EventTurnTerminal))
	var buf bytes.Buffer
	if err := h.Runtime.Export(ctx, "w", &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestImportRefusesArtifactUnderFile: an archive whose artifacts cannot
// all exist on a file system (a and a/b) is refused before anything is
// written, so the id stays free for a good archive.
func TestImportRefusesArtifactUnderFile(t *testing.T) {
	good := testkit.Rearchive(t, exportedW(t), func(files map[string][]byte) {
		files["agents/w/artifacts/a"] = []byte("x")
	})
	bad := testkit.Rearchive(t, good, func(files map[string][]byte) {
		files["agents/w/artifacts/a/b"] = []byte("y")
	})
	other := testkit.NewWith(t, testkit.Options{Deps: withHome})
	ctx := context.Background()
	if _, err := other.Runtime.Import(ctx, bytes.NewReader(bad), actors.DefaultMaxArchiveBytes); !errors.Is(err, actors.ErrBadArchive) || !strings.Contains(err.Error(), "a/b") {
		t.Fatalf("Import = %v, want ErrBadArchive naming a/b", err)
	}
	if n, _ := other.Store().HighestSeq(ctx, "w"); n != 0 {
		t.Fatalf("a refused import wrote %d events", n)
	}
	if res, err := other.Runtime.Import(ctx, bytes.NewReader(good), actors.DefaultMaxArchiveBytes); err != nil || res.Artifacts != 1 {
		t.Fatalf("Import of the good archive = %+v, %v", res, err)
	}
}

// TestImportFailureRemovesWhatItWrote: an import that fails after it
// began writing (here its artifacts directory cannot be made) leaves no
// half-made agent: not listed, not activated, its events gone, across a
// restart too; the error says what happened.
func TestImportFailureRemovesWhatItWrote(t *testing.T) {
	archive := testkit.Rearchive(t, exportedW(t), func(files map[string][]byte) {
		files["agents/w/artifacts/notes.txt"] = []byte("notes")
	})
	other := testkit.NewWith(t, testkit.Options{Deps: withHome})
	ctx := context.Background()
	home, err := persistence.AgentHome(other.Home, "w")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".holon"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(persistence.ArtifactsDir(home), []byte("in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = other.Runtime.Import(ctx, bytes.NewReader(archive), actors.DefaultMaxArchiveBytes)
	if err == nil || errors.Is(err, actors.ErrBadArchive) || !strings.Contains(err.Error(), "was removed") {
		t.Fatalf("Import = %v, want a failure saying what it wrote was removed", err)
	}
	check := func(when string) {
		t.Helper()
		if ok, err := other.Runtime.Exists(ctx, "w"); ok || err != nil {
			t.Fatalf("%s: Exists(w) = %t, %v; want false", when, ok, err)
		}
		if _, err := other.Runtime.Info(ctx, "w"); !errors.Is(err, actors.ErrAgentDeleted) {
			t.Fatalf("%s: Info(w) = %v, want ErrAgentDeleted", when, err)
		}
		high, _ := other.Store().HighestSeq(ctx, "w")
		if evs, err := other.Store().Read(ctx, "w", 1, high, 0); err != nil || len(evs) != 0 {
			t.Fatalf("%s: %d events of w left (%v)", when, len(evs), err)
		}
		if m, _ := filepath.Glob(filepath.Join(other.Home, "trash", "importing-*")); len(m) != 0 {
			t.Fatalf("%s: import markers left: %v", when, m)
		}
	}
	check("after the failed import")
	other.Restart()
	check("after a restart")
}

// TestImportBoundsNamesToo: an archive of empty entries with long names
// (a few KiB compressed, each name held in memory) is refused at the
// import's bound like one of large files, not read to its end.
func TestImportBoundsNamesToo(t *testing.T) {
	var buf bytes.Buffer
	gw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gw)
	for i := range 200 {
		name := fmt.Sprintf("agents/w/artifacts/%d-%s", i, strings.Repeat("a", 60<<10))
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
	}
	if tw.Close() != nil || gw.Close() != nil {
		t.Fatal("close the archive")
	}
	h := testkit.NewWith(t, testkit.Options{Deps: withHome})
	_, err := h.Runtime.Import(context.Background(), bytes.NewReader(buf.Bytes()), 1<<20)
	if !errors.Is(err, actors.ErrBadArchive) || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Fatalf("Import of %d KiB holding 12 MiB of names = %v, want refused as larger than 1 MiB", buf.Len()>>10, err)
	}
}

// TestImportNamesAForeignEvent: an event of another agent in a journal is
// refused naming that agent (the refusal read "(<nil>)" for it).
func TestImportNamesAForeignEvent(t *testing.T) {
	archive := testkit.Rearchive(t, exportedW(t), func(files map[string][]byte) {
		files["agents/w/events.jsonl"] = bytes.Replace(files["agents/w/events.jsonl"], []byte(`"agent_id":"w"`), []byte(`"agent_id":"x"`), 1)
	})
	h := testkit.NewWith(t, testkit.Options{Deps: withHome})
	_, err := h.Runtime.Import(context.Background(), bytes.NewReader(archive), actors.DefaultMaxArchiveBytes)
	if !errors.Is(err, actors.ErrBadArchive) || !strings.Contains(err.Error(), `event 1 is an event of agent "x"`) {
		t.Fatalf("Import = %v, want event 1 refused as agent x's", err)
	}
}
