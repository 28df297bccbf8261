package actors_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// A runtime with agent homes, NoMemoryIndex and MemoryToolsWithoutIndex
// offers the memory tools as one that keeps an index does, but keeps no
// index, no pending marker and no ledger, and a search says why it
// cannot run: the side of the memory bench whose only difference from an
// indexed runtime is the index's upkeep. Without MemoryToolsWithoutIndex
// the tools are not offered; without NoMemoryIndex the index is kept.
func TestMemoryToolsWithoutIndex(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		noIndex, toolsNoIndex bool
		wantOffered           bool
		wantIndex             bool
	}{
		{"index kept", false, false, true, true},
		{"homes, no index", true, false, false, false},
		{"tools offered, no index", true, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := testkit.NewWith(t, testkit.Options{
				Deps: func(home string, d *actors.AgentDeps) { d.ToolEnv = actors.ToolEnv{Home: home} },
				Runtime: func(o *actors.RuntimeOptions) {
					o.NoMemoryIndex, o.MemoryToolsWithoutIndex = tc.noIndex, tc.toolsNoIndex
				},
			})
			h.Provider.Script(testkit.Reply("First."), testkit.Reply("Second."))
			h.Prompt("main", "One.")
			h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))
			h.Prompt("main", "Two.")
			h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
			h.Runtime.FlushMemory(context.Background())

			reqs := h.Provider.Requests()
			var offered []string
			for _, s := range reqs[len(reqs)-1].Tools {
				offered = append(offered, s.Name)
			}
			for _, name := range []string{runtimetools.MemorySearchToolName, runtimetools.MemoryGetToolName} {
				if got := slices.Contains(offered, name); got != tc.wantOffered {
					t.Errorf("%s offered = %v, want %v (tools %v)", name, got, tc.wantOffered, offered)
				}
			}
			home, err := persistence.AgentHome(h.Home, "main")
			if err != nil {
				t.Fatal(err)
			}
			_, err = os.Stat(filepath.Join(home, ".holon", "indexes"))
			if got := err == nil; got != tc.wantIndex {
				t.Errorf("index directory kept = %v, want %v (stat: %v)", got, tc.wantIndex, err)
			}
			_, err = h.Runtime.MemorySearch(context.Background(), "main", actors.MemoryRequest{Query: "second"})
			if got := !errors.Is(err, actors.ErrMemoryUnavailable); got != tc.wantIndex {
				t.Errorf("search error %v: available = %v, want %v", err, got, tc.wantIndex)
			}
		})
	}
}
