package agenthome

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// DefaultInstructionsLimit bounds one instruction file in the prompt.
const DefaultInstructionsLimit = 32 << 10

// Instruction scopes.
const (
	ScopeAgent     = "agent"
	ScopeWorkspace = "workspace"
)

// Instructions is one instruction file as read for a prompt.
type Instructions struct {
	// Scope is ScopeAgent or ScopeWorkspace.
	Scope string
	// Path is the file read; Kind its name (AGENTS.md or CLAUDE.md).
	Path, Kind string
	// Text is its content, cut at the limit with a marker saying so.
	Text string
	// Bytes is the file's size; Truncated says Text was cut.
	Bytes     int64
	Truncated bool
}

// LoadAgent reads home's AGENTS.md; nil when there is none.
func LoadAgent(home string, limit int) (*Instructions, error) {
	return load(ScopeAgent, filepath.Join(home, AgentsFile), limit)
}

// LoadWorkspace reads anchor's AGENTS.md, or its CLAUDE.md only when it
// has no AGENTS.md; nil when it has neither.
func LoadWorkspace(anchor string, limit int) (*Instructions, error) {
	in, err := load(ScopeWorkspace, filepath.Join(anchor, AgentsFile), limit)
	if in != nil || err != nil {
		return in, err
	}
	return load(ScopeWorkspace, filepath.Join(anchor, ClaudeFile), limit)
}

// load reads the regular file at path, at most limit bytes of it (limit
// <= 0 means DefaultInstructionsLimit); nil for a missing file.
func load(scope, path string, limit int) (*Instructions, error) {
	if limit <= 0 {
		limit = DefaultInstructionsLimit
	}
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s instructions: %w", scope, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s instructions: %s is not a regular file", scope, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s instructions: %w", scope, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s instructions: %w", scope, err)
	}
	in := &Instructions{Scope: scope, Path: path, Kind: filepath.Base(path), Bytes: max(st.Size(), int64(len(b)))}
	if len(b) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		in.Truncated = true
		b = append(b[:cut:cut], fmt.Sprintf("\n[%s truncated: the first %d of %d bytes are shown]", in.Kind, cut, in.Bytes)...)
	}
	in.Text = string(b)
	return in, nil
}
