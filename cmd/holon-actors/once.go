package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// onceCmd is `holon-actors once`: a bounded one-shot run on a temporary
// private agent in a throwaway store, for reproduction and scripting.
type onceCmd struct {
	runCmd   `embed:""`
	Text     []string      `arg:"" help:"The prompt."`
	MaxTurns int           `name:"max-turns" help:"Stop after this many turns (timer wakes and continuations count)." default:"8"`
	Timeout  time.Duration `help:"Give up after this long." default:"10m"`
	Answer   []string      `help:"Answer the agent's questions to the operator, in order (a choice's value, yes or no, or text); once has no operator to ask, so without an answer left a question ends the run at once." placeholder:"TEXT"`
}

// onceResult is the --json output: the spec's run_once surface.
type onceResult struct {
	AgentID                 string              `json:"agent_id"`
	Status                  string              `json:"status"` // completed | failed | max_turns | timeout | needs_input
	Turns                   int                 `json:"turns"`
	FinalText               string              `json:"final_text"`
	RawFinalText            string              `json:"raw_final_text"`
	TokenUsage              messages.TokenUsage `json:"token_usage"`
	ProviderAttemptTimeline []json.RawMessage   `json:"provider_attempt_timeline"`
	FailureArtifact         json.RawMessage     `json:"failure_artifact,omitempty"`
	Failure                 *messages.Failure   `json:"failure,omitempty"`
	// Question is the question the run ended on (status needs_input).
	Question *onceQuestion `json:"question,omitempty"`
	// asked is a question the agent asked and the run has not answered.
	asked *messages.SuspensionRecord
	// delivery is the newest delivery summary of the run: final_text
	// prefers it to the last brief.
	delivery string
}

// runtime builds the run's runtime the way `run` builds a daemon's (see
// agentOptions), on the throwaway store with the agents' homes in dir and
// the temporary agent id as its default agent. Unlike `run`, a failed
// model call fails the turn at once (no durable retry) and no operator
// webhook is told: once reports its result itself.
func (c *onceCmd) runtime(cfg catalog.Config, dir, worktrees, id string, reg *secrets.Registry,
	store persistence.Store, prov *node.ModelProvider) (*actors.Runtime, error) {
	opts, err := c.agentOptions(cfg)
	if err != nil {
		return nil, err
	}
	opts.DefaultAgent, opts.Home, opts.Worktrees, opts.Secrets = id, dir, worktrees, reg
	opts.ModelRetry = actors.ModelRetry{}
	deps, err := opts.Deps(store, prov, zerolog.Nop())
	if errors.Is(err, node.ErrConfig) {
		return nil, usage(err)
	}
	if err != nil {
		return nil, err
	}
	return actors.NewRuntime(deps, actors.RuntimeOptions{})
}

