package exec_test

import (
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// FuzzExecArgs decodes arbitrary arguments of ExecCommand and
// ExecCommandBatch: no panic, and nothing accepted that breaks the rules
// the tools rely on (a non-blank cmd, a known duplicate policy, no
// interactive batch items). Nothing is run.
func FuzzExecArgs(f *testing.F) {
	for _, s := range []string{`{"cmd":"ls"}`, `{"cmd":"x","tty":true,"yield_time_ms":5,"duplicate_policy":"start_new"}`,
		`{"items":[{"cmd":"a"},{"cmd":"b","tty":true}]}`, `{"cmd":""}`, `{"cmd":"x","duplicate_policy":"nope"}`, `{"cmd":1}`} {
		f.Add([]byte(s))
	}
	execSchema, err := tools.SchemaFor[exec.ExecArgs]()
	if err != nil {
		f.Fatal(err)
	}
	batchSchema, err := tools.SchemaFor[exec.BatchArgs]()
	if err != nil {
		f.Fatal(err)
	}
	er, err := execSchema.Resolve(nil)
	if err != nil {
		f.Fatal(err)
	}
	br, err := batchSchema.Resolve(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if a, fe := tools.DecodeArgs[exec.ExecArgs](er, data); fe == nil {
			if strings.TrimSpace(a.Cmd) == "" || a.YieldTimeMS < 0 || a.MaxOutputTokens < 0 || (a.DuplicatePolicy != "" && a.DuplicatePolicy != exec.ReuseRunning && a.DuplicatePolicy != exec.StartNew) {
				t.Errorf("accepted %q as %+v", data, a)
			}
		}
		if b, fe := tools.DecodeArgs[exec.BatchArgs](br, data); fe == nil {
			if len(b.Items) == 0 || len(b.Items) > exec.MaxBatchItems {
				t.Errorf("accepted %d items from %q", len(b.Items), data)
			}
			for _, it := range b.Items {
				if it.TTY || it.AcceptsInput {
					t.Errorf("accepted an interactive item from %q", data)
				}
			}
		}
	})
}
