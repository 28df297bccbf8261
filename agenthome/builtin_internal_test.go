package agenthome

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A built-in template is refreshed to a new version only while it is as
// the runtime last wrote it.
func TestSeedRefreshesOnlyUnmodified(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "holon-x")
	now := time.Date(2026, 11, 24, 7, 0, 0, 0, time.UTC)
	v1 := map[string][]byte{"AGENTS.md": []byte("v1\n"), "notes/a.md": []byte("a\n")}
	v2 := map[string][]byte{"AGENTS.md": []byte("v2\n")}
	v3 := map[string][]byte{"AGENTS.md": []byte("v3\n")}
	steps := []struct {
		files   map[string][]byte
		edit    string
		want    string
		agents  string
		noNotes bool
	}{
		{files: v1, want: SeedCreated, agents: "v1\n"},
		{files: v1, want: SeedUnchanged, agents: "v1\n"},
		{files: v2, want: SeedRefreshed, agents: "v2\n", noNotes: true},
		{files: v3, edit: "mine\n", want: SeedDiverged, agents: "mine\n", noNotes: true},
	}
	for i, s := range steps {
		if s.edit != "" {
			if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(s.edit), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		got, err := seed(dir, "holon-x", s.files, now)
		if err != nil || got != s.want {
			t.Fatalf("step %d: seed = %q, %v; want %q", i, got, err, s.want)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "AGENTS.md"))
		if string(b) != s.agents {
			t.Errorf("step %d: AGENTS.md = %q, want %q", i, b, s.agents)
		}
		if _, err := os.Stat(filepath.Join(dir, "notes/a.md")); s.noNotes && err == nil {
			t.Errorf("step %d: the old version's notes/a.md is still there", i)
		}
	}
}
