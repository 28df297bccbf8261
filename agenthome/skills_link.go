package agenthome

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The install modes a lock entry records.
const (
	// SkillCopied: the skill's files were copied into skills/<name>.
	SkillCopied = "copy"
	// SkillLinked: skills/<name> is a symbolic link to the source
	// directory, so edits there show at the agent's next turn.
	SkillLinked = "link"
)

// LinkSkill installs the skill in the absolute directory ref as a
// symbolic link skillsDir/<name> → ref, and records its source and the
// link mode in skillsDir's lock file. A URL, a relative path, a directory
// without a SKILL.md, or an installed skill of the same name is refused
// (ErrSkillRef) with nothing changed.
func LinkSkill(skillsDir, ref string, now time.Time) (string, error) {
	if !filepath.IsAbs(ref) {
		return "", fmt.Errorf("skill ref %q: %w: --link needs a local skill directory (a URL is copied: drop --link)", ref, ErrSkillRef)
	}
	ref = filepath.Clean(ref)
	name, files, err := readSkillRef(context.Background(), Config{}, ref)
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
	tmp := filepath.Join(skillsDir, ".staging-link-"+name)
	_ = os.Remove(tmp)
	if err := os.Symlink(ref, tmp); err != nil {
		return "", fmt.Errorf("link skill %s: %w", name, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("place skill %s: %w", name, err)
	}
	return name, recordLock(skillsDir, name, SkillLock{Source: ref, Mode: SkillLinked, Digest: digest(files), InstalledAt: now.UTC()})
}
