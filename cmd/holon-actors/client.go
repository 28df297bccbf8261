package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// dial returns a client for the runtime the globals name (see dialRuntime).
func dial(e *env) (runtimeClient, error) { return dialRuntime(e) }

// agentOr returns the agent a command addresses: the positional id, else
// --agent, else the runtime's default agent.
func agentOr(ctx context.Context, c runtimeClient, e *env, id string) (string, error) {
	switch {
	case id != "":
		return id, nil
	case e.Agent != "":
		return e.Agent, nil
	}
	st, err := c.RuntimeStatus(ctx)
	if err != nil {
		return "", err
	}
	return st.DefaultAgentID, nil
}

// agentSession dials the runtime and resolves the agent a command
// addresses (see agentOr). The caller closes the client.
func agentSession(ctx context.Context, e *env, id string) (runtimeClient, string, error) {
	c, err := dial(e)
	if err != nil {
		return nil, "", err
	}
	if id, err = agentOr(ctx, c, e, id); err != nil {
		c.Close()
		return nil, "", err
	}
	return c, id, nil
}

// printJSON writes v as indented JSON.
func printJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printRows writes aligned key/value rows.
func printRows(e *env, rows [][2]string) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	return tw.Flush()
}

// promptCmd is `holon-actors prompt`.
type promptCmd struct {
	Text      []string      `arg:"" optional:"" help:"The prompt text; - reads it from stdin."`
	File      string        `short:"F" help:"Read the prompt text from this file instead." type:"path" placeholder:"FILE"`
	Priority  string        `help:"Queue band: interject, next, normal or background." default:"normal" enum:"interject,next,normal,background"`
	Wait      bool          `help:"Wait for the turn's brief (its result, its failure — then exit 1 — or an acknowledgement when it left background tasks running) and print it; a turn that stops at a tool approval question prints the question and how to answer it."`
	Timeout   time.Duration `help:"With --wait: give up after this long (the prompt stays admitted)." default:"10m"`
	Interrupt bool          `help:"End the agent's turn in flight (aborted; its command tasks keep running) so this prompt runs next, instead of waiting behind it or joining it (interject)."`
	MessageID string        `name:"message-id" help:"Id of this prompt (at most 128 bytes): sending it again with the same id admits it once and answers the first admission's event." placeholder:"ID"`
}

// promptResult is the --json output of prompt.
type promptResult struct {
	control.PromptResponse
	Brief *messages.Brief `json:"brief,omitempty"`
	// Approval is the tool approval question the turn stopped at (--wait).
	Approval *messages.SuspensionRecord `json:"approval,omitempty"`
}

// errTurnFailed marks a --wait whose turn ended in a failure brief.
var errTurnFailed = errors.New("the turn failed")

// Run admits the prompt and, with --wait, follows the agent's events to
// the brief that answers it.
func (p *promptCmd) Run(ctx context.Context, e *env) error {
	text, err := p.text(e)
	if err != nil {
		return err
	}
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer c.Close()
	priority := p.Priority
	if p.Interrupt {
		if priority != "normal" && priority != "next" {
			return usage(fmt.Errorf("--interrupt runs the prompt next: drop --priority %s", priority))
		}
		priority = "next"
	}
	res, err := c.Prompt(ctx, id, control.PromptRequest{Text: text, Priority: priority, MessageID: p.MessageID})
	if err != nil {
		return err
	}
	if p.Interrupt { // after the admission, sparing its own turn: nothing is lost in between
		if _, err := c.Interrupt(ctx, id, res.MessageID, "the operator sent a prompt with --interrupt"); err != nil {
			return fmt.Errorf("prompt %s admitted, but the turn in flight was not interrupted: %w", res.MessageID, err)
		}
	}
	out := promptResult{PromptResponse: res}
	if p.Wait {
		if out.Brief, out.Approval, err = waitBrief(ctx, c, id, res, p.Timeout); err != nil {
			return err
		}
	}
	if e.JSON {
		if err := printJSON(e, out); err != nil {
			return err
		}
	} else if out.Brief != nil {
		fmt.Fprintln(e.stdout, out.Brief.Text)
	} else if out.Approval != nil {
		printApproval(e, id, out.Approval)
	} else if res.Duplicate {
		fmt.Fprintf(e.stdout, "already admitted %s to %s (event %d); this copy was not queued again\n", res.MessageID, id, res.EventSeq)
	} else {
		fmt.Fprintf(e.stdout, "admitted %s to %s (event %d)\n", res.MessageID, id, res.EventSeq)
	}
	if out.Brief != nil && out.Brief.Kind == messages.BriefFailure {
		return errTurnFailed
	}
	return nil
}

