package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// suspensionsCmd groups the commands about agents' questions to the
// operator (suspensions).
type suspensionsCmd struct {
	List   suspensionsListCmd   `cmd:"" help:"List the questions agents wait on: every agent's open ones; --agent for one agent's, --all to include answered, expired and cancelled ones."`
	Cancel suspensionsCancelCmd `cmd:"" help:"Withdraw a question: the agent resumes and is told it was cancelled."`
}

type suspensionsListCmd struct {
	All bool `help:"Include closed suspensions (answered, expired, cancelled), newest first."`
}

// Run lists the suspensions, one line each.
func (l *suspensionsListCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	list, err := l.fetch(ctx, c, e.Agent)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, control.SuspensionList{AgentID: e.Agent, Suspensions: list})
	}
	if len(list) == 0 && l.All {
		fmt.Fprintln(e.stdout, "no suspensions")
		return nil
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "no open suspensions")
		return nil
	}
	return printSuspensions(e, list, l.All)
}

// fetch returns agent's suspensions, or with agent "" every agent's open
// ones (--all: every public agent's, newest first).
func (l *suspensionsListCmd) fetch(ctx context.Context, c runtimeClient, agent string) ([]messages.SuspensionRecord, error) {
	switch {
	case agent != "":
		return c.Suspensions(ctx, agent, !l.All)
	case !l.All:
		return c.OpenSuspensions(ctx)
	}
	agents, err := c.Agents(ctx)
	if err != nil {
		return nil, err
	}
	var out []messages.SuspensionRecord
	for _, a := range agents {
		list, err := c.Suspensions(ctx, a.ID, false)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SuspendedAt.After(out[j].SuspendedAt) })
	return out, nil
}

// printSuspensions writes one aligned line per suspension; withState adds
// whether each is open or how it ended.
func printSuspensions(e *env, list []messages.SuspensionRecord, withState bool) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	state := ""
	if withState {
		state = "STATE\t"
	}
	fmt.Fprintf(tw, "AGENT\tSUSPENSION\tTYPE\t%sEXPIRES\tCHOICES\tQUESTION\n", state)
	for _, s := range list {
		if withState {
			state = "open\t"
			if !s.Open() {
				state = string(s.Resolution) + "\t"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s\t%s\t%s\n", s.AgentID, s.ID, s.ResponseType, state,
			expires(s.ExpiresAt), choiceList(s), oneLineText(s.Question))
	}
	return tw.Flush()
}

func expires(at *time.Time) string {
	if at == nil {
		return "never"
	}
	return at.Local().Format("2006-01-02 15:04")
}

// choiceList is the values a suspension accepts, "-" for free answers.
func choiceList(s messages.SuspensionRecord) string {
	cs := s.EffectiveChoices()
	if len(cs) == 0 {
		return "-"
	}
	vals := make([]string, len(cs))
	for i, c := range cs {
		vals[i] = c.Value
	}
	return strings.Join(vals, "|")
}

// respondCmd is `holon-actors respond`.
type respondCmd struct {
	AgentID      string `arg:"" name:"agent" help:"The suspended agent's id."`
	SuspensionID string `arg:"" name:"suspension-id" help:"The suspension to answer (see holon-actors suspensions list)."`
	Value        string `arg:"" help:"The answer: a choice's value, yes or no, or text. With --json-value, JSON (a form's object of fields)."`
	JSONValue    bool   `name:"json-value" help:"Parse the value as JSON instead of sending it as a string."`
}

// Run sends the answer and prints what the agent resumes with.
func (r *respondCmd) Run(ctx context.Context, e *env) error {
	value, err := r.value()
	if err != nil {
		return err
	}
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := c.Respond(ctx, r.AgentID, r.SuspensionID, control.RespondRequest{Value: value})
	if err != nil {
		return err
	}
	return printResolution(e, res)
}

// value is the answer as JSON: the argument as a string, or parsed with
// --json-value.
func (r *respondCmd) value() (json.RawMessage, error) {
	if !r.JSONValue {
		return json.Marshal(r.Value)
	}
	if !json.Valid([]byte(r.Value)) {
		return nil, usage(fmt.Errorf("--json-value: %q is not JSON", r.Value))
	}
	return json.RawMessage(r.Value), nil
}

type suspensionsCancelCmd struct {
	AgentID      string `arg:"" name:"agent" help:"The suspended agent's id."`
	SuspensionID string `arg:"" name:"suspension-id" help:"The suspension to withdraw."`
	Reason       string `help:"Why, for the agent and the journal."`
}

// Run withdraws the question.
func (s *suspensionsCancelCmd) Run(ctx context.Context, e *env) error {
	c, err := dial(e)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := c.CancelSuspension(ctx, s.AgentID, s.SuspensionID,
		control.CancelSuspensionRequest{Reason: s.Reason})
	if err != nil {
		return err
	}
	return printResolution(e, res)
}

// printResolution prints an accepted answer or cancellation.
func printResolution(e *env, res control.SuspensionResponse) error {
	if e.JSON {
		return printJSON(e, res)
	}
	_, err := fmt.Fprintf(e.stdout, "%s: %s\n", res.AgentID, res)
	return err
}

// notificationsCmd is `holon-actors notifications`.
type notificationsCmd struct{}

// Run prints the agent's operator notifications, newest first.
func (notificationsCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, "")
	if err != nil {
		return err
	}
	defer c.Close()
	ns, err := c.Notifications(ctx, id)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, control.NotificationList{AgentID: id, Notifications: ns})
	}
	if len(ns) == 0 {
		fmt.Fprintf(e.stdout, "no notifications for %s\n", id)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tAGENT\tREASON\tDELIVERY\tSUMMARY")
	for _, n := range ns {
		delivery := "-"
		if n.Delivery != nil {
			delivery = string(n.Delivery.Status)
		}
		summary := n.Summary
		if summary == "" {
			summary = messages.NotificationSummary(n.Message)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", n.CreatedAt.Local().Format("2006-01-02 15:04:05"), n.AgentID,
			n.Reason, delivery, summary)
	}
	return tw.Flush()
}
