package agentstate

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// commandDir is the directory a command call ran in: its workdir
// argument (relative to cwd, or absolute), else cwd.
func commandDir(call messages.ToolCall, cwd string) string {
	var a struct {
		Workdir string `json:"workdir"`
	}
	if json.Unmarshal(call.Arguments, &a) != nil || a.Workdir == "" || cwd == "" {
		return cwd
	}
	if filepath.IsAbs(a.Workdir) {
		return filepath.Clean(a.Workdir)
	}
	return filepath.Join(cwd, a.Workdir)
}

// skillMention is how text names skill sk: its SKILL.md (read_skill_md)
// or a file under its scripts/ (run_skill_script), by absolute path or
// relative to cwd, and the absolute path named; "" when it does not.
func skillMention(text string, sk SkillEntry, cwd string) (reason, path string) {
	scripts := strings.TrimSuffix(sk.Dir, "/") + "/scripts/"
	switch {
	case strings.Contains(text, sk.Path):
		return messages.SkillReadSkillMD, sk.Path
	case strings.Contains(text, scripts):
		return messages.SkillRunScript, pathAt(text, strings.Index(text, scripts))
	}
	if cwd == "" {
		return "", ""
	}
	if rel, ok := relativeTo(cwd, sk.Path); ok && relativeAt(text, rel) >= 0 {
		return messages.SkillReadSkillMD, sk.Path
	}
	if rel, ok := relativeTo(cwd, sk.Dir); ok {
		if i := relativeAt(text, rel+"/scripts/"); i >= 0 {
			return messages.SkillRunScript, filepath.Join(cwd, pathAt(text, i))
		}
	}
	return "", ""
}

// relativeTo is p relative to dir, when p is under dir.
func relativeTo(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// relativeAt is where text names the relative path rel as a path of its
// own (at the start of a word, or after ./), not the tail of another
// path; -1 when it does not.
func relativeAt(text, rel string) int {
	for from := 0; ; {
		i := strings.Index(text[from:], rel)
		if i < 0 {
			return -1
		}
		i += from
		if i == 0 || strings.ContainsRune(" \t\n'\"=;|&(<>", rune(text[i-1])) ||
			(i >= 2 && text[i-2:i] == "./" && (i == 2 || strings.ContainsRune(" \t\n'\"=;|&(<>", rune(text[i-3])))) {
			return i
		}
		from = i + 1
	}
}