// waitBrief follows id's events from the admission to the result or
// failure brief of that message, or to a tool approval question its turn
// stops at (approvalAsked), reconnecting if the stream breaks.
func waitBrief(ctx context.Context, c runtimeClient, id string, res control.PromptResponse, timeout time.Duration) (*messages.Brief, *messages.SuspensionRecord, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var found *messages.Brief
	var asked *messages.SuspensionRecord
	after := res.EventSeq
	for found == nil && asked == nil {
		next, err := c.Follow(ctx, id, after, func(ev control.StreamEvent) error {
			if asked = approvalAsked(ev, res.MessageID); asked != nil {
				return control.ErrStop
			}
			if ev.Provenance.Kind != messages.EventBriefRecorded || ev.Provenance.MessageID != res.MessageID {
				return nil
			}
			var p messages.BriefRecorded
			if err := json.Unmarshal(ev.Payload, &p); err != nil {
				return err
			}
			found = &p.Brief // a result, a failure, or an ack: the work goes on in the background
			return control.ErrStop
		})
		switch {
		case found != nil, asked != nil:
		case ctx.Err() != nil:
			return nil, nil, fmt.Errorf("no answer within %s (the prompt %s stays admitted; follow it with holon-actors tail --follow)", timeout, res.MessageID)
		case errors.Is(err, control.ErrNotRunning), followRefused(err):
			return nil, nil, err
		case err != nil && !errors.Is(err, context.Canceled):
			time.Sleep(100 * time.Millisecond) // the stream broke: resume from the cursor
		}
		after = next
	}
	return found, asked, nil
}

// followRefused reports whether a follow ended on the runtime's refusal
// that waiting does not change (no such agent, a bad id, a quarantined
// journal): it ends the command. A broken stream, 429 (every event stream
// slot is taken) and 503 are waited out.
func followRefused(err error) bool {
	var ae *control.Error
	return errors.As(err, &ae) && ae.Status != http.StatusTooManyRequests && ae.Status != http.StatusServiceUnavailable
}

// statusCmd is `holon-actors status`: one agent's summary.
type statusCmd struct {
	ID string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
}

// Run prints the summary.
func (s *statusCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, s.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := c.Status(ctx, id)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, st)
	}
	rows := [][2]string{{"agent", st.ID}, {"kind", string(st.Kind)}, {"status", string(st.Status)},
		{"queued", fmt.Sprint(st.Queued)}, {"turn in flight", fmt.Sprint(st.TurnInFlight)},
		{"turns", fmt.Sprint(st.TurnIndex)}, {"model rounds", fmt.Sprint(st.TotalModelRounds)},
		{"tokens in/out", fmt.Sprintf("%d / %d", st.TotalInputTokens, st.TotalOutputTokens)},
		{"token budget", describeBudget(st.TokenBudget)},
		{"context", describeContext(st.Context)},
		{"memory", fmt.Sprintf("working memory revision %d, %d episodes", st.Context.WorkingMemoryRevision, st.Context.Episodes)},
		{"last event", fmt.Sprint(st.LastSeq)}}
	if st.Node != "" {
		rows = append(rows, [2]string{"active on node", st.Node})
	}
	if st.Visibility == messages.VisibilityPrivate && st.ParentAgentID != "" {
		rows = append(rows, [2]string{"supervised by", st.ParentAgentID})
	}
	if len(st.ActiveChildren) > 0 {
		rows = append(rows, [2]string{"active children", strings.Join(st.ActiveChildren, ", ")})
	}
	if st.ModelRetry != nil {
		rows = append(rows, [2]string{"model retry", describeModelRetry(st.ModelRetry)})
	}
	if st.LastError != "" {
		rows = append(rows, [2]string{"last error", describeLastError(st.AgentInfo)})
	}
	rows = append(rows, timerRows(st.NextTimerFires)...)
	rows = append(rows, mcpStatusRows(ctx, c, id, st.MCP)...)
	return printRows(e, rows)
}

