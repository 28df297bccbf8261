package agentstate

import (
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers/llm"
)

func TestRequest(t *testing.T) {
	tools := []llm.ToolSpec{{Name: "Sleep"}, {Name: "read_file"}}
	base := func() *State {
		st := &State{ID: "a1", Kind: messages.AgentNamed, Model: "m1", Turn: &TurnState{ID: "t1", MessageID: "m9", Index: 4, Round: 2}}
		st.Conversation = []llm.Item{{Kind: llm.ItemMessage, Text: "hi"}}
		return st
	}
	withWork := func() *State {
		st := base()
		st.WorkItems = map[string]*messages.WorkItemRecord{"w1": workItem("w1", time.Hour)}
		st.CurrentWorkItemID = "w1"
		return st
	}
	plans := func(id string) *PlanArtifact {
		return &PlanArtifact{Path: "/home/a1/work-items/" + id + "/plan.md", Bytes: 42, Preview: "1. do it", PreviewComplete: true}
	}
	cases := []struct {
		name     string
		st       *State
		plans    func(string) *PlanArtifact
		context  []string // in the context block
		absent   []string
		answered int
	}{
		{"no work", base(), nil, []string{"Turn 4, round 3. Current input: message m9."}, []string{"Work queue"}, 0},
		{"the current item's plan, read through Env.Plans", withWork(), plans,
			[]string{"Current work item:", "- w1 [runnable, plan ready]: objective w1", "Plan file /home/a1/work-items/w1/plan.md, 42 bytes", "    1. do it"}, nil, 0},
		{"no plan reader", withWork(), nil, []string{"- w1 [runnable"}, []string{"Plan file"}, 0},
		{"a dangling call answered in the request", func() *State {
			st := base()
			st.Conversation = append(st.Conversation, llm.Item{Kind: llm.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: "c1", Name: "x"}}})
			return st
		}(), nil, nil, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv()
			env.Cfg.SystemPrompt, env.Plans = "Be brief.", c.plans
			req, answered := Request(c.st, env, tools)
			ctx := req.Frame.ContextBlocks[0].Text
			for _, s := range c.context {
				if !strings.Contains(ctx, s) {
					t.Errorf("context block lacks %q:\n%s", s, ctx)
				}
			}
			for _, s := range c.absent {
				if strings.Contains(ctx, s) {
					t.Errorf("context block has %q:\n%s", s, ctx)
				}
			}
			if answered != c.answered {
				t.Errorf("answered = %d, want %d", answered, c.answered)
			}
			if req.Round != 3 || req.TurnID != "t1" || req.Model != "m1" || req.Frame.SystemPrompt != "Be brief." || len(req.Tools) != 2 ||
				!strings.Contains(req.Frame.SystemBlocks[0].Text, `You are agent "a1" (named, public)`) {
				t.Errorf("request = %+v", req)
			}
		})
	}
	// The cache key follows the agent, its guidance and its tools, not the
	// turn's context; the fingerprint follows the context too.
	env := testEnv()
	a, _ := Request(base(), env, tools)
	other := base()
	other.Turn.MessageID = "m10"
	b, _ := Request(other, env, tools)
	c, _ := Request(base(), env, tools[:1])
	if a.Frame.Cache.PromptCacheKey != b.Frame.Cache.PromptCacheKey || a.Frame.Cache.ContextFingerprint == b.Frame.Cache.ContextFingerprint ||
		a.Frame.Cache.PromptCacheKey == c.Frame.Cache.PromptCacheKey {
		t.Errorf("cache keys %+v, %+v, %+v: want the key stable across contexts and changed by the tools", a.Frame.Cache, b.Frame.Cache, c.Frame.Cache)
	}
}
