package actors_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// The model is offered MemorySearch and MemoryGet, and its prompt points at
// MemorySearch, only when the runtime gives agents homes: without one
// there is no index for them to search.
func TestMemoryToolsOfferedOnlyWithHomes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		homes bool
	}{{"without agent homes", false}, {"with agent homes", true}} {
		t.Run(tc.name, func(t *testing.T) {
			h := testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
				if tc.homes {
					d.ToolEnv = actors.ToolEnv{Home: home}
				}
			}})
			h.Provider.Script(testkit.Reply("First."), testkit.Reply("Second."))
			h.Prompt("main", "One.")
			h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))
			h.Prompt("main", "Two.")
			h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
			reqs := h.Provider.Requests()
			last := reqs[len(reqs)-1]
			var offered []string
			for _, s := range last.Tools {
				offered = append(offered, s.Name)
			}
			for _, name := range []string{runtimetools.MemorySearchToolName, runtimetools.MemoryGetToolName} {
				if got := strings.Contains(strings.Join(offered, ","), name); got != tc.homes {
					t.Errorf("%s offered = %v, want %v (tools %v)", name, got, tc.homes, offered)
				}
			}
			frame, err := json.Marshal(last.Frame)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(frame), "Working memory (revision") {
				t.Fatalf("second turn's prompt has no working memory: %s", frame)
			}
			if got := strings.Contains(string(frame), runtimetools.MemorySearchToolName); got != tc.homes {
				t.Errorf("prompt mentions MemorySearch = %v, want %v: %s", got, tc.homes, frame)
			}
		})
	}
}
