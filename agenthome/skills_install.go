package agenthome

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// SkillFile is the file that makes a directory a skill.
const SkillFile = "SKILL.md"

// installSkillRefs copies the skills refs name into skillsDir, one
// directory each, and returns their names. A ref is an absolute skill
// directory or a GitHub tree URL of one; a ref that is neither, or names
// no directory with a SKILL.md, is ErrSkillRef. There are no built-in
// skills yet, so a bare name is ErrSkillRef too.
func installSkillRefs(ctx context.Context, cfg Config, skillsDir string, refs []string) ([]string, error) {
	var names []string
	for _, ref := range refs {
		name, files, err := readSkillRef(ctx, cfg, ref)
		if err != nil {
			return nil, err
		}
		for rel, b := range files {
			if err := writeFile(filepath.Join(skillsDir, name, filepath.FromSlash(rel)), b); err != nil {
				return nil, err
			}
		}
		names = append(names, name)
	}
	return names, nil
}

// readSkillRef reads the skill ref names: its name and files.
func readSkillRef(ctx context.Context, cfg Config, ref string) (string, map[string][]byte, error) {
	var (
		name  string
		files map[string][]byte
		err   error
	)
	switch {
	case strings.HasPrefix(ref, "https://"):
		var g githubRef
		if g, err = parseGitHubTree(ref); err == nil {
			name = path.Base(g.Path)
			files, err = fetchGitHubDir(ctx, cfg, g)
		}
	case filepath.IsAbs(ref):
		name = filepath.Base(ref)
		files, err = readTemplateDir(filepath.Clean(ref))
	default:
		return "", nil, fmt.Errorf("skill ref %q: %w: no built-in skill has that name; give an absolute skill directory or https://github.com/OWNER/REPO/tree/REF/PATH", ref, ErrSkillRef)
	}
	if err != nil {
		return "", nil, fmt.Errorf("skill ref %q: %w: %w", ref, ErrSkillRef, err)
	}
	if _, ok := files[SkillFile]; !ok || !templateID.MatchString(name) {
		return "", nil, fmt.Errorf("skill ref %q: %w: not a skill directory (it needs a %s)", ref, ErrSkillRef, SkillFile)
	}
	return name, files, nil
}
