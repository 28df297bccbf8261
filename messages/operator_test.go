package messages_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func f(v float64) *float64 { return &v }

// TestEngagementDecision covers RFC-0025 §7.2's thresholds and their
// boundaries, most severe first.
func TestEngagementDecision(t *testing.T) {
	cases := []struct {
		name    string
		s       messages.EngagementSignals
		mode    messages.EngagementMode
		askable bool
	}{
		{"defaults act", messages.EngagementSignals{}, messages.EngageAutonomous, false},
		{"confident and safe", messages.EngagementSignals{Confidence: f(0.85), Risk: f(0.20), Reversibility: f(0.50)}, messages.EngageAutonomous, false},
		{"just under confident", messages.EngagementSignals{Confidence: f(0.84)}, messages.EngageRequestInput, true},
		{"moderate", messages.EngagementSignals{Confidence: f(0.55), Risk: f(0.3), Reversibility: f(0.8)}, messages.EngageRequestInput, true},
		{"low confidence", messages.EngagementSignals{Confidence: f(0.49)}, messages.EngageRequireInput, true},
		{"risk over half", messages.EngagementSignals{Risk: f(0.51)}, messages.EngageRequireInput, true},
		{"risk at half", messages.EngagementSignals{Risk: f(0.50)}, messages.EngageRequestInput, true},
		{"high risk defers", messages.EngagementSignals{Risk: f(0.80)}, messages.EngageDefer, false},
		{"irreversible defers", messages.EngagementSignals{Confidence: f(0.99), Reversibility: f(0.10)}, messages.EngageDefer, false},
		{"clamped", messages.EngagementSignals{Confidence: f(7), Risk: f(-1), Reversibility: f(2)}, messages.EngageAutonomous, false},
	}
	for _, tc := range cases {
		d := tc.s.Decide()
		if d.Mode != tc.mode || d.ShouldAsk != tc.askable || d.Reason == "" {
			t.Errorf("%s: %+v, want %s should_ask=%v", tc.name, d, tc.mode, tc.askable)
		}
	}
}

func TestCheckAnswer(t *testing.T) {
	choice := &messages.SuspensionRecord{ResponseType: messages.ResponseChoice,
		Choices: []messages.SuspensionChoice{{Value: "approve", Label: "Approve", Description: "Refund it"}, {Value: "deny", Label: "Deny"}}}
	confirm := &messages.SuspensionRecord{ResponseType: messages.ResponseConfirm}
	text := &messages.SuspensionRecord{ResponseType: messages.ResponseText}
	form := &messages.SuspensionRecord{ResponseType: messages.ResponseForm}
	cases := []struct {
		r      *messages.SuspensionRecord
		value  string
		ok     bool
		label  string
		valids string
	}{
		{choice, `"approve"`, true, "Approve", ""},
		{choice, `"nope"`, false, "", "approve,deny"},
		{choice, `3`, false, "", "approve,deny"},
		{choice, `null`, false, "", "approve,deny"},
		{confirm, `"yes"`, true, "Yes", ""},
		{confirm, `"no"`, true, "No", ""},
		{confirm, `"YES"`, false, "", "yes,no"},
		{text, `"ship it"`, true, "", ""},
		{text, `"  "`, false, "", ""},
		{text, `{"a":1}`, false, "", ""},
		{form, `{"env":"prod"}`, true, "", ""},
		{form, `"prod"`, false, "", ""},
		{form, ``, false, "", ""},
	}
	for _, tc := range cases {
		c, err := tc.r.CheckAnswer(json.RawMessage(tc.value))
		if (err == nil) != tc.ok {
			t.Errorf("%s %s: err %v, want ok=%v", tc.r.ResponseType, tc.value, err, tc.ok)
			continue
		}
		var inv *messages.InvalidAnswerError
		if err != nil && (!errors.As(err, &inv) || strings.Join(inv.ValidChoices, ",") != tc.valids) {
			t.Errorf("%s %s: %v, want valid choices %q", tc.r.ResponseType, tc.value, err, tc.valids)
		}
		if tc.label != "" && (c == nil || c.Label != tc.label) {
			t.Errorf("%s %s: choice %+v, want label %q", tc.r.ResponseType, tc.value, c, tc.label)
		}
	}
}

func TestNotificationSummary(t *testing.T) {
	long := strings.Repeat("é", 300)
	cases := map[string]string{
		"":                              "",
		"\n  \n":                        "",
		"  First line  \nsecond":        "First line",
		"\n\n\tDeploy failed.\r\nlogs…": "Deploy failed.",
		long:                            strings.Repeat("é", messages.NotificationSummaryLimit-1) + "…",
	}
	for in, want := range cases {
		if got := messages.NotificationSummary(in); got != want {
			t.Errorf("NotificationSummary(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNotificationFilter(t *testing.T) {
	f := messages.NotificationFilter{Kinds: map[string]map[string]bool{
		"mcp": {"enable": false}, "tool": {"waiting": false, "stopped": true},
	}}
	for kind, want := range map[string]bool{
		"mcp.disconnected": false, "tool.waiting": false, "tool.stopped": true, "tool.failed": true, "provider.fallback": true,
	} {
		if got := f.Allows(kind); got != want {
			t.Errorf("Allows(%s) = %v, want %v", kind, got, want)
		}
	}
	if !(messages.NotificationFilter{}).Allows("anything.at_all") {
		t.Error("the zero filter must deliver everything")
	}
}

func TestRenderSystemNotifications(t *testing.T) {
	got := messages.RenderSystemNotifications([]messages.SystemNotification{
		{Kind: "tool.stopped", Level: messages.LevelInfo, Message: "Task t1 stopped."},
		{Kind: "tool.failed", Level: messages.LevelCritical, Message: "cargo check failed."},
		{Kind: "mcp.disconnected", Level: messages.LevelError, Message: "github disconnected."},
		{Kind: "tool.waiting", Level: messages.LevelInfo, Message: "Task t2 waits for input."},
	})
	order := []string{"**Critical:**", "cargo check failed.", "**Error:**", "github disconnected.", "**Info:**", "Task t1 stopped.", "Task t2 waits for input."}
	at := 0
	for _, s := range order {
		i := strings.Index(got[at:], s)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", s, got)
		}
		at += i
	}
	if strings.Contains(got, "**Warning:**") || !strings.HasPrefix(got, "---\n") || !strings.HasSuffix(got, "---") {
		t.Fatalf("render:\n%s", got)
	}
	if messages.RenderSystemNotifications(nil) != "" {
		t.Fatal("no notifications must render nothing")
	}
}
