package actors_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/testkit"
)

// memoryHarness is a runtime with agent homes (so memory is indexed) and
// a small compaction window.
func memoryHarness(t *testing.T) *testkit.Harness {
	return testkit.NewWith(t, testkit.Options{Deps: func(home string, d *actors.AgentDeps) {
		d.ToolEnv = actors.ToolEnv{Home: home}
		d.Compaction = actors.Compaction{TriggerTokens: 600, KeepTokens: 200}
		d.QueueLimit = 3000
	}})
}

// TestMemoryLongLived: a fact an agent learned at turn 10 has left its
// conversation (compacted) long before turn 2,000, where its MemorySearch
// finds it with provenance; MemoryGet gives the exact brief back, and a
// forged source_ref is refused with a tool error. Every turn is admitted
// up front and played by the scripted model, so nothing waits on time.
func TestMemoryLongLived(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 turns")
	}
	const turns, factTurn = 2000, 10
	const fact = "The staging vault passphrase hint is blue heron 蓝色苍鹭."
	h := memoryHarness(t)
	for i := 1; i < turns; i++ {
		text := fmt.Sprintf("Noted item %d: routine check passed.", i)
		if i == factTurn {
			text = fact
		}
		h.Provider.Script(testkit.Reply(text))
	}
	h.Provider.Script(
		testkit.Reply("", testkit.Call("s1", runtimetools.MemorySearchToolName, `{"query": "vault passphrase hint"}`),
			testkit.Call("g1", runtimetools.MemoryGetToolName, `{"source_ref": "mref_forged_by_the_model"}`)),
		testkit.Reply("The hint is blue heron."),
	)
	for i := 1; i <= turns; i++ {
		h.Prompt("main", fmt.Sprintf("Check item %d.", i))
	}
	search := toolResult(t, h, "main", "s1")
	if search.Status != messages.ToolOK || !strings.Contains(search.Receipt, "blue heron 蓝色苍鹭") ||
		!strings.Contains(search.Receipt, "[brief]") || !strings.Contains(search.Receipt, "source_ref: ") {
		t.Fatalf("MemorySearch at turn %d = %s %q, want the brief of turn %d with its source_ref", turns, search.Status, search.Receipt, factTurn)
	}
	forged := toolResult(t, h, "main", "g1")
	if forged.Status == messages.ToolOK || !strings.Contains(string(forged.Envelope), `"kind":"invalid_source_ref"`) {
		t.Errorf("MemoryGet of a forged ref = %s %s, want an invalid_source_ref tool error", forged.Status, forged.Envelope)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, turns))

	reqs := h.Provider.Requests()
	last := reqs[len(reqs)-2] // the round that searched
	if seen := fmt.Sprint(last.Conversation); strings.Contains(seen, "blue heron") {
		t.Fatal("the fact is still in the conversation the model sees: nothing was compacted away")
	}
	st, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	if st.CompactedItems == 0 || st.Memory.Revision == 0 || st.Memory.ArchivedEpisodes < turns/runtimetoolsCap() {
		t.Errorf("compacted %d items, memory revision %d, %d episodes; want compaction, revisions and hard-cap episodes",
			st.CompactedItems, st.Memory.Revision, st.Memory.ArchivedEpisodes)
	}

	hits, err := h.Runtime.MemorySearch(context.Background(), "main", actors.MemoryRequest{Query: "蓝色苍鹭"})
	if err != nil || len(hits) == 0 {
		t.Fatalf("operator search for the Chinese words = %v, %v", hits, err)
	}
	var brief, episode bool
	for _, hit := range hits {
		brief = brief || hit.Kind == "brief"
		episode = episode || hit.Kind == "episode" && strings.Contains(hit.Title, "episode turns 1–")
		if hit.AgentID != "main" || hit.SourceRef == "" || hit.WorkspaceID != messages.AgentHomeWorkspace {
			t.Errorf("hit %+v lacks its provenance", hit)
		}
	}
	if !brief || !episode {
		t.Errorf("hits = %+v, want the brief and the episode holding turn %d", hits, factTurn)
	}
	for _, hit := range hits {
		if hit.Kind != "brief" {
			continue
		}
		got, err := h.Runtime.MemoryGet(context.Background(), "main", hit.SourceRef, 0)
		if err != nil || got.Content != fact || got.Truncated {
			t.Errorf("MemoryGet = %q, %v, %v; want the brief's exact text", got.Content, got.Truncated, err)
		}
	}
}

