package agentstate

import (
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Compaction's digest names the finalized episodes covering the messages
// it removes (id, turns, summary), so what leaves the window is findable;
// episodes wholly compacted away are then forgotten by the state.
func TestCompactionNamesTheEpisodesItRemoves(t *testing.T) {
	s := &State{ID: "a1", Conversation: conversationOf(6, 400)} // 6 exchanges of 4 items: messages 0–23
	for i, ep := range []messages.Episode{
		{ID: "ep_ab", FirstTurn: 1, LastTurn: 2, FirstMessage: 0, LastMessage: 8, Summary: "Built the parser.\nDetails follow."},
		{ID: "ep_cd", FirstTurn: 3, LastTurn: 4, FirstMessage: 8, LastMessage: 16, Summary: "Fixed the lexer."},
		{ID: "ep_ef", FirstTurn: 5, LastTurn: 6, FirstMessage: 16, LastMessage: 24, Summary: "Wrote the docs."},
	} {
		ev, err := messages.NewEvent("a1", time.Date(2026, 11, 24, 12, 0, i, 0, time.UTC), messages.EpisodeFinalized{Episode: ep})
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq = uint64(i + 1)
		if err := s.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Compaction{TriggerTokens: 800, KeepTokens: 400}
	cc, ok := s.Compaction(cfg)
	if !ok {
		t.Fatal("no compaction")
	}
	if cc.DroppedItems <= 8 || cc.DroppedItems >= 16 {
		t.Fatalf("the case needs a cut inside ep_cd's messages, got %d items dropped", cc.DroppedItems)
	}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"\n- episodes covering them (their full records stay in memory):\n", true},
		{"\n  episode ep_ab, turns 1–2: Built the parser.\n", true},
		{"\n  episode ep_cd, turns 3–4: Fixed the lexer.", true},
		{"ep_ef", false},
		{"Details follow.", false}, // a summary's first line only
	} {
		if got := strings.Contains(cc.Summary, tc.line); got != tc.want {
			t.Errorf("digest has %q = %v, want %v:\n%s", tc.line, got, tc.want, cc.Summary)
		}
	}

	s.applyCompaction(cc)
	var left []string
	for _, e := range s.Memory.WindowEpisodes {
		left = append(left, e.ID)
	}
	if strings.Join(left, ",") != "ep_cd,ep_ef" {
		t.Errorf("episodes kept after compaction = %v, want ep_cd (partly in the window) and ep_ef", left)
	}

	// Compacting the rest names ep_ef (and ep_cd again, whose last messages go now).
	s.Conversation = append(s.Conversation, conversationOf(6, 400)...)
	cc2, ok := s.Compaction(cfg)
	if !ok || !strings.Contains(cc2.Summary, "  episode ep_ef, turns 5–6: Wrote the docs.") {
		t.Fatalf("second compaction = %v:\n%s", ok, cc2.Summary)
	}
}

// The state keeps references to the newest windowEpisodesLimit episodes
// at most.
func TestWindowEpisodesBounded(t *testing.T) {
	s := &State{}
	for i := range windowEpisodesLimit + 5 {
		s.rememberWindowEpisode(messages.Episode{ID: string(rune('A' + i)), Summary: strings.Repeat("s", 500)})
	}
	w := s.Memory.WindowEpisodes
	if len(w) != windowEpisodesLimit || w[0].ID != string(rune('A'+5)) || len([]rune(w[0].Summary)) > episodeRefSummary+1 {
		t.Errorf("%d references, first %s with a %d-rune summary; want the newest %d, summaries bounded", len(w), w[0].ID, len([]rune(w[0].Summary)), windowEpisodesLimit)
	}
}
