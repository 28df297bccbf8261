package agenthome_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/agenthome"
)

func TestLoadInstructions(t *testing.T) {
	cases := []struct {
		name      string
		files     map[string]string
		limit     int
		workspace bool
		wantKind  string
		wantText  string
		truncated bool
	}{
		{"agent AGENTS.md", map[string]string{"AGENTS.md": "be brief"}, 0, false, "AGENTS.md", "be brief", false},
		{"agent ignores CLAUDE.md", map[string]string{"CLAUDE.md": "claude"}, 0, false, "", "", false},
		{"workspace AGENTS.md wins over CLAUDE.md", map[string]string{"AGENTS.md": "agents", "CLAUDE.md": "claude"}, 0, true, "AGENTS.md", "agents", false},
		{"workspace CLAUDE.md fallback", map[string]string{"CLAUDE.md": "claude"}, 0, true, "CLAUDE.md", "claude", false},
		{"none", nil, 0, true, "", "", false},
		{"truncated", map[string]string{"AGENTS.md": "0123456789"}, 4, false, "AGENTS.md",
			"0123\n[AGENTS.md truncated: the first 4 of 10 bytes are shown]", true},
		{"truncated at a rune start", map[string]string{"AGENTS.md": "ab€cd"}, 3, false, "AGENTS.md",
			"ab\n[AGENTS.md truncated: the first 2 of 7 bytes are shown]", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, s := range tc.files {
				write(t, filepath.Join(dir, n), s)
			}
			load := agenthome.LoadAgent
			if tc.workspace {
				load = agenthome.LoadWorkspace
			}
			in, err := load(dir, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantKind == "" {
				if in != nil {
					t.Fatalf("loaded %+v, want nothing", in)
				}
				return
			}
			if in == nil || in.Kind != tc.wantKind || in.Text != tc.wantText || in.Truncated != tc.truncated ||
				in.Path != filepath.Join(dir, tc.wantKind) {
				t.Fatalf("loaded %+v, want kind %s text %q truncated %t", in, tc.wantKind, tc.wantText, tc.truncated)
			}
		})
	}
}

func TestLoadRefusesANonRegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "AGENTS.md"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := agenthome.LoadAgent(dir, 0); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("LoadAgent = %v, want a not-a-regular-file error", err)
	}
}

func TestAnchor(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "a", "b")
	plain := filepath.Join(root, "plain", "dir")
	for _, d := range []string{filepath.Join(repo, ".git"), sub, plain} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if got := agenthome.Anchor(sub); got != repo {
		t.Errorf("Anchor(%s) = %s, want the git root %s", sub, got, repo)
	}
	if got := agenthome.Anchor(plain); got != plain {
		t.Errorf("Anchor(%s) = %s, want the directory itself", plain, got)
	}
}
