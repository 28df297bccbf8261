package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/messages"
)

// memoryDocs are the memory records event p of agent id, journaled at at,
// writes or rewrites: a brief, an episode, a work item and its delivery
// summary. Each keeps the workspace its record was written in (a record
// older than the field is agent-scoped).
func memoryDocs(id string, p messages.Payload, at time.Time) []memory.Doc {
	return appendMemoryDocs(nil, id, p, at)
}

// appendMemoryDocs is memoryDocs appended to dst: an agent's batch, most
// of whose events write no record, allocates nothing for those and one
// slice for the rest.
func appendMemoryDocs(dst []memory.Doc, id string, p messages.Payload, at time.Time) []memory.Doc {
	switch p := p.(type) {
	case messages.BriefRecorded:
		if b := p.Brief; strings.TrimSpace(b.Text) != "" {
			return append(dst, scoped(memory.Doc{Kind: memory.KindBrief, Key: b.ID, AgentID: id,
				Title: briefTitle(b), Body: b.Text,
				UpdatedAt: b.CreatedAt, Metadata: compactMeta("brief_kind", string(b.Kind), "work_item_id", b.WorkItemID,
					"message_id", b.RelatedMessageID)}, b.WorkspaceID))
		}
	case messages.EpisodeFinalized:
		return append(dst, episodeDoc(p.Episode))
	case messages.WorkItemCreated:
		return append(dst, workItemDoc(p.Record))
	case messages.WorkItemUpdated:
		return append(dst, workItemDoc(p.Record))
	case messages.WorkItemCompleted:
		dst = append(dst, workItemDoc(p.Record))
		if d := p.DeliverySummary; d != nil && strings.TrimSpace(d.Text) != "" {
			dst = append(dst, scoped(memory.Doc{Kind: memory.KindDelivery, Key: d.WorkItemID, AgentID: id,
				Title: "delivery of " + d.WorkItemID + ": " + memoryTitle(p.Record.Objective, 120), Body: d.Text,
				UpdatedAt: at, Metadata: compactMeta("work_item_id", d.WorkItemID, "turn_id", d.TurnID)}, p.Record.WorkspaceID))
		}
	}
	return dst
}

// briefTitle is a brief record's title: its kind and when it was written,
// to the minute ("final brief 2026-11-24 20:15").
func briefTitle(b messages.Brief) string {
	var buf [64]byte
	t := append(buf[:0], b.Kind...)
	t = append(t, " brief "...)
	return string(b.CreatedAt.UTC().AppendFormat(t, "2006-01-02 15:04"))
}

// episodeDoc is an episode's record: its summary, then its evidence.
func episodeDoc(e messages.Episode) memory.Doc {
	var b strings.Builder
	b.WriteString(e.Summary)
	list := func(name string, l []string) {
		if len(l) > 0 {
			b.WriteString("\n" + name + ":\n- " + strings.Join(l, "\n- "))
		}
	}
	list("Files", e.Files)
	list("Commands", e.Commands)
	list("Verification", e.Verification)
	list("Decisions", e.Decisions)
	list("Carry forward", e.CarryForward)
	title := fmt.Sprintf("episode turns %d–%d", e.FirstTurn, e.LastTurn)
	if e.Objective != "" {
		title += ": " + memoryTitle(e.Objective, 120)
	}
	return scoped(memory.Doc{Kind: memory.KindEpisode, Key: e.ID, AgentID: e.AgentID, Title: title, Body: b.String(),
		SourcePath: ".holon/ledger/context_episodes.jsonl", UpdatedAt: e.CreatedAt,
		Metadata: compactMeta("boundary", e.Boundary, "work_item_id", e.WorkItemID,
			"turns", fmt.Sprintf("%d-%d", e.FirstTurn, e.LastTurn), "messages", fmt.Sprintf("%d-%d", e.FirstMessage, e.LastMessage))},
		e.WorkspaceID)
}

// workItemDoc is a work item's record: objective, checklist, blocker and
// result.
func workItemDoc(r messages.WorkItemRecord) memory.Doc {
	var b strings.Builder
	b.WriteString(r.Objective)
	for _, td := range r.TodoList {
		fmt.Fprintf(&b, "\n- [%s] %s", td.State, td.Text)
	}
	if r.BlockedBy != "" {
		b.WriteString("\nBlocked by: " + r.BlockedBy)
	}
	if r.ResultSummary != "" {
		b.WriteString("\nResult: " + r.ResultSummary)
	}
	return scoped(memory.Doc{Kind: memory.KindWorkItem, Key: r.ID, AgentID: r.AgentID,
		Title: "work item " + r.ID + ": " + memoryTitle(r.Objective, 120), Body: b.String(), UpdatedAt: r.UpdatedAt,
		Metadata: compactMeta("state", string(r.State), "plan_status", string(r.PlanStatus))}, r.WorkspaceID)
}

// scoped attributes d to workspace ws, or to the agent when ws is "".
func scoped(d memory.Doc, ws string) memory.Doc {
	d.ScopeKind, d.WorkspaceID = memory.ScopeAgent, ""
	if ws != "" {
		d.ScopeKind, d.WorkspaceID = memory.ScopeWorkspace, ws
	}
	return d
}

// compactMeta is the metadata of key/value pairs with a value.
func compactMeta(kv ...string) map[string]string {
	n := 0
	for i := 1; i < len(kv); i += 2 {
		if kv[i] != "" {
			n++
		}
	}
	m := make(map[string]string, n)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m[kv[i]] = kv[i+1]
		}
	}
	return m
}

// memoryTitle is s on one line, cut to n runes (never inside a character).
func memoryTitle(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
