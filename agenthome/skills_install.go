package agenthome

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
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

// LockFile, in an agent's skills/, records where each installed skill
// came from.
const LockFile = ".skills-lock.json"

// SkillLock is one entry of the lock file.
type SkillLock struct {
	Source string `json:"source"`
	// Mode is how it was installed: SkillCopied or SkillLinked (an entry
	// without one was copied).
	Mode        string    `json:"mode,omitempty"`
	Digest      string    `json:"digest"`
	InstalledAt time.Time `json:"installed_at"`
}

// InstallSkill copies the skill ref names (an absolute skill directory or
// a GitHub tree URL of one) into skillsDir/<name>, whole or not at all,
// and records its source in skillsDir's lock file. An installed skill of
// the same name is refused (ErrSkillRef): remove it first.
func InstallSkill(ctx context.Context, cfg Config, skillsDir, ref string, now time.Time) (string, error) {
	name, files, err := readSkillRef(ctx, cfg, ref)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(skillsDir, name)
	if _, err := os.Lstat(dst); err == nil {
		return "", fmt.Errorf("skill %q: %w: %s already exists; remove it first", name, ErrSkillRef, dst)
	}
	if err := os.MkdirAll(skillsDir, 0o700); err != nil {
		return "", fmt.Errorf("skills directory: %w", err)
	}
	staging, err := os.MkdirTemp(skillsDir, ".staging-"+name+"-")
	if err != nil {
		return "", fmt.Errorf("stage skill %s: %w", name, err)
	}
	defer os.RemoveAll(staging)
	for rel, b := range files {
		if err := writeFile(filepath.Join(staging, filepath.FromSlash(rel)), b); err != nil {
			return "", err
		}
	}
	if err := os.Rename(staging, dst); err != nil {
		return "", fmt.Errorf("place skill %s: %w", name, err)
	}
	return name, recordLock(skillsDir, name, SkillLock{Source: ref, Mode: SkillCopied, Digest: digest(files), InstalledAt: now.UTC()})
}

// recordLock adds name's entry to skillsDir's lock file.
func recordLock(skillsDir, name string, l SkillLock) error {
	path := filepath.Join(skillsDir, LockFile)
	locks := map[string]SkillLock{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &locks); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	locks[name] = l
	b, err := json.MarshalIndent(locks, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}
