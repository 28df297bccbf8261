package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
)

// debugCmd groups the inspection commands.
type debugCmd struct {
	Prompt debugPromptCmd `cmd:"" help:"Show what an agent's next prompt is made of: agent_home, workspace id and anchor, execution root, cwd, command policy, the instruction files loaded (path and kind) and the assembled prompt frame."`
}

type debugPromptCmd struct {
	ID string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
}

type promptDebugClient interface {
	DebugPrompt(ctx context.Context, id string) (actors.PromptDebug, error)
}

var (
	_ promptDebugClient = (*control.Client)(nil)
	_ promptDebugClient = remoteRuntime{}
)

// Run prints the prompt's makings.
func (d *debugPromptCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, d.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	pc, ok := c.(promptDebugClient)
	if !ok {
		return errors.New("debug prompt is not served over this connection: use the control socket, --url or --remote")
	}
	p, err := pc.DebugPrompt(ctx, id)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, p)
	}
	w := e.stdout
	fmt.Fprintf(w, "agent:            %s\nagent_home:       %s\nworkspace_id:     %s\nworkspace_anchor: %s\nexecution_root:   %s\ncwd:              %s\n",
		p.AgentID, p.AgentHome, p.WorkspaceID, orDash(p.WorkspaceAnchor), p.ExecutionRoot, p.Cwd)
	policy := "none"
	if p.CommandPolicy != nil {
		policy = fmt.Sprintf("allow %v, deny %v, confine to root %t", p.CommandPolicy.Allow, p.CommandPolicy.Deny, p.CommandPolicy.ConfineToRoot)
	}
	fmt.Fprintf(w, "command policy:   %s\ntools:            %s\ninstructions:\n", policy, strings.Join(p.Tools, ", "))
	if len(p.InstructionSources) == 0 {
		fmt.Fprintln(w, "  (none loaded)")
	}
	for _, s := range p.InstructionSources {
		cut := ""
		if s.Truncated {
			cut = ", truncated"
		}
		fmt.Fprintf(w, "  %-9s %-9s %s (%d bytes%s)\n", s.Scope, s.Kind, s.Path, s.Bytes, cut)
	}
	fmt.Fprintln(w, "skills:")
	if len(p.Skills) == 0 {
		fmt.Fprintln(w, "  (none found)")
	}
	for _, s := range p.Skills {
		fmt.Fprintf(w, "  %-9s %s: %s (%s)\n", s.Scope, s.Name, orDash(s.Description), s.Path)
	}
	fmt.Fprintf(w, "\n=== system prompt ===\n%s\n", p.Frame.SystemPrompt)
	for _, b := range p.Frame.SystemBlocks {
		fmt.Fprintf(w, "\n=== system block ===\n%s\n", b.Text)
	}
	for _, b := range p.Frame.ContextBlocks {
		fmt.Fprintf(w, "\n=== context block ===\n%s\n", b.Text)
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
