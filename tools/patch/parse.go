package patch

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// ErrInvalidPatch is returned for patch text that is not a usable diff.
var ErrInvalidPatch = errors.New("patch: invalid patch")

// Op is what a patch does to one file.
type Op string

// The file operations.
const (
	OpAdd    Op = "add"
	OpModify Op = "modify"
	OpDelete Op = "delete"
	OpRename Op = "rename"
	OpCopy   Op = "copy"
)

// String returns the operation as spelled in results.
func (o Op) String() string { return string(o) }

// Change is one file of a parsed patch.
type Change struct {
	Op      Op
	OldPath string // source of modify, delete, rename, copy
	NewPath string // target of add, modify, rename, copy
	Mode    os.FileMode
	File    *gitdiff.File
}

// Git file modes a patch may not create.
const (
	modeTypeMask = 0o170000
	modeSymlink  = 0o120000
	modeGitlink  = 0o160000
)

// Parse parses a git-style unified diff. Plain unified diffs with a/ and
// b/ prefixes (as diff -u and patch -p1 use them) are accepted too. Paths
// are returned as the patch names them; the caller checks them against
// the execution root.
func Parse(text string) ([]Change, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%w: the patch is empty", ErrInvalidPatch)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	files, _, err := gitdiff.Parse(strings.NewReader(stripPlainPrefixes(text)))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPatch, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no file changes found; expected a unified diff with ---/+++ headers and @@ hunks", ErrInvalidPatch)
	}
	changes := make([]Change, 0, len(files))
	for _, f := range files {
		c, err := change(f)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

func change(f *gitdiff.File) (Change, error) {
	c := Change{File: f, OldPath: f.OldName, NewPath: f.NewName, Mode: f.NewMode}
	switch {
	case f.IsNew:
		c.Op, c.OldPath = OpAdd, ""
	case f.IsDelete:
		c.Op, c.NewPath = OpDelete, ""
	case f.IsRename:
		c.Op = OpRename
	case f.IsCopy:
		c.Op = OpCopy
	default:
		c.Op = OpModify
		if c.OldPath == "" {
			c.OldPath = c.NewPath
		}
		if c.NewPath == "" {
			c.NewPath = c.OldPath
		}
	}
	for _, m := range []os.FileMode{f.NewMode, f.OldMode} {
		switch m & modeTypeMask {
		case modeSymlink:
			return c, fmt.Errorf("%w: %s is a symlink; patches may not create or change symlinks", ErrInvalidPatch, name(c))
		case modeGitlink:
			return c, fmt.Errorf("%w: %s is a submodule; patches may not change submodules", ErrInvalidPatch, name(c))
		}
	}
	return c, nil
}

func name(c Change) string {
	if c.NewPath != "" {
		return c.NewPath
	}
	return c.OldPath
}

var gitHeader = regexp.MustCompile(`(?m)^diff --git `)

// stripPlainPrefixes drops the a/ and b/ prefixes of a plain unified diff
// when every file header (a --- line, a +++ line, then @@) has them or
// names /dev/null; git diffs are left to the library, which strips them
// itself.
func stripPlainPrefixes(text string) string {
	if gitHeader.MatchString(text) {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var headers []int
	for i := 0; i+2 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(lines[i+1], "+++ ") && strings.HasPrefix(lines[i+2], "@@ ") {
			old, nw := lines[i][4:], lines[i+1][4:]
			if !(strings.HasPrefix(old, "a/") || strings.HasPrefix(old, "/dev/null")) ||
				!(strings.HasPrefix(nw, "b/") || strings.HasPrefix(nw, "/dev/null")) {
				return text
			}
			headers = append(headers, i)
		}
	}
	for _, i := range headers {
		lines[i] = "--- " + strings.TrimPrefix(lines[i][4:], "a/")
		lines[i+1] = "+++ " + strings.TrimPrefix(lines[i+1][4:], "b/")
	}
	return strings.Join(lines, "")
}
