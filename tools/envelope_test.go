package tools_test

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
)

var update = flag.Bool("update", false, "rewrite the golden receipts in testdata")

// golden compares got with testdata/receipts/name.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	testkit.CheckFile(t, filepath.Join("testdata", "receipts", name+".txt"), []byte(got), *update)
}

func TestGoldenReceipts(t *testing.T) {
	bigDetails := map[string]string{"field": "cmd", "blob": strings.Repeat("0123456789", 400)}
	cases := []struct {
		name string
		res  tools.Result
	}{
		{"confirmation", tools.Success("NotifyOperator", "operator notified: build is green", map[string]string{"notification_id": "n_1"})},
		{"json_result", tools.Build(tools.SuccessEnvelope("AgentGet", "agent main is awake",
			map[string]any{"agent_id": "main", "profile": `{"preset":"developer","tools":["ExecCommand"]}`, "lineage": []string{}}), tools.JSONResult(4000))},
		{"error", tools.Failure("ExecCommand", messages.ToolError, tools.ToolError{
			Kind: tools.KindExecutionRootViolation, Message: "requested working directory is outside the current execution root",
			Details: json.RawMessage(`{"field":"workdir","workdir":"../other-repo"}`), RecoveryHint: "omit workdir or use a relative path inside the active workspace",
		})},
		{"error_large_details", tools.Failure("ExecCommand", messages.ToolError, tools.ToolError{
			Kind: "spawn_failed", Message: "the command could not start", Details: mustMarshal(t, bigDetails), Retryable: true,
		})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden(t, c.name, c.res.Receipt)
			if !json.Valid(c.res.Envelope) {
				t.Fatalf("envelope is not JSON: %s", c.res.Envelope)
			}
		})
	}
}

func mustMarshal(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestErrorReceiptIsBoundedJSON(t *testing.T) {
	res := tools.Failure("X", messages.ToolError, tools.ToolError{Kind: "k", Message: "m",
		Details: mustMarshal(t, map[string]string{"field": "a.b", "blob": strings.Repeat("x", 100000)})})
	var r map[string]any
	if err := json.Unmarshal([]byte(res.Receipt), &r); err != nil {
		t.Fatalf("receipt is not JSON: %v", err)
	}
	if r["ok"] != false || r["field"] != "a.b" || r["kind"] != "k" || len(res.Receipt) > 4000 {
		t.Fatalf("receipt = %.300s (len %d)", res.Receipt, len(res.Receipt))
	}
	if d := r["details"].(map[string]any); d["sha256"] == nil {
		t.Errorf("large details were not replaced by a digest: %v", d)
	}
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil || len(env.Error.Details) < 100000 {
		t.Errorf("the canonical envelope lost its details")
	}
}

func TestBuildRejectsMixedEnvelope(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Build accepted a success with an error")
		}
	}()
	tools.Build(tools.Envelope{ToolName: "X", Status: tools.StatusSuccess, Error: &tools.ToolError{}}, tools.Confirmation)
}

func TestReceiptStableWhenRerendered(t *testing.T) {
	res := tools.Build(tools.SuccessEnvelope("AgentGet", "s", map[string]string{"blob": numbered(5000)}), tools.JSONResult(2000))
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	if again := tools.JSONResult(2000).Render(env); again != res.Receipt {
		t.Error("rendering the journalled envelope again gave another receipt")
	}
}

func TestPrettyJSONNeverDoubleEscapes(t *testing.T) {
	got := tools.PrettyJSON([]byte(`{"out":"{\"a\":\"<b>\"}","n":1.50}`))
	if strings.Contains(got, `\"`) || !strings.Contains(got, `"a": "<b>"`) || !strings.Contains(got, "1.50") {
		t.Errorf("PrettyJSON = %s", got)
	}
	if got := tools.ReadableOutput(`{"a":[1,2]}` + "\n"); got != "{\n  \"a\": [\n    1,\n    2\n  ]\n}" {
		t.Errorf("ReadableOutput = %q", got)
	}
	if got := tools.ReadableOutput("plain {text}"); got != "plain {text}" {
		t.Errorf("ReadableOutput changed text: %q", got)
	}
}
