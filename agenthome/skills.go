package agenthome

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Skill scopes.
const (
	SkillScopeUser      = "user"
	SkillScopeAgent     = "agent"
	SkillScopeWorkspace = "workspace"
)

// maxSkills bounds one scope's catalog; maxFrontMatter one SKILL.md's
// front matter read.
const (
	maxSkills      = 200
	maxFrontMatter = 8 << 10
)

// Skill is one catalog entry: what SKILL.md's front matter says, and
// where it is. The body is never read.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Scope       string `json:"scope"`
	// Dir is the skill's directory; Path its SKILL.md.
	Dir  string `json:"dir"`
	Path string `json:"path"`
}

// SkillRoots are the candidate roots of each scope, in the order the
// first existing one wins: user (the agents directory's skills, then
// ~/.codex and ~/.claude beside it), agent (agent_home/skills, then its
// .agents, .codex and .claude), workspace (the anchor's .agents, .codex
// and .claude). An empty base leaves its scope out.
func SkillRoots(agentsDir, home, anchor string) map[string][]string {
	roots := map[string][]string{}
	if agentsDir != "" {
		user := filepath.Dir(agentsDir)
		roots[SkillScopeUser] = []string{filepath.Join(agentsDir, "skills"), filepath.Join(user, ".codex", "skills"), filepath.Join(user, ".claude", "skills")}
	}
	if home != "" {
		roots[SkillScopeAgent] = []string{filepath.Join(home, SkillsDir), filepath.Join(home, ".agents", "skills"),
			filepath.Join(home, ".codex", "skills"), filepath.Join(home, ".claude", "skills")}
	}
	if anchor != "" {
		roots[SkillScopeWorkspace] = []string{filepath.Join(anchor, ".agents", "skills"), filepath.Join(anchor, ".codex", "skills"),
			filepath.Join(anchor, ".claude", "skills")}
	}
	return roots
}

// Discover is the skills catalog of the scopes given, in scope order: in
// each scope the first root that exists, never a merge of several. A
// skill is a directory of that root with a SKILL.md; its name and
// description come from the front matter (the directory's name without
// one).
func Discover(roots map[string][]string, scopes ...string) []Skill {
	var out []Skill
	for _, scope := range scopes {
		for _, root := range roots[scope] {
			st, err := os.Stat(root)
			if err != nil || !st.IsDir() {
				continue
			}
			out = append(out, scanRoot(scope, root)...)
			break // the first existing root only
		}
	}
	return out
}

func scanRoot(scope, root string) []Skill {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []Skill
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, SkillFile)
		fm, err := frontMatter(path)
		if err != nil {
			continue
		}
		s := Skill{Name: cmpOr(fm["name"], e.Name()), Description: fm["description"], Scope: scope, Dir: dir, Path: path}
		out = append(out, s)
		if len(out) == maxSkills {
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// frontMatter reads the "key: value" lines between a SKILL.md's opening
// and closing "---" (bounded); a file without front matter has none.
func frontMatter(path string) (map[string]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxFrontMatter))
	fm := map[string]string{}
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "---" {
		return fm, nil
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "---" {
			return fm, nil
		}
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
			fm[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return map[string]string{}, nil // never closed: no front matter
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
