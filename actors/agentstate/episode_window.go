package agentstate

import (
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// EpisodeRef is what the state keeps of a finalized episode while its
// messages are in the conversation: enough for compaction's digest to
// name it, so what leaves the window can be found again (the episode's
// full record is in the memory index and the episode ledger).
type EpisodeRef struct {
	ID           string `json:"id"`
	FirstTurn    uint64 `json:"first_turn"`
	LastTurn     uint64 `json:"last_turn"`
	FirstMessage uint64 `json:"first_message"`
	LastMessage  uint64 `json:"last_message"`
	Summary      string `json:"summary,omitempty"` // bounded to episodeRefSummary runes
}

// Bounds of the window's episode references.
const (
	windowEpisodesLimit = 32  // the newest are kept
	episodeRefSummary   = 160 // runes of each summary
)

// rememberWindowEpisode keeps a reference to ep, the newest
// windowEpisodesLimit at most.
func (s *State) rememberWindowEpisode(ep messages.Episode) {
	ref := EpisodeRef{ID: ep.ID, FirstTurn: ep.FirstTurn, LastTurn: ep.LastTurn,
		FirstMessage: ep.FirstMessage, LastMessage: ep.LastMessage, Summary: firstLine(ep.Summary, episodeRefSummary)}
	l := append(s.Memory.WindowEpisodes, ref)
	if n := len(l); n > windowEpisodesLimit {
		l = append([]EpisodeRef(nil), l[n-windowEpisodesLimit:]...)
	}
	s.Memory.WindowEpisodes = l
}

// forgetCompactedEpisodes drops the references to episodes whose
// messages have all been compacted away.
func (s *State) forgetCompactedEpisodes() {
	var kept []EpisodeRef
	for _, e := range s.Memory.WindowEpisodes {
		if e.LastMessage > s.CompactedItems {
			kept = append(kept, e)
		}
	}
	s.Memory.WindowEpisodes = kept
}

// episodeDigest names the episodes covering the messages a compaction
// that drops the first cut items of the conversation removes, for its
// digest; "" when none does. An episode covers the messages
// FirstMessage to LastMessage-1 of the whole conversation, compacted ones
// included; the cut ones are CompactedItems to CompactedItems+cut-1.
func (s *State) episodeDigest(cut int) string {
	from, to := s.CompactedItems, s.CompactedItems+uint64(cut)
	var b strings.Builder
	for _, e := range s.Memory.WindowEpisodes {
		if e.LastMessage <= from || e.FirstMessage >= to {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("- episodes covering them (their full records stay in memory):\n")
		}
		fmt.Fprintf(&b, "  episode %s, turns %d–%d: %s\n", e.ID, e.FirstTurn, e.LastTurn, e.Summary)
	}
	return strings.TrimRight(b.String(), "\n")
}

// digestWithEpisodes is a compaction's digest of items followed by the
// episodes covering them.
func digestWithEpisodes(items, episodes string) string {
	if episodes == "" {
		return items
	}
	return items + "\n" + episodes
}
