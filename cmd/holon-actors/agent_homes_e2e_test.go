package main

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// githubContents serves files (OWNER/REPO/REF/PATH keys) in the GitHub
// contents API's wire format: a directory is a JSON array of {type, name,
// path}, a file {type, encoding: base64, content}. Owner "broken" answers
// 500.
func githubContents(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/repos/"), "/", 4) // owner, repo, "contents", path
		if len(parts) < 3 || parts[2] != "contents" {
			http.NotFound(w, r)
			return
		}
		if parts[0] == "broken" {
			http.Error(w, "upstream down", http.StatusInternalServerError)
			return
		}
		p := ""
		if len(parts) == 4 {
			p = strings.Trim(parts[3], "/")
		}
		key := path.Join(parts[0], parts[1], r.URL.Query().Get("ref"), p)
		if body, ok := files[key]; ok {
			json.NewEncoder(w).Encode(map[string]string{"type": "file", "name": path.Base(p), "path": p,
				"encoding": "base64", "content": base64.StdEncoding.EncodeToString([]byte(body))})
			return
		}
		var list []map[string]string
		seen := map[string]bool{}
		for f := range files {
			rest, ok := strings.CutPrefix(f, key+"/")
			if !ok {
				continue
			}
			name, _, isDir := strings.Cut(rest, "/")
			if !seen[name] {
				seen[name] = true
				list = append(list, map[string]string{"type": map[bool]string{true: "dir", false: "file"}[isDir], "name": name, "path": path.Join(p, name)})
			}
		}
		if list == nil {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(list)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func readText(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAgentHomesFromTemplates creates agents as a new user would: from the
// built-in templates, a GitHub tree URL, their own instructions file, and
// bad templates that make nothing.
func TestAgentHomesFromTemplates(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	agentsDir := filepath.Join(t.TempDir(), "dot-agents")
	gh := githubContents(t, map[string]string{
		"acme/agents/main/ops/AGENTS.md":             "Keep the lights on.\n",
		"acme/agents/main/ops/skills.json":           `{"skill_refs": ["https://github.com/acme/agents/tree/main/skills/restart"]}`,
		"acme/agents/main/skills/restart/SKILL.md":   "---\nname: restart\ndescription: Restart a service\n---\n",
		"acme/agents/main/skills/restart/scripts/go": "echo restart\n",
	})
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRunEnv(t, home, []string{"HOLON_AGENTS_DIR=" + agentsDir, "HOLON_GITHUB_API=" + gh.URL},
		"--model", "scripted", "--script", script)
	defer d.stop()

	def := readText(t, filepath.Join(agentsDir, "templates", "holon-default", "AGENTS.md"))
	dev := readText(t, filepath.Join(agentsDir, "templates", "holon-developer", "AGENTS.md"))
	if got := readText(t, filepath.Join(home, "agents", "main", "AGENTS.md")); got != def {
		t.Errorf("main's AGENTS.md = %q, want holon-default's", got)
	}
	instr := filepath.Join(t.TempDir(), "scribe.md")
	if err := os.WriteFile(instr, []byte("Write everything down.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		args []string
		want map[string]string
	}{
		{"dev", []string{"--template", "holon-developer"}, map[string]string{"AGENTS.md": dev}},
		{"ops", []string{"--template", "https://github.com/acme/agents/tree/main/ops"},
			map[string]string{"AGENTS.md": "Keep the lights on.\n", "skills/restart/scripts/go": "echo restart\n"}},
		{"scribe", []string{"--instructions", "@" + instr}, map[string]string{"AGENTS.md": "Write everything down.\n"}},
		{"plain", nil, map[string]string{"AGENTS.md": def}},
	} {
		code, out, errOut := client(t, home, append([]string{"agents", "create", tc.id}, tc.args...)...)
		if code != 0 || !strings.Contains(out, "created agent "+tc.id) {
			t.Fatalf("agents create %s = %d %q %q", tc.id, code, out, errOut)
		}
		for rel, want := range tc.want {
			if got := readText(t, filepath.Join(home, "agents", tc.id, rel)); got != want {
				t.Errorf("%s's %s = %q, want %q", tc.id, rel, got, want)
			}
		}
		readText(t, filepath.Join(home, "agents", tc.id, "memory", "self.md"))
		readText(t, filepath.Join(home, "agents", tc.id, ".holon", "state", "template.json"))
	}

	for _, tc := range []struct {
		id, template string
		code         int
		want         string
	}{
		{"bad1", "no-such-template", exitFailure, "no-such-template"},
		{"bad2", "https://github.com/acme/agents/tree/main/missing", exitFailure, "nothing at"},
		{"bad3", "https://github.com/broken/agents/tree/main/ops", exitFailure, "unreachable"},
		{"bad4", "relative/dir", exitFailure, "absolute directory"},
	} {
		code, out, errOut := client(t, home, "agents", "create", tc.id, "--template", tc.template)
		if code != tc.code || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "nothing was made") {
			t.Errorf("agents create %s --template %s = %d %q %q, want exit %d saying %q", tc.id, tc.template, code, out, errOut, tc.code, tc.want)
		}
		if _, err := os.Stat(filepath.Join(home, "agents", tc.id)); err == nil {
			t.Errorf("%s's home was made", tc.id)
		}
		if _, out, _ := client(t, home, "agents", "list"); strings.Contains(out, tc.id) {
			t.Errorf("agents list shows %s:\n%s", tc.id, out)
		}
	}
	if code, _, errOut := client(t, home, "agents", "create", "nofile", "--instructions", "@/no/such/file"); code != exitUsage ||
		!strings.Contains(errOut, "--instructions @/no/such/file") {
		t.Errorf("--instructions @missing = %d %q, want a usage error naming the file", code, errOut)
	}
}
