package tasks_test

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are the packages of this module tasks must not import: it
// reaches the runtime and the agents only through Asker, journals nothing
// itself, and calls no model. A trailing /... forbids the packages under
// it too (actors' own pure packages, agentstate and runtimetools, are
// allowed).
var forbidden = []string{
	"github.com/holon-actors/holon-actors/actors",
	"github.com/holon-actors/holon-actors/persistence/...",
	"github.com/holon-actors/holon-actors/providers/...",
	"github.com/holon-actors/holon-actors/node/...",
	"github.com/holon-actors/holon-actors/control/...",
	"github.com/holon-actors/holon-actors/testkit/...",
	"github.com/holon-actors/holon-actors/cmd/...",
}

// TestImportBoundary: tasks imports none of forbidden.
func TestImportBoundary(t *testing.T) {
	const self = "github.com/holon-actors/holon-actors/actors/tasks"
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, imp := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			tree, ok := strings.CutSuffix(f, "/...")
			if imp == tree || ok && strings.HasPrefix(imp, tree+"/") {
				t.Errorf("tasks imports %s; reach the runtime through Asker instead", imp)
			}
		}
	}
}
