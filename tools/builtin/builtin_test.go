package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/builtin"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// TestSchemas checks every built-in tool's published schema: valid JSON
// Schema, an object that refuses unknown properties at every level.
func TestSchemas(t *testing.T) {
	ts := builtin.Tools(builtin.Config{})
	r, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"AgentGet", "ApplyPatch", "ExecCommand", "ExecCommandBatch", "TaskInput", "TaskList", "TaskOutput", "TaskStatus", "TaskStop"}
	if got := r.Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("names = %v", got)
	}
	for _, spec := range r.Specs() {
		var s jsonschema.Schema
		if err := json.Unmarshal(spec.Parameters, &s); err != nil {
			t.Errorf("%s: %v", spec.Name, err)
			continue
		}
		if _, err := s.Resolve(nil); err != nil {
			t.Errorf("%s: schema does not resolve: %v", spec.Name, err)
		}
		if spec.Description == "" {
			t.Errorf("%s has no description", spec.Name)
		}
		checkObjects(t, spec.Name, &s)
	}
}

func checkObjects(t *testing.T, name string, s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Type == "object" && (s.AdditionalProperties == nil || s.AdditionalProperties.Not == nil) {
		t.Errorf("%s: an object schema allows additional properties", name)
	}
	for _, p := range s.Properties {
		checkObjects(t, name, p)
	}
	checkObjects(t, name, s.Items)
}

// TestBindServesEveryAgent: tools built without runtime pieces work once
// a call's context carries them.
func TestBindServesEveryAgent(t *testing.T) {
	r, err := tools.NewRegistry(builtin.Tools(builtin.Config{})...)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "root"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, _ := tools.NewExecRoot(filepath.Join(base, "root"))
	arts, _ := tools.NewArtifactDir(filepath.Join(base, "artifacts"))
	host := task.NewMemHost(arts, 5*time.Second, nil)
	t.Cleanup(func() { _ = host.Close() })
	ctx := builtin.Bind(context.Background(), builtin.Binding{Exec: exec.Config{Root: root, Artifacts: arts, Tasks: host}, Tasks: host})

	run := func(name, args string) tools.Result {
		tool, _ := r.Lookup(name)
		return tool.Call(ctx, json.RawMessage(args))
	}
	if res := run("ApplyPatch", `{"patch":"--- /dev/null\n+++ b/hello.txt\n@@ -0,0 +1 @@\n+hi\n"}`); res.Status != messages.ToolOK {
		t.Fatalf("ApplyPatch = %s", res.Receipt)
	}
	if res := run("ExecCommand", `{"cmd":"cat hello.txt"}`); res.Status != messages.ToolOK || !strings.Contains(res.Receipt, "hi") {
		t.Fatalf("ExecCommand = %s", res.Receipt)
	}
	if res := run("TaskList", `{}`); res.Status != messages.ToolOK {
		t.Fatalf("TaskList = %s", res.Receipt)
	}
	if res := run("AgentGet", `{}`); res.Status != messages.ToolError {
		t.Fatalf("AgentGet without an inspector = %s", res.Receipt)
	}
}
