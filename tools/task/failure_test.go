package task_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/task"
)

func TestWriteFailureReplaces(t *testing.T) {
	arts, err := tools.NewArtifactDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, reason := range []string{"first", "the runtime restarted while the command ran; its process was gone"} {
		ref, err := task.WriteFailure(arts, task.Failure{TaskID: "task_1", Status: task.StatusInterrupted, Reason: reason, Pgid: 42, At: at})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(ref.Path)
		if err != nil {
			t.Fatal(err)
		}
		var f task.Failure
		if err := json.Unmarshal(b, &f); err != nil || f.Reason != reason || f.Status != "interrupted" || !f.At.Equal(at) {
			t.Fatalf("artifact = %s, %v", b, err)
		}
	}
}

// TestWriteFailureRedacts: the failure artifact goes through the artifact
// directory's redactor, so a credential in the command or the detail is
// not written.
func TestWriteFailureRedacts(t *testing.T) {
	const canary = "sk-failure-canary-0123456789"
	arts, err := tools.NewArtifactDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	arts = arts.WithRedact(func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(canary), []byte("[redacted]")) })
	ref, err := task.WriteFailure(arts, task.Failure{TaskID: "task_1", Status: task.StatusFailed, Reason: "exit 1",
		Cmd: "curl -H 'x-api-key: " + canary + "' https://example.com", Detail: "echoed " + canary})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(ref.Path)
	if err != nil {
		t.Fatal(err)
	}
	var f task.Failure
	if err := json.Unmarshal(b, &f); err != nil || bytes.Contains(b, []byte(canary)) ||
		f.Cmd != "curl -H 'x-api-key: [redacted]' https://example.com" || f.Detail != "echoed [redacted]" {
		t.Fatalf("artifact = %s (%v)", b, err)
	}
}
