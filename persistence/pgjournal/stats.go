package pgjournal

import "sync/atomic"

// Stats counts the store's commits since Open: how well group commit packs
// appends into transactions.
type Stats struct {
	// Appends is the number of Append and AppendAfter calls written.
	Appends uint64
	// Commits is the number of transactions that carried them.
	Commits uint64
}

type stats struct {
	appends, commits atomic.Uint64
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	return Stats{Appends: s.stats.appends.Load(), Commits: s.stats.commits.Load()}
}