// Run runs the prompt to its settled end, then prints the result.
func (c *onceCmd) Run(ctx context.Context, e *env) error {
	if c.MaxTurns < 1 {
		return usage(fmt.Errorf("--max-turns %d: want at least 1", c.MaxTurns))
	}
	if strings.TrimSpace(strings.Join(c.Text, " ")) == "" {
		return usage(errors.New("the prompt is empty or only whitespace: give its text"))
	}
	if err := c.Remote.unused("once"); err != nil {
		return err
	}
	if err := c.Cluster.unused("once"); err != nil {
		return err
	}
	if c.Journal != "" {
		return usage(errors.New("once runs in a throwaway store: drop --journal (it is for run and daemon start)"))
	}
	if err := c.Observability.unused("once"); err != nil {
		return err
	}
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return err
	}
	prov, err := c.provider(home)
	if err != nil {
		return err
	}
	cfg, err := c.modelConfig(home)
	if err != nil {
		return err
	}
	reg := secrets.NewRegistry()
	c.fillSecrets(reg, cfg, c.Token)
	dir, err := os.MkdirTemp("", "holon-once-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	so := persistence.DefaultOptions(filepath.Join(dir, "data"))
	so.Logger = node.SlogOf(zerolog.Nop())
	so.Redact = reg.RedactBytes
	store, err := persistence.Open(so)
	if err != nil {
		return err
	}
	defer store.Close()
	id := "tmp_run_" + strings.ToLower(strings.TrimPrefix(messages.NewID("run"), "run_"))
	rt, err := c.runtime(cfg, dir, filepath.Join(home, "worktrees"), id, reg, store, prov)
	if err != nil {
		return err
	}
	prov.UseTransports(rt)
	defer rt.Close() // stops its commands too (Halt would leave them running)
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	sub := store.Subscribe(id)
	defer sub.Close()
	env := messages.MessageEnvelope{ID: messages.NewID("msg"), AgentID: id, CreatedAt: time.Now().UTC(),
		Kind: messages.KindOperatorPrompt, Origin: messages.OperatorOrigin("cli"), Body: messages.TextBody(strings.Join(c.Text, " ")),
		DeliverySurface: messages.SurfaceRunOnce, AdmissionContext: messages.AdmissionLocalProcess}
	if _, err := rt.Admit(ctx, env); err != nil {
		return err
	}
	res, err := c.follow(ctx, rt, store, sub, id)
	if err != nil {
		return err
	}
	if e.JSON {
		if err := printJSON(e, res); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(e.stdout, res.FinalText)
	}
	switch res.Status {
	case "completed":
		return nil
	case "needs_input":
		return fmt.Errorf("%w: %s", errOnceIncomplete, res.Failure.Message)
	}
	return fmt.Errorf("%w: %s", errOnceIncomplete, res.Status)
}

// onceQuestion is a question to the operator that ended a once run.
type onceQuestion struct {
	SuspensionID string                      `json:"suspension_id"`
	Question     string                      `json:"question"`
	ResponseType messages.ResponseType       `json:"response_type"`
	Choices      []messages.SuspensionChoice `json:"choices,omitempty"`
}

// codeOnceNeedsInput is the failure code of a once run ended by a
// question it had no answer for.
const codeOnceNeedsInput = "once_cannot_answer"

// answer answers the question the agent asked with the next --answer, or,
// with none left, ends the run with the question and a failure saying
// what to do; it reports whether the run is over.
func (c *onceCmd) answer(ctx context.Context, rt *actors.Runtime, id string, res *onceResult) (bool, error) {
	q := res.asked
	res.asked = nil
	if len(c.Answer) == 0 {
		res.Status = "needs_input"
		res.Question = &onceQuestion{SuspensionID: q.ID, Question: q.Question, ResponseType: q.ResponseType, Choices: q.Choices}
		msg := fmt.Sprintf("the agent asked the operator %q; once cannot answer questions: pass --answer, or use a daemon "+
			"(holon-actors daemon start, then prompt, and answer with holon-actors respond)", q.Question)
		res.Failure = &messages.Failure{Category: messages.FailureRuntime, Code: codeOnceNeedsInput, Message: msg, Summary: msg}
		res.FinalText = q.Question
		return true, nil
	}
	value, err := json.Marshal(c.Answer[0])
	if err != nil {
		return true, err
	}
	c.Answer = c.Answer[1:]
	if _, err := rt.Respond(ctx, id, actors.Answer{SuspensionID: q.ID, Value: value, RespondedBy: "operator (once --answer)"}); err != nil {
		return true, fmt.Errorf("answer %q with --answer: %w", q.Question, err)
	}
	return false, nil
}

// errOnceIncomplete marks a run that did not complete.
var errOnceIncomplete = errors.New("the run did not complete")

