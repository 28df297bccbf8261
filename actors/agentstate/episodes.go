package agentstate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// Episodes: each model-visible turn gathers its memory evidence (files
// touched, commands run, what verified, work-item decisions, tool
// outcomes) in a TurnMemoryDelta; its terminal merges the delta into the
// open episode builder. At a turn boundary the builder is finalized into
// an immutable episode (episode_finalized) when the agent switched its
// current work, completed a work item (a result checkpoint), waits or
// sleeps, or the episode reached its hard cap.

// Episode boundaries.
const (
	BoundaryWorkSwitch = "work_switch"
	BoundaryCheckpoint = "result_checkpoint"
	BoundaryWaiting    = "waiting"
	BoundaryHardCap    = "hard_cap"
)

// Bounds of an episode.
const (
	// EpisodeMaxTurns is the hard cap of turns in one episode.
	EpisodeMaxTurns = 20
	// episodeListLimit bounds each evidence list; a full list is a hard cap.
	episodeListLimit = 32
	// EpisodeSummaryLimit bounds an episode's summary, in runes.
	EpisodeSummaryLimit = 2000
	episodeResultLimit  = 240
)

// verifyWords mark a command as verification.
var verifyWords = []string{"test", "vet", "lint", "check", "build", "verify", "staticcheck"}

// noteMemoryEvidence adds p's evidence to the turn in flight's delta, or,
// for a turn's terminal and its brief, to the episode builder. It runs
// before p's own rule.
func (s *State) noteMemoryEvidence(p messages.Payload) {
	if p, ok := p.(messages.BriefRecorded); ok {
		s.noteEpisodeResult(p.Brief)
		return
	}
	if _, ok := p.(messages.WorkItemCompleted); ok && (s.Memory.Episode != nil || s.Turn != nil && s.Turn.Memory != nil) {
		s.episode().Checkpoint = true
	}
	t := s.Turn
	if t == nil || t.Memory == nil {
		return
	}
	d := t.Memory
	switch p := p.(type) {
	case messages.ToolCallStarted:
		d.noteCall(p)
	case messages.ToolExecuted:
		d.noteResult(p)
	case messages.WorkItemCreated:
		d.Decisions = appendBounded(d.Decisions, "created "+p.Record.ID+": "+memoryLine(p.Record.Objective))
	case messages.WorkItemPicked:
		d.Decisions = appendBounded(d.Decisions, "picked "+p.WorkItemID)
	case messages.WorkItemUpdated:
		d.Decisions = appendBounded(d.Decisions, updateDecision(p.Record))
	case messages.WorkItemCompleted:
		d.Decisions = appendBounded(d.Decisions, "completed "+p.Record.ID+": "+memoryLine(p.Record.ResultSummary))
	case messages.WorkspaceUsed:
		d.Decisions = appendBounded(d.Decisions, "used workspace "+p.WorkspaceID)
	case messages.TurnTerminal:
		s.mergeTurn(p)
	}
}

func updateDecision(r messages.WorkItemRecord) string {
	if r.BlockedBy != "" {
		return "blocked " + r.ID + ": " + memoryLine(r.BlockedBy)
	}
	return fmt.Sprintf("updated %s (plan %s)", r.ID, r.PlanStatus)
}

// noteCall remembers a command's line and a patch's files.
func (d *TurnMemoryDelta) noteCall(p messages.ToolCallStarted) {
	var args struct {
		Cmd   string `json:"cmd"`
		Patch string `json:"patch"`
	}
	if json.Unmarshal(p.Arguments, &args) != nil {
		return
	}
	switch {
	case args.Cmd != "":
		cmd := memoryLine(args.Cmd)
		d.Commands = appendBounded(d.Commands, cmd)
		if d.Calls == nil {
			d.Calls = map[string]string{}
		}
		d.Calls[p.CallID] = cmd
	case args.Patch != "":
		for _, f := range patchFiles(args.Patch) {
			d.Files = appendBounded(d.Files, f)
		}
	}
}

// noteResult records a tool's outcome, and a verifying command's.
func (d *TurnMemoryDelta) noteResult(p messages.ToolExecuted) {
	d.Tools = appendBounded(d.Tools, p.ToolName+" "+string(p.Status))
	cmd, ok := d.Calls[p.CallID]
	if !ok {
		return
	}
	delete(d.Calls, p.CallID)
	for _, w := range verifyWords {
		if strings.Contains(cmd, w) {
			d.Verification = appendBounded(d.Verification, cmd+": "+string(p.Status))
			return
		}
	}
}

