package agenthome_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/agenthome"
)

func TestDiscoverSkills(t *testing.T) {
	root := t.TempDir()
	agentsDir := filepath.Join(root, "user", ".agents")
	home := filepath.Join(root, "home")
	anchor := filepath.Join(root, "repo")
	write(t, filepath.Join(agentsDir, "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Ship it\n---\nSECRET BODY\n")
	write(t, filepath.Join(root, "user", ".claude", "skills", "hidden", "SKILL.md"), "---\nname: hidden\n---\n") // a later root: not merged
	write(t, filepath.Join(home, "skills", "notes", "SKILL.md"), "no front matter\n")
	write(t, filepath.Join(home, ".codex", "skills", "ignored", "SKILL.md"), "---\nname: ignored\n---\n")
	write(t, filepath.Join(home, "skills", "not-a-skill", "README.md"), "x")
	write(t, filepath.Join(anchor, ".claude", "skills", "lint", "SKILL.md"), "---\nname: go-lint\ndescription: \"Lint Go\"\n---\n")
	roots := agenthome.SkillRoots(agentsDir, home, anchor)
	cases := []struct {
		name   string
		scopes []string
		want   []string // name/scope/description
	}{
		{"default agent: user, agent, workspace", []string{"user", "agent", "workspace"},
			[]string{"deploy/user/Ship it", "notes/agent/", "go-lint/workspace/Lint Go"}},
		{"named agent: agent, workspace", []string{"agent", "workspace"}, []string{"notes/agent/", "go-lint/workspace/Lint Go"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := agenthome.Discover(roots, tc.scopes...)
			var names []string
			for _, s := range got {
				names = append(names, s.Name+"/"+s.Scope+"/"+s.Description)
				if s.Path != filepath.Join(s.Dir, "SKILL.md") {
					t.Errorf("%s: path %s not its dir's SKILL.md", s.Name, s.Path)
				}
			}
			if len(names) != len(tc.want) {
				t.Fatalf("Discover = %v, want %v", names, tc.want)
			}
			for i := range names {
				if names[i] != tc.want[i] {
					t.Fatalf("Discover = %v, want %v", names, tc.want)
				}
			}
		})
	}
}

func TestInstallSkill(t *testing.T) {
	src := filepath.Join(t.TempDir(), "deploy")
	write(t, filepath.Join(src, "SKILL.md"), "---\nname: deploy\n---\n")
	write(t, filepath.Join(src, "scripts", "ship.sh"), "echo ship\n")
	skills := filepath.Join(t.TempDir(), "skills")
	name, err := agenthome.InstallSkill(context.Background(), agenthome.Config{}, skills, src, now)
	if err != nil || name != "deploy" {
		t.Fatalf("InstallSkill = %q, %v", name, err)
	}
	if got := read(t, filepath.Join(skills, "deploy", "scripts", "ship.sh")); got != "echo ship\n" {
		t.Errorf("script = %q", got)
	}
	if lock := read(t, filepath.Join(skills, agenthome.LockFile)); !strings.Contains(lock, `"source": "`+src+`"`) {
		t.Errorf("lock file = %s, want the source recorded", lock)
	} else if !strings.Contains(lock, `"mode": "copy"`) {
		t.Errorf("lock file = %s, want mode copy", lock)
	}
	if _, err := agenthome.InstallSkill(context.Background(), agenthome.Config{}, skills, src, now); !errors.Is(err, agenthome.ErrSkillRef) {
		t.Errorf("a second install = %v, want ErrSkillRef", err)
	}
	if _, err := agenthome.InstallSkill(context.Background(), agenthome.Config{}, skills, filepath.Join(t.TempDir(), "none"), now); !errors.Is(err, agenthome.ErrSkillRef) {
		t.Errorf("installing a missing skill = %v, want ErrSkillRef", err)
	}
}

// TestLinkSkill: --link makes skills/<name> a symbolic link to the
// source, which the catalog lists and whose edits it sees; the lock file
// records the source and mode link. A URL, a relative path, a directory
// without a SKILL.md and a name already installed are refused with
// nothing changed.
func TestLinkSkill(t *testing.T) {
	src := filepath.Join(t.TempDir(), "deploy")
	write(t, filepath.Join(src, "SKILL.md"), "---\nname: deploy\ndescription: Ship it.\n---\n")
	home := t.TempDir()
	skills := filepath.Join(home, agenthome.SkillsDir)
	name, err := agenthome.LinkSkill(skills, src, now)
	if err != nil || name != "deploy" {
		t.Fatalf("LinkSkill = %q, %v", name, err)
	}
	if target, err := os.Readlink(filepath.Join(skills, "deploy")); err != nil || target != src {
		t.Fatalf("skills/deploy links to %q (%v), want %s", target, err, src)
	}
	lock := read(t, filepath.Join(skills, agenthome.LockFile))
	if !strings.Contains(lock, `"source": "`+src+`"`) || !strings.Contains(lock, `"mode": "link"`) {
		t.Fatalf("lock file = %s, want the source and mode link", lock)
	}
	write(t, filepath.Join(src, "SKILL.md"), "---\nname: deploy\ndescription: Ship it, carefully.\n---\n")
	cat := agenthome.Discover(agenthome.SkillRoots("", home, ""), agenthome.SkillScopeAgent)
	if len(cat) != 1 || cat[0].Name != "deploy" || cat[0].Description != "Ship it, carefully." {
		t.Fatalf("catalog = %+v, want the linked skill as edited", cat)
	}
	for _, ref := range []string{"https://github.com/o/r/tree/main/skills/deploy", "deploy", src, filepath.Join(t.TempDir(), "none")} {
		if _, err := agenthome.LinkSkill(skills, ref, now); !errors.Is(err, agenthome.ErrSkillRef) {
			t.Errorf("LinkSkill(%s) = %v, want ErrSkillRef", ref, err)
		}
	}
	if after := read(t, filepath.Join(skills, agenthome.LockFile)); after != lock {
		t.Errorf("a refused link changed the lock file:\n%s", after)
	}
}