// follow reads the agent's events until it settles (idle or asleep with
// nothing queued), fails, reaches --max-turns, or ctx ends.
func (c *onceCmd) follow(ctx context.Context, rt *actors.Runtime, store persistence.Store, sub *persistence.Subscription, id string) (onceResult, error) {
	res := onceResult{AgentID: id, ProviderAttemptTimeline: []json.RawMessage{}}
	var after uint64
	for {
		evs, err := store.Read(ctx, id, after+1, ^uint64(0), 0)
		if err != nil {
			return res, err
		}
		for _, ev := range evs {
			after = ev.Seq
			if done := res.apply(ev, c.MaxTurns); done {
				return res, nil
			}
			if res.asked != nil {
				if done, err := c.answer(ctx, rt, id, &res); done || err != nil {
					return res, err
				}
			}
		}
		if len(evs) > 0 && res.Turns > 0 {
			st, err := rt.State(ctx, id)
			if err == nil && actors.Settled(st) {
				// The agent is ahead of our cursor: fold in what it
				// wrote up to the state it answered from.
				rest, err := store.Read(ctx, id, after+1, st.LastSeq, 0)
				if err != nil {
					return res, err
				}
				for _, ev := range rest {
					if res.apply(ev, c.MaxTurns) {
						return res, nil
					}
				}
				if res.Status == "" {
					res.Status = "completed"
				}
				return res, nil
			}
		}
		select {
		case <-ctx.Done():
			res.Status = "timeout"
			return res, nil
		case <-sub.C:
		}
	}
}

// apply folds one event into the result; it reports whether the run is
// over.
func (r *onceResult) apply(ev messages.Event, maxTurns int) bool {
	p, err := ev.Decode()
	if err != nil {
		return false
	}
	switch p := p.(type) {
	case messages.ProviderRoundCompleted:
		u := &r.TokenUsage
		u.InputTokens += p.TokenUsage.InputTokens
		u.OutputTokens += p.TokenUsage.OutputTokens
		u.CacheReadInputTokens += p.TokenUsage.CacheReadInputTokens
		u.CacheCreationInputTokens += p.TokenUsage.CacheCreationInputTokens
		u.TotalTokens += p.TokenUsage.TotalTokens
		if len(p.AttemptTimeline) > 0 {
			r.ProviderAttemptTimeline = append(r.ProviderAttemptTimeline, p.AttemptTimeline)
		}
	case messages.ChildUsageRecorded:
		// The run's children spent these too. A report carries the
		// child's growth in tokens and the round that prompted it: its
		// split is exact when the two agree (a report after each round).
		u := &r.TokenUsage
		if t := p.TokenUsage; t.InputTokens+t.OutputTokens == p.TokensAdded {
			u.InputTokens += t.InputTokens
			u.OutputTokens += t.OutputTokens
			u.CacheReadInputTokens += t.CacheReadInputTokens
			u.CacheCreationInputTokens += t.CacheCreationInputTokens
		}
		u.TotalTokens += p.TokensAdded
	case messages.RuntimeError:
		f := p.Failure
		r.Failure = &f
		var d struct {
			Artifact json.RawMessage `json:"failure_artifact"`
			Timeline json.RawMessage `json:"provider_attempt_timeline"`
		}
		if json.Unmarshal(f.Details, &d) == nil {
			r.FailureArtifact = d.Artifact
			if len(d.Timeline) > 0 {
				r.ProviderAttemptTimeline = append(r.ProviderAttemptTimeline, d.Timeline)
			}
		}
	case messages.TurnTerminal:
		r.Turns++
		r.RawFinalText = p.LastAssistantMessage
		if p.Closure.Outcome == messages.OutcomeFailed {
			r.Status = "failed"
		}
	case messages.SuspensionRequested:
		q := p.Suspension
		r.asked = &q
	case messages.WorkItemCompleted:
		if p.DeliverySummary != nil {
			r.delivery = p.DeliverySummary.Text
		}
	case messages.BriefRecorded:
		if p.Brief.Kind != messages.BriefAck {
			r.FinalText = p.Brief.Text
		}
		if r.delivery != "" {
			r.FinalText = r.delivery
		}
		if r.Status == "failed" {
			return true
		}
		if r.Turns >= maxTurns {
			r.Status = "max_turns"
			return true
		}
	}
	return false
}
