package messages_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// enumCase checks one enum generically through its exported API.
type enumCase struct {
	typ  string   // Go type name, the key of messages.EnumValues
	want []string // the spec's values, in spec order
	// roundTrip parses s, and reports String(), Valid() and the result of
	// decoding the JSON string quoted(s).
	roundTrip func(s string) (str string, valid bool, parseErr, jsonErr error)
}

type stringEnum interface {
	~string
	String() string
	Valid() bool
}

func caseOf[T stringEnum](typ string, parse func(string) (T, error), want ...string) enumCase {
	return enumCase{typ: typ, want: want, roundTrip: func(s string) (string, bool, error, error) {
		v, perr := parse(s)
		var j T
		jerr := json.Unmarshal(mustMarshalString(s), &j)
		if jerr == nil && j != v {
			jerr = errors.New("JSON and Parse disagree: " + string(j) + " vs " + string(v))
		}
		return v.String(), v.Valid(), perr, jerr
	}}
}

func mustMarshalString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

var enumCases = []enumCase{
	caseOf("MessageKind", messages.ParseMessageKind, "operator_prompt", "channel_event", "webhook_event",
		"callback_event", "timer_tick", "system_tick", "task_result", "task_status", "control", "brief_ack",
		"brief_result", "internal_followup"),
	caseOf("TriggerKind", messages.ParseTriggerKind, "operator_input", "task_result", "external_event",
		"timer_fire", "internal_followup", "system_tick"),
	caseOf("Priority", messages.ParsePriority, "interject", "next", "normal", "background"),
	caseOf("TrustLevel", messages.ParseTrustLevel, "trusted_operator", "trusted_system", "trusted_integration",
		"untrusted_external"),
	caseOf("AuthorityClass", messages.ParseAuthorityClass, "operator_instruction", "runtime_instruction",
		"integration_signal", "external_evidence"),
	caseOf("MessageDeliverySurface", messages.ParseMessageDeliverySurface, "cli_prompt", "run_once",
		"http_public_enqueue", "http_webhook", "http_callback_enqueue", "http_callback_wake", "http_control_prompt",
		"timer_scheduler", "runtime_system", "task_rejoin", "remote_control_prompt"),
	caseOf("AdmissionContext", messages.ParseAdmissionContext, "public_unauthenticated", "control_authenticated",
		"external_trigger_capability", "local_process", "runtime_owned"),
	caseOf("OriginKind", messages.ParseOriginKind, "operator", "channel", "webhook", "callback", "timer",
		"system", "task"),
	caseOf("BodyType", messages.ParseBodyType, "text", "json", "brief"),
	caseOf("AgentStatus", messages.ParseAgentStatus, "booting", "awake_idle", "awake_running", "awaiting_task",
		"asleep", "paused", "stopped", "suspended_awaiting_input", "archived"),
	caseOf("AgentKind", messages.ParseAgentKind, "default", "named", "child"),
	caseOf("Visibility", messages.ParseVisibility, "public", "private"),
	caseOf("Ownership", messages.ParseOwnership, "self_owned", "parent_supervised"),
	caseOf("BriefKind", messages.ParseBriefKind, "ack", "result", "failure", "action_required"),
	caseOf("ClosureOutcome", messages.ParseClosureOutcome, "completed", "continuable", "failed", "waiting"),
	caseOf("WaitingReason", messages.ParseWaitingReason, "awaiting_operator_input", "awaiting_external_change",
		"awaiting_task_result", "awaiting_timer"),
	caseOf("TurnTerminalKind", messages.ParseTurnTerminalKind, "completed", "aborted", "interrupted"),
	caseOf("FailureCategory", messages.ParseFailureCategory, "transport", "protocol", "runtime", "task", "unknown"),
	caseOf("ToolStatus", messages.ParseToolStatus, "ok", "error", "interrupted"),
	caseOf("WorkItemState", messages.ParseWorkItemState, "open", "completed"),
	caseOf("PlanStatus", messages.ParsePlanStatus, "draft", "ready", "needs_input"),
	caseOf("TodoState", messages.ParseTodoState, "pending", "in_progress", "completed"),
	caseOf("TimerPurpose", messages.ParseTimerPurpose, "work_item_recheck", "work_item_backoff"),
	caseOf("MissedPolicy", messages.ParseMissedPolicy, "skip", "run_once", "run_all"),
	caseOf("OverlapPolicy", messages.ParseOverlapPolicy, "queue", "skip"),
}

func TestEnumValues(t *testing.T) {
	for _, tc := range enumCases {
		t.Run(tc.typ, func(t *testing.T) {
			if got := messages.EnumValues[tc.typ]; !slices.Equal(got, tc.want) {
				t.Errorf("values = %q, want %q", got, tc.want)
			}
			for _, s := range tc.want {
				str, valid, perr, jerr := tc.roundTrip(s)
				if perr != nil || jerr != nil || str != s || !valid {
					t.Errorf("Parse(%q) = %q valid=%v err=%v, JSON err=%v", s, str, valid, perr, jerr)
				}
			}
		})
	}
	if len(enumCases) != len(messages.EnumValues) {
		t.Errorf("enumCases covers %d enums, the package has %d", len(enumCases), len(messages.EnumValues))
	}
}

func TestEnumRejectsUnknown(t *testing.T) {
	for _, tc := range enumCases {
		for _, bad := range []string{"", "bogus", strings.ToUpper(tc.want[0]), " " + tc.want[0]} {
			_, valid, perr, jerr := tc.roundTrip(bad)
			if valid {
				t.Errorf("%s(%q).Valid() = true", tc.typ, bad)
			}
			for _, err := range []error{perr, jerr} {
				if !errors.Is(err, messages.ErrUnknownValue) {
					t.Errorf("%s: parsing %q = %v, want ErrUnknownValue", tc.typ, bad, err)
					continue
				}
				msg := err.Error()
				if !strings.Contains(msg, mustQuote(bad)) || !strings.Contains(msg, strings.Join(tc.want, ", ")) {
					t.Errorf("%s: error %q should name %q and the allowed set", tc.typ, msg, bad)
				}
			}
		}
	}
}

func mustQuote(s string) string { return string(mustMarshalString(s)) }

func TestEnumRejectsNonStringJSON(t *testing.T) {
	var k messages.MessageKind
	if err := json.Unmarshal([]byte(`12`), &k); err == nil {
		t.Errorf("Unmarshal(12) into MessageKind = nil error, got %q", k)
	}
}