// patchFiles are the paths a unified diff touches.
func patchFiles(patch string) []string {
	var out []string
	for line := range strings.SplitSeq(patch, "\n") {
		path, ok := strings.CutPrefix(line, "+++ ")
		if !ok {
			continue
		}
		path = strings.TrimPrefix(strings.TrimSpace(path), "b/")
		if path != "/dev/null" && path != "" && !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	return out
}

// mergeTurn merges the terminal turn's delta into the episode builder.
func (s *State) mergeTurn(p messages.TurnTerminal) {
	d := s.Turn.Memory
	e := s.episode()
	if e.Turns == 0 {
		e.FirstTurn, e.FirstMessage = p.TurnIndex, d.FirstMessage
		e.WorkItemID = s.CurrentWorkItemID // a turn that picked its work is about it
		if s.Turn.Work != nil && s.Turn.Work.BoundItemID != "" {
			e.WorkItemID = s.Turn.Work.BoundItemID
		}
		if r := s.WorkItemOf(e.WorkItemID); r != nil {
			e.Objective = memoryLine(r.Objective)
		}
		e.WorkspaceID = s.ActiveWorkspaceID()
	}
	e.Turns++
	e.LastTurn, e.LastMessage = p.TurnIndex, s.MessageCount()
	e.Files = mergeBounded(e.Files, d.Files)
	e.Commands = mergeBounded(e.Commands, d.Commands)
	e.Verification = mergeBounded(e.Verification, d.Verification)
	e.Decisions = mergeBounded(e.Decisions, d.Decisions)
	s.Memory.LastTools = d.Tools
}

// noteEpisodeResult keeps a settled turn's result or failure brief.
func (s *State) noteEpisodeResult(b messages.Brief) {
	e := s.Memory.Episode
	if e == nil || s.Turn != nil || b.Kind == messages.BriefAck || strings.TrimSpace(b.Text) == "" {
		return
	}
	text, whole := CutRunes(strings.Join(strings.Fields(b.Text), " "), episodeResultLimit)
	if !whole {
		text += "…"
	}
	e.Results = append(e.Results, text)
	if len(e.Results) > EpisodeMaxTurns {
		e.Results = e.Results[len(e.Results)-EpisodeMaxTurns:]
	}
}

func (s *State) episode() *EpisodeBuilder {
	if s.Memory.Episode == nil {
		s.Memory.Episode = &EpisodeBuilder{}
	}
	return s.Memory.Episode
}

// EpisodeBoundary is why the open episode ends at this turn boundary, ""
// while it goes on.
func EpisodeBoundary(st *State) string {
	e := st.Memory.Episode
	switch {
	case e == nil || e.Turns == 0:
		return ""
	case e.Checkpoint:
		return BoundaryCheckpoint
	case e.WorkItemID != st.CurrentWorkItemID:
		return BoundaryWorkSwitch
	case st.Status == messages.StatusAsleep || st.Status == messages.StatusSuspended ||
		st.LastClosure != nil && st.LastClosure.Outcome == messages.OutcomeWaiting:
		return BoundaryWaiting
	case e.Turns >= EpisodeMaxTurns || len(e.Files) >= episodeListLimit || len(e.Commands) >= episodeListLimit:
		return BoundaryHardCap
	}
	return ""
}

// FinalizeEpisode is the episode_finalized that closes the open builder
// at boundary, with what it carries forward (the current item's open
// todos and blockers) and what it waits on.
func FinalizeEpisode(st *State, env Env, boundary string) messages.EpisodeFinalized {
	e := st.Memory.Episode
	ep := messages.Episode{
		ID: env.NewID("ep"), AgentID: env.AgentID, WorkspaceID: e.WorkspaceID, WorkItemID: e.WorkItemID,
		Objective: e.Objective, FirstTurn: e.FirstTurn, LastTurn: e.LastTurn,
		FirstMessage: e.FirstMessage, LastMessage: e.LastMessage,
		Files: e.Files, Commands: e.Commands, Verification: e.Verification, Decisions: e.Decisions,
		CarryForward: carryForward(st, e.WorkItemID), Boundary: boundary, CreatedAt: env.Now,
	}
	if c := st.LastClosure; c != nil && c.Outcome == messages.OutcomeWaiting {
		ep.Waiting = string(c.WaitingReason)
	}
	ep.Summary = episodeSummary(ep, e.Results)
	return messages.EpisodeFinalized{Episode: ep}
}

func carryForward(st *State, itemID string) []string {
	r := st.WorkItemOf(itemID)
	if r == nil || !r.Open() {
		return nil
	}
	var out []string
	if r.BlockedBy != "" {
		out = append(out, "blocked: "+memoryLine(r.BlockedBy))
	}
	for _, td := range r.TodoList {
		if td.State != messages.TodoCompleted {
			out = append(out, fmt.Sprintf("[%s] %s", td.State, memoryLine(td.Text)))
		}
	}
	return boundList(out)
}

// episodeSummary is the episode's one bounded text.
func episodeSummary(ep messages.Episode, results []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Turns %d–%d", ep.FirstTurn, ep.LastTurn)
	if ep.WorkItemID != "" {
		fmt.Fprintf(&b, " on %s: %s", ep.WorkItemID, ep.Objective)
	}
	b.WriteString(".")
	part := func(name string, l []string) {
		if len(l) > 0 {
			b.WriteString(" " + name + ": " + strings.Join(l, "; ") + ".")
		}
	}
	part("Results", results)
	part("Files", ep.Files)
	part("Commands", ep.Commands)
	part("Verified", ep.Verification)
	part("Decided", ep.Decisions)
	part("Carry forward", ep.CarryForward)
	if ep.Waiting != "" {
		b.WriteString(" Waiting: " + ep.Waiting + ".")
	}
	if head, whole := CutRunes(b.String(), EpisodeSummaryLimit); !whole {
		return head + "…"
	}
	return b.String()
}

// applyEpisodeFinalized closes the builder and keeps a reference to the
// episode while its messages are in the conversation (compaction's digest
// names it when they leave: episode_window.go).
func (s *State) applyEpisodeFinalized(ep messages.Episode) {
	s.Memory.Episode = nil
	s.Memory.ArchivedEpisodes++
	s.rememberWindowEpisode(ep)
}

func appendBounded(l []string, e string) []string {
	if slices.Contains(l, e) || len(l) >= episodeListLimit {
		return l
	}
	return append(l, e)
}

func mergeBounded(l, more []string) []string {
	for _, e := range more {
		l = appendBounded(l, e)
	}
	return l
}
