package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/memory"
)

// memoryCmd groups the commands over an agent's memory (--agent picks
// the agent, else the runtime's default one).
type memoryCmd struct {
	Search memorySearchCmd `cmd:"" help:"Search an agent's memory (memory files, briefs, episodes, work items, delivery summaries): ranked hits with provenance and a source_ref."`
	Get    memoryGetCmd    `cmd:"" help:"Print the exact original text of a memory search hit by its source_ref."`
}

// memoryClient is the part of a client that reaches memory; the cluster
// protocol does not serve it.
type memoryClient interface {
	MemorySearch(ctx context.Context, id string, req actors.MemoryRequest) (control.MemorySearchResult, error)
	MemoryGet(ctx context.Context, id, ref string, maxChars int) (memory.Got, error)
}

// memorySession dials the runtime and resolves the addressed agent.
func memorySession(ctx context.Context, e *env) (runtimeClient, memoryClient, string, error) {
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return nil, nil, "", err
	}
	mc, ok := c.(memoryClient)
	if !ok {
		c.Close()
		return nil, nil, "", notRemote("memory")
	}
	return c, mc, id, nil
}

type memorySearchCmd struct {
	Query         []string `arg:"" help:"Words to search for."`
	AllWorkspaces bool     `name:"all-workspaces" help:"Search every workspace's memory, not only the agent's active workspace's (agent-scoped memory is always searched)."`
	Limit         int      `help:"At most this many hits (1-100; default 10)." default:"0"`
}

// Run prints the ranked hits.
func (s *memorySearchCmd) Run(ctx context.Context, e *env) error {
	if s.Limit < 0 || s.Limit > memory.MaxLimit {
		return fmt.Errorf("--limit %d is outside 1..%d", s.Limit, memory.MaxLimit)
	}
	c, mc, id, err := memorySession(ctx, e)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := mc.MemorySearch(ctx, id, actors.MemoryRequest{Query: strings.Join(s.Query, " "),
		AllWorkspaces: s.AllWorkspaces, Limit: s.Limit})
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, res)
	}
	_, err = fmt.Fprintln(e.stdout, runtimetools.RenderHits(fmt.Sprintf("%d hit(s) in %s's memory for %q.", len(res.Hits), id, res.Query),
		actors.MemoryHits(res.Hits)))
	return err
}

type memoryGetCmd struct {
	Ref      string `arg:"" help:"A source_ref from memory search."`
	MaxChars int    `name:"max-chars" help:"At most this many characters (1-50000; default 12000)." default:"0"`
}

// Run prints the text with its provenance.
func (g *memoryGetCmd) Run(ctx context.Context, e *env) error {
	if g.MaxChars < 0 || g.MaxChars > memory.HardMaxChars {
		return fmt.Errorf("--max-chars %d is outside 1..%d", g.MaxChars, memory.HardMaxChars)
	}
	c, mc, id, err := memorySession(ctx, e)
	if err != nil {
		return err
	}
	defer c.Close()
	got, err := mc.MemoryGet(ctx, id, g.Ref, g.MaxChars)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, got)
	}
	rows := [][2]string{{"kind", string(got.Kind)}, {"title", got.Title}, {"scope", string(got.ScopeKind)},
		{"workspace", got.WorkspaceID}, {"updated", got.UpdatedAt.UTC().Format("2006-01-02 15:04:05Z")},
		{"source", got.SourcePath}, {"truncated", fmt.Sprint(got.Truncated)}}
	if err := printRows(e, rows); err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, "\n"+got.Content)
	return err
}