// describeContext is the context accounting in a line.
func describeContext(c agentstate.ContextInfo) string {
	s := fmt.Sprintf("%d items, ≈ %d tokens", c.ConversationItems, c.EstimatedTokens)
	if c.CompactedItems > 0 {
		s += fmt.Sprintf(" (%d earlier items compacted into a %d-character summary)", c.CompactedItems, c.SummaryChars)
	}
	return s
}

// agentsCmd groups the agent commands.
type agentsCmd struct {
	List      agentsListCmd      `cmd:"" help:"List the public agents."`
	Create    agentsCreateCmd    `cmd:"" help:"Create a named agent."`
	Status    statusCmd          `cmd:"" help:"Show an agent's summary."`
	State     agentsStateCmd     `cmd:"" help:"Show an agent's state: summary, queue, turn in flight, timers."`
	Stop      lifecycleCmd       `cmd:"" help:"Stop an agent; it refuses new input until resumed."`
	Resume    lifecycleCmd       `cmd:"" help:"Resume a stopped or paused agent."`
	Pause     lifecycleCmd       `cmd:"" help:"Pause an agent after its current step."`
	Wake      lifecycleCmd       `cmd:"" help:"Wake a sleeping agent."`
	Interrupt lifecycleCmd       `cmd:"" help:"End the agent's turn in flight now (aborted; command tasks keep running); it goes on with its queue."`
	Model     agentsModelCmd     `cmd:"" help:"Show, set or clear an agent's model override."`
	Retry     agentsRetryCmd     `cmd:"" help:"Run the model retry an agent's turn waits on now (after a rate limit, overload or connection failure), or --cancel it."`
	Budget    agentsBudgetCmd    `cmd:"" help:"Show or set an agent's token budget."`
	Children  agentsChildrenCmd  `cmd:"" help:"List the private children an agent supervises: task, phase, what each waits for, its last brief."`
	Trigger   agentsTriggerCmd   `cmd:"" help:"Print the agent's external trigger URL (created on first use; a secret), or revoke it."`
	Delete    agentsDeleteCmd    `cmd:"" help:"Delete an agent and its private children: refused while it has work in flight unless --force; its journal, snapshots and artifacts go to an archive in HOME/trash, kept for the runtime's --trash-retention."`
	Export    agentsExportCmd    `cmd:"" help:"Write an agent (with its private children) as an archive: journal, snapshots, artifacts and checksums."`
	Import    agentsImportCmd    `cmd:"" help:"Restore an agent archive written by agents export; refused, with nothing changed, if an id is in use or the archive is damaged."`
	Workspace agentsWorkspaceCmd `cmd:"" help:"Show or switch the projects (workspaces) an agent works in: use, list, detach."`
}

type agentsTriggerCmd struct {
	ID     string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
	Revoke bool   `help:"Revoke the trigger: its URL stops working; the next call makes a new one."`
}

// Run prints or revokes the capability.
func (a *agentsTriggerCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, a.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	if a.Revoke {
		tr, err := c.RevokeTrigger(ctx, id)
		if err != nil {
			return err
		}
		if e.JSON {
			return printJSON(e, tr)
		}
		fmt.Fprintf(e.stdout, "revoked %s of %s\n", tr.ID, id)
		return nil
	}
	capa, err := c.EnsureTrigger(ctx, id)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, capa)
	}
	fmt.Fprintln(e.stdout, capa.TriggerURL)
	if capa.Note != "" {
		fmt.Fprintf(e.stderr, "Note: %s\n", capa.Note) // stdout stays the URL alone, for scripts
	}
	return nil
}

