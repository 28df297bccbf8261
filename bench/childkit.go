package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// The texts of the delegation workload. A parent's prompt is
// spawnPrompt(k, task): it spawns k private children, each with task as
// its initial_message. A child's first message is its task.
const (
	parentPrefix = "bench parent: spawn "
	childPrefix  = "bench child: "
	// answerTask is a child that answers in one round, then archives.
	answerTask = childPrefix + "answer 42"
	// liveTask is a child that sleeps until woken: it stays supervised.
	liveTask = childPrefix + "stay live until stopped"
	// warmPrompt is a parent turn that spawns nothing.
	warmPrompt = "bench parent: warm up"
)

// spawnPrompt is the prompt that makes a parent spawn k children with
// task.
func spawnPrompt(k int, task string) string {
	return parentPrefix + strconv.Itoa(k) + " children: " + task
}

// childrenProvider is a zero-latency providers.Provider that plays every
// agent of the delegation workload from the request alone, so one value
// serves all agents concurrently:
//   - a parent's spawn prompt: one round calling SpawnAgent k times, then,
//     after the tool results, a short final text;
//   - a child (its first message starts with childPrefix): answerTask
//     answers "42" in one round; liveTask calls Sleep with no duration, so
//     its closure waits and it stays supervised;
//   - anything else (a parent's task_result turns, warmPrompt): a short
//     final text.
type childrenProvider struct{}

// Name implements providers.Provider.
func (childrenProvider) Name() string { return "bench/zero-latency-children" }

// Complete implements providers.Provider.
func (childrenProvider) Complete(_ context.Context, req providers.Request) (providers.Response, error) {
	id := req.TurnID + "_" + strconv.FormatUint(uint64(req.Round), 10)
	resp := providers.Response{
		StopReason: "end_turn",
		Usage:      messages.TokenUsage{InputTokens: 100, OutputTokens: 10, TotalTokens: 110},
		ResponseID: "resp_" + id,
		Model:      "bench-1",
	}
	last := lastItem(req.Conversation)
	switch {
	case last.Kind == providers.ItemToolResult:
		resp.Text = "Done."
	case isChild(req.Conversation) && req.Conversation[0].Text == liveTask:
		resp.StopReason = "tool_use"
		resp.ToolCalls = []messages.ToolCall{{ID: "call_" + id, Name: agentstate.SleepToolName, Arguments: sleepArguments}}
	case isChild(req.Conversation):
		resp.Text = "42"
	case last.Kind == providers.ItemMessage && strings.HasPrefix(last.Text, parentPrefix):
		calls, err := spawnCalls(last.Text, id)
		if err != nil {
			return providers.Response{}, err
		}
		resp.Text, resp.StopReason, resp.ToolCalls = "Delegating.", "tool_use", calls
	default:
		resp.Text = "Noted."
	}
	return resp, nil
}

// sleepArguments rest until woken: no duration.
var sleepArguments = json.RawMessage(`{"reason":"bench: stay live"}`)

// lastItem is the last conversation item that is not a bare notification.
func lastItem(conv []providers.Item) providers.Item {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Kind != providers.ItemNotification {
			return conv[i]
		}
	}
	return providers.Item{}
}

// isChild reports whether conv is a bench child's: its first message is
// its delegation.
func isChild(conv []providers.Item) bool {
	return len(conv) > 0 && strings.HasPrefix(conv[0].Text, childPrefix)
}

// spawnCalls reads a spawnPrompt and returns its k SpawnAgent calls, with
// ids unique per round.
func spawnCalls(prompt, id string) ([]messages.ToolCall, error) {
	n, task, ok := strings.Cut(strings.TrimPrefix(prompt, parentPrefix), " children: ")
	k, err := strconv.Atoi(n)
	if !ok || err != nil || k < 1 {
		return nil, fmt.Errorf("bench parent prompt %q: want %q", prompt, spawnPrompt(1, answerTask))
	}
	args, err := json.Marshal(runtimetools.SpawnAgentArgs{InitialMessage: task})
	if err != nil {
		return nil, err
	}
	calls := make([]messages.ToolCall, k)
	for i := range calls {
		calls[i] = messages.ToolCall{ID: "call_" + id + "_" + strconv.Itoa(i), Name: runtimetools.SpawnAgentToolName, Arguments: args}
	}
	return calls, nil
}
