package agenthome_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/agenthome"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var now = time.Date(2026, 11, 24, 7, 0, 0, 0, time.UTC)

func TestCreateFromEachTemplateForm(t *testing.T) {
	root := t.TempDir()
	templates := filepath.Join(root, "templates")
	write(t, filepath.Join(templates, "reviewer", "AGENTS.md"), "Review carefully.\n")
	skill := filepath.Join(root, "skills-src", "lint")
	write(t, filepath.Join(skill, "SKILL.md"), "---\nname: lint\ndescription: Lint Go code\n---\nRun it.\n")
	write(t, filepath.Join(skill, "scripts", "run.sh"), "#!/bin/sh\necho lint\n")
	absTemplate := filepath.Join(root, "abs-template")
	write(t, filepath.Join(absTemplate, "AGENTS.md"), "From an absolute directory.\n")
	write(t, filepath.Join(absTemplate, "skills.json"), `{"skill_refs": ["`+skill+`"]}`)
	gh := fakeGitHub(t, "acme", "agents", "main", map[string]string{
		"templates/ops/AGENTS.md":         "From GitHub.\n",
		"templates/ops/notes/runbook.md":  "Restart it.\n",
		"templates/ops/skills.json":       `{"skill_refs": ["https://github.com/acme/agents/tree/main/skills/deploy"]}`,
		"skills/deploy/SKILL.md":          "---\nname: deploy\ndescription: Deploy\n---\n",
		"skills/deploy/scripts/deploy.sh": "echo deploy\n",
	})
	cfg := agenthome.Config{TemplatesDir: templates, GitHubAPI: gh.URL}
	cases := []struct {
		name, template, instructions string
		want                         map[string]string // file -> content
		kind                         string
	}{
		{"template id", "reviewer", "", map[string]string{"AGENTS.md": "Review carefully.\n"}, agenthome.KindID},
		{"absolute directory with a skill", absTemplate, "", map[string]string{"AGENTS.md": "From an absolute directory.\n",
			"skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint Go code\n---\nRun it.\n", "skills/lint/scripts/run.sh": "#!/bin/sh\necho lint\n"}, agenthome.KindDir},
		{"GitHub tree URL", "https://github.com/acme/agents/tree/main/templates/ops", "", map[string]string{"AGENTS.md": "From GitHub.\n",
			"notes/runbook.md": "Restart it.\n", "skills/deploy/scripts/deploy.sh": "echo deploy\n"}, agenthome.KindGitHub},
		{"instructions over a template", "reviewer", "Only my own words.\n", map[string]string{"AGENTS.md": "Only my own words.\n"}, agenthome.KindID},
		{"instructions alone", "", "Only my own words.\n", map[string]string{"AGENTS.md": "Only my own words.\n"}, ""},
		{"nothing: the built-in default", "", "", map[string]string{}, agenthome.KindBuiltin},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(root, "agents", string(rune('a'+i)))
			if err := agenthome.Create(context.Background(), cfg, home, agenthome.Spec{Template: tc.template, Instructions: tc.instructions, Now: now}); err != nil {
				t.Fatalf("Create: %v", err)
			}
			for rel, want := range tc.want {
				if got := read(t, filepath.Join(home, rel)); got != want {
					t.Errorf("%s = %q, want %q", rel, got, want)
				}
			}
			for _, rel := range []string{"memory/self.md", "memory/operator.md", "AGENTS.md"} {
				read(t, filepath.Join(home, rel))
			}
			for _, d := range []string{"notes", "work", "skills", ".holon/state"} {
				if st, err := os.Stat(filepath.Join(home, d)); err != nil || !st.IsDir() {
					t.Errorf("%s is not a directory: %v", d, err)
				}
			}
			if _, err := os.Stat(filepath.Join(home, "skills.json")); err == nil {
				t.Error("skills.json was copied into the home")
			}
			p, ok, err := agenthome.ReadProvenance(home)
			if err != nil || !ok || p.Kind != tc.kind || !p.AppliedAt.Equal(now) {
				t.Errorf("provenance = %+v, %t, %v; want kind %q applied at %s", p, ok, err, tc.kind, now)
			}
		})
	}
}

func TestCreateFailsClosed(t *testing.T) {
	root := t.TempDir()
	templates := filepath.Join(root, "templates")
	write(t, filepath.Join(templates, "empty", "README.md"), "no AGENTS.md here\n")
	write(t, filepath.Join(templates, "badskill", "AGENTS.md"), "x\n")
	write(t, filepath.Join(templates, "badskill", "skills.json"), `{"skill_refs": ["/no/such/skill"]}`)
	write(t, filepath.Join(templates, "namedskill", "AGENTS.md"), "x\n")
	write(t, filepath.Join(templates, "namedskill", "skills.json"), `{"skill_refs": ["frobnicate"]}`)
	write(t, filepath.Join(templates, "badjson", "AGENTS.md"), "x\n")
	write(t, filepath.Join(templates, "badjson", "skills.json"), `{"skills": []}`)
	gh := fakeGitHub(t, "acme", "agents", "main", map[string]string{"t/AGENTS.md": "x\n"})
	down := fakeGitHub(t, "x", "y", "z", nil)
	down.Close() // unreachable
	cases := []struct {
		name, template, api string
		want                error
	}{
		{"unknown id", "nope", gh.URL, agenthome.ErrTemplate},
		{"relative path", "some/dir", gh.URL, agenthome.ErrTemplate},
		{"no AGENTS.md", "empty", gh.URL, agenthome.ErrTemplate},
		{"missing absolute dir", filepath.Join(root, "missing"), gh.URL, agenthome.ErrTemplate},
		{"bad skill ref", "badskill", gh.URL, agenthome.ErrSkillRef},
		{"unknown built-in skill", "namedskill", gh.URL, agenthome.ErrSkillRef},
		{"bad skills.json", "badjson", gh.URL, agenthome.ErrTemplate},
		{"not a tree URL", "https://github.com/acme/agents/blob/main/t", gh.URL, agenthome.ErrTemplate},
		{"nothing at the URL", "https://github.com/acme/agents/tree/main/other", gh.URL, agenthome.ErrTemplate},
		{"unreachable URL", "https://github.com/acme/agents/tree/main/t", down.URL, agenthome.ErrUnreachable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			agents := filepath.Join(root, "agents-"+strings.ReplaceAll(tc.name, " ", "-"))
			home := filepath.Join(agents, "a1")
			err := agenthome.Create(context.Background(), agenthome.Config{TemplatesDir: templates, GitHubAPI: tc.api}, home,
				agenthome.Spec{Template: tc.template, Now: now})
			if !errors.Is(err, tc.want) {
				t.Fatalf("Create = %v, want %v", err, tc.want)
			}
			if entries, _ := os.ReadDir(agents); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

func TestCreateRefusesAHomeInUse(t *testing.T) {
	home := filepath.Join(t.TempDir(), "a1")
	write(t, filepath.Join(home, "AGENTS.md"), "mine\n")
	err := agenthome.Create(context.Background(), agenthome.Config{}, home, agenthome.Spec{Instructions: "theirs", Now: now})
	if !errors.Is(err, agenthome.ErrHomeExists) {
		t.Fatalf("Create = %v, want ErrHomeExists", err)
	}
	if got := read(t, filepath.Join(home, "AGENTS.md")); got != "mine\n" {
		t.Errorf("AGENTS.md = %q, want it untouched", got)
	}
}