type agentsListCmd struct{}

// Run lists the agents.
func (agentsListCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	list, err := c.Agents(ctx)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, list)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tKIND\tSTATUS\tQUEUED\tTOKENS\tCHILDREN\tLAST EVENT\tACTIVE")
	for _, a := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%d\t%d\t%t\n", a.ID, a.Kind, a.Status, a.Queued, shortBudget(a.TokenBudget),
			len(a.ActiveChildren), a.LastSeq, a.Active)
	}
	return tw.Flush()
}

type agentsCreateCmd struct {
	ID     string `arg:"" help:"The new agent's id: 1 to 64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit."`
	Policy string `help:"Its command policy, as JSON or a JSON file: {\"allow\": [\"git\", \"go\"], \"deny\": [\"curl\"], \"confine_to_root\": true}. Default: config.json's command_policy, else none." placeholder:"JSON|FILE"`
	MCP    string `name:"mcp" help:"The MCP servers it uses: all, none, or a comma-separated list of names from config.json mcp_servers (kept across restarts, over mcp_agents). Default: config.json mcp_agents, else all." placeholder:"all|none|A,B"`
	homeSpec
}

// Run creates the agent.
func (a *agentsCreateCmd) Run(ctx context.Context, e *env) error {
	policy, err := parsePolicy(a.Policy)
	if err != nil {
		return err
	}
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	instructions, err := a.instructions()
	if err != nil {
		return err
	}
	in, err := c.CreateAgentWith(ctx, control.CreateAgentRequest{AgentID: a.ID, CommandPolicy: policy,
		Template: a.Template, Instructions: instructions, MCP: a.MCP})
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, in)
	}
	fmt.Fprintf(e.stdout, "created agent %s (%s)\n", in.ID, in.Status)
	return nil
}

type agentsStateCmd struct {
	ID string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
}

// Run prints the state (JSON: it is a projection bootstrap).
func (a *agentsStateCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, a.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := c.State(ctx, id)
	if err != nil {
		return err
	}
	return printJSON(e, st)
}

// lifecycleCmd is agents stop|resume|pause|wake|interrupt.
type lifecycleCmd struct {
	ID     string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
	Reason string `help:"Why, for the journal."`
}

// Run sends the command named by the kong path.
func (l *lifecycleCmd) Run(ctx context.Context, e *env, kctx *kong.Context) error {
	c, id, err := agentSession(ctx, e, l.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	op := actors.ControlOp(strings.Fields(kctx.Command())[1]) // "agents <op> ..."
	res, err := c.Lifecycle(ctx, id, op, l.Reason)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, res)
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", res.AgentID, res.Status)
	return nil
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

type agentsModelCmd struct {
	ID    string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
	Set   string `help:"Model ref to use for this agent's turns (e.g. openai/gpt-5)." placeholder:"REF"`
	Clear bool   `help:"Go back to the runtime's default model."`
}

// Run shows, sets or clears the override.
func (a *agentsModelCmd) Run(ctx context.Context, e *env) error {
	if a.Set != "" && a.Clear {
		return usage(errors.New("give --set or --clear, not both"))
	}
	c, id, err := agentSession(ctx, e, a.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	var in agentstate.AgentInfo
	if a.Set != "" || a.Clear {
		in, err = c.SetModel(ctx, id, a.Set, "")
	} else {
		var st control.AgentSummary
		st, err = c.Status(ctx, id)
		in = st.AgentInfo
	}
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, map[string]string{"agent_id": in.ID, "model": in.Model})
	}
	model := in.Model
	if model == "" {
		model = "(the runtime default)"
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", in.ID, model)
	return nil
}
