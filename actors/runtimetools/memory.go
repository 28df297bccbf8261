package runtimetools

import (
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/tools"
)

// The memory tools: MemorySearch searches the agent's own memory (its
// memory files, briefs, episodes, work items and delivery summaries, not
// project files) and MemoryGet expands one hit to its exact original
// text. Both read the agent's memory index, which the agent does off its
// actor (MemoryIO).
const (
	MemorySearchToolName = "MemorySearch"
	MemoryGetToolName    = "MemoryGet"
)

// Bounds of the memory tools' arguments (the index's own).
const (
	MaxMemoryQueryChars  = 1000
	MaxMemoryLimit       = 50
	DefaultMemoryLimit   = 8
	DefaultMemoryChars   = 12000
	MaxMemoryChars       = 50000
	maxMemorySourceRefLn = 512
)

// limit is the asked limit or the default.
func (a MemorySearchArgs) limit() int {
	if a.Limit == nil {
		return DefaultMemoryLimit
	}
	return *a.Limit
}

// maxChars is the asked bound or the default.
func (a MemoryGetArgs) maxChars() int {
	if a.MaxChars == nil {
		return DefaultMemoryChars
	}
	return *a.MaxChars
}

// MemorySearchArgs are MemorySearch's arguments.
type MemorySearchArgs struct {
	Query         string `json:"query" jsonschema:"Words to look for (any language; Chinese and mixed text work)."`
	AllWorkspaces bool   `json:"all_workspaces,omitempty" jsonschema:"Search every workspace's memory, not only the active workspace's (your agent-scoped memory is always searched)."`
	Limit         *int   `json:"limit,omitempty" jsonschema:"At most this many hits (1-50, default 8)."`
}

// Validate checks what the schema cannot.
func (a *MemorySearchArgs) Validate() error {
	switch q := strings.TrimSpace(a.Query); {
	case q == "":
		return &tools.FieldError{Field: "query", Problem: "is empty", Hint: "give the words to look for"}
	case len([]rune(q)) > MaxMemoryQueryChars:
		return &tools.FieldError{Field: "query", Problem: fmt.Sprintf("is longer than %d characters", MaxMemoryQueryChars),
			Hint: "search for a few distinctive words"}
	case a.Limit != nil && (*a.Limit < 1 || *a.Limit > MaxMemoryLimit):
		return &tools.FieldError{Field: "limit", Problem: fmt.Sprintf("%d is outside 1..%d", *a.Limit, MaxMemoryLimit),
			Hint: "leave it out for 8 hits"}
	}
	return nil
}

// MemoryGetArgs are MemoryGet's arguments.
type MemoryGetArgs struct {
	SourceRef string `json:"source_ref" jsonschema:"The source_ref of a MemorySearch hit, copied exactly."`
	MaxChars  *int   `json:"max_chars,omitempty" jsonschema:"At most this many characters of the text (1-50000, default 12000)."`
}

// Validate checks what the schema cannot.
func (a *MemoryGetArgs) Validate() error {
	switch {
	case strings.TrimSpace(a.SourceRef) == "":
		return &tools.FieldError{Field: "source_ref", Problem: "is empty", Hint: "copy a source_ref from a MemorySearch hit"}
	case len(a.SourceRef) > maxMemorySourceRefLn:
		return &tools.FieldError{Field: "source_ref", Problem: "is not a source_ref", Hint: "copy a source_ref from a MemorySearch hit"}
	case a.MaxChars != nil && (*a.MaxChars < 1 || *a.MaxChars > MaxMemoryChars):
		return &tools.FieldError{Field: "max_chars", Problem: fmt.Sprintf("%d is outside 1..%d", *a.MaxChars, MaxMemoryChars),
			Hint: "leave it out for 12000 characters"}
	}
	return nil
}

var memoryToolset = []tools.Tool{
	tools.Typed(MemorySearchToolName,
		"Search your own memory: your memory files (memory/self.md, memory/operator.md), your briefs, the episodes of your "+
			"past work, your work items and delivery summaries, including what left this conversation long ago. Searches the "+
			"active workspace and your agent-scoped memory unless all_workspaces. Hits carry provenance and a source_ref for MemoryGet.",
		echoArgs[MemorySearchArgs](MemorySearchToolName)),
	tools.Typed(MemoryGetToolName,
		"Read the exact original text of a MemorySearch hit by its source_ref (up to max_chars characters; truncated says when cut).",
		echoArgs[MemoryGetArgs](MemoryGetToolName)),
}