func runtimetoolsCap() uint64 { return 20 } // agentstate.EpisodeMaxTurns

// TestMemoryIndexRebuilt: the index and the episode ledger are derived:
// deleted while the runtime is down, both are rebuilt from the journal,
// and an edit of memory/self.md outside the runtime is found.
func TestMemoryIndexRebuilt(t *testing.T) {
	h := memoryHarness(t)
	h.Provider.Script(testkit.Reply("Deployed release 7 to the Lisbon cluster."))
	h.Prompt("main", "Deploy.")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 1))
	for i := 2; i <= 22; i++ { // past the hard cap: one episode
		h.Provider.Script(testkit.Reply("ok"))
		h.Prompt("main", "Next.")
	}
	h.WaitEvent("main", testkit.OfType(messages.EventEpisodeFinalized))
	if hits, err := h.Runtime.MemorySearch(context.Background(), "main", actors.MemoryRequest{Query: "Lisbon"}); err != nil || len(hits) < 2 {
		t.Fatalf("search = %+v, %v; want the brief and the episode", hits, err)
	}
	home, err := persistence.AgentHome(h.Home, "main")
	if err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(home, ".holon", "ledger", "context_episodes.jsonl")
	if b, err := os.ReadFile(ledger); err != nil || !strings.Contains(string(b), "Lisbon") {
		t.Fatalf("ledger = %q, %v; want the episode", b, err)
	}

	h.GracefulRestart()
	for _, p := range []string{filepath.Join(home, ".holon", "indexes"), ledger} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, "memory"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "memory", "self.md"), []byte("I prefer Lisbon for deploys.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hits, err := h.Runtime.MemorySearch(context.Background(), "main", actors.MemoryRequest{Query: "Lisbon"})
	kinds := map[string]bool{}
	for _, hit := range hits {
		kinds[string(hit.Kind)] = true
	}
	if err != nil || !kinds["brief"] || !kinds["episode"] || !kinds["self"] {
		t.Fatalf("search after the index was deleted = %+v, %v; want brief, episode and self rebuilt", hits, err)
	}
	if b, err := os.ReadFile(ledger); err != nil || !strings.Contains(string(b), "Lisbon") {
		t.Errorf("ledger after the rebuild = %q, %v", b, err)
	}
}

// TestMemoryReplayedExactly: after a crash, the agent's working memory,
// its pending delta and its episode builder are what they were, rebuilt
// from the journal.
func TestMemoryReplayedExactly(t *testing.T) {
	h := memoryHarness(t)
	for i := 1; i <= 3; i++ {
		h.Provider.Script(testkit.Reply("", testkit.Call(fmt.Sprintf("c%d", i), "echo", fmt.Sprintf(`{"text":"step %d"}`, i))),
			testkit.Reply(fmt.Sprintf("Step %d done.", i)))
		h.Prompt("main", fmt.Sprintf("Do step %d.", i))
		h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, i))
	}
	before, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	if before.Memory.Revision == 0 || before.Memory.Episode == nil || before.Memory.Episode.Turns != 3 {
		t.Fatalf("memory before the crash = %+v, want revisions and a 3-turn builder", before.Memory)
	}
	h.Restart()
	after, err := h.Runtime.State(context.Background(), "main")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after.Memory, before.Memory) {
		t.Errorf("memory after replay =\n%+v\nwant\n%+v", after.Memory, before.Memory)
	}
}
