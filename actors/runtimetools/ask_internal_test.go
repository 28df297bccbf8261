package runtimetools

import (
	"encoding/json"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"testing"
)

// TestAskStateKeepsTheArgumentsJSON: a turn's Ask was the tool's
// arguments; its state record encodes every field the same way, so a
// snapshot written before the record existed loads into it unchanged.
func TestAskStateKeepsTheArgumentsJSON(t *testing.T) {
	f := 0.5
	args := RequestInputArgs{Question: "ship?", ResponseType: "choice",
		Choices:     []ChoiceArg{{Value: "y", Label: "Yes", Description: "ship it", Style: "primary"}},
		Context:     map[string]string{"k": "v"},
		ChannelHint: "slack", TimeoutSeconds: 60, FallbackPolicy: "complete_with_fallback", FallbackValue: "y",
		Confidence: &f, Risk: &f, Reversibility: &f,
		RetryPolicy: &RetryPolicyArg{IntervalSeconds: 30, MaxAttempts: 2, FinalFallbackPolicy: "fail"}}
	old, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	st := args.State()
	now, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if string(old) != string(now) {
		t.Fatalf("agentstate.AskState JSON = %s, want the arguments' %s", now, old)
	}
	var back agentstate.AskState
	if err := json.Unmarshal(old, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(old) {
		t.Fatalf("arguments JSON read as agentstate.AskState = %s, want %s", again, old)
	}

	sleep, _ := json.Marshal(SleepArgs{DurationMS: 1500, Reason: "nap"})
	var s agentstate.SleepState
	if err := json.Unmarshal(sleep, &s); err != nil || s != (agentstate.SleepState{DurationMS: 1500, Reason: "nap"}) {
		t.Fatalf("Sleep arguments read as agentstate.SleepState = %+v, %v", s, err)
	}
}
