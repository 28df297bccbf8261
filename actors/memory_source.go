package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// memoryPage is how many events a rebuild reads at a time.
const memoryPage = 2048

// memorySource is everything agent id's memory index holds, for a
// rebuild: the records of its journal (briefs, episodes, each work item
// and delivery summary as last written) and its memory files. Walking the
// journal also rewrites the episode ledger, which is as derived as the
// index. A non-zero upTo stops the journal at that seq, for a caller that
// writes the records after it itself.
func memorySource(j persistence.Journal, id, home string, upTo *atomic.Uint64) memory.Source {
	journal := memory.SourceFunc(func(ctx context.Context, yield func(memory.Doc) error) error {
		latest := map[string]memory.Doc{} // work items and deliveries: the last version wins
		var order []string
		var eps []messages.Episode
		err := readJournal(ctx, j, id, upTo.Load(), func(ev messages.Event, p messages.Payload) error {
			if e, ok := p.(messages.EpisodeFinalized); ok {
				eps = append(eps, e.Episode)
			}
			for _, d := range memoryDocs(id, p, ev.At) {
				if d.Kind == memory.KindBrief || d.Kind == memory.KindEpisode {
					if err := yield(d); err != nil {
						return err
					}
					continue
				}
				k := string(d.Kind) + "/" + d.Key
				if _, seen := latest[k]; !seen {
					order = append(order, k)
				}
				latest[k] = d
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range order {
			if err := yield(latest[k]); err != nil {
				return err
			}
		}
		return rewriteLedger(home, eps)
	})
	return memory.Sources(journal, memory.FileSource(home, id))
}

// readJournal calls fn with each event of stream id whose payload may
// hold memory, in order, up to seq upTo (0: to the end).
func readJournal(ctx context.Context, j persistence.Journal, id string, upTo uint64, fn func(messages.Event, messages.Payload) error) error {
	high, err := j.HighestSeq(ctx, id)
	if err != nil {
		return fmt.Errorf("read journal of %s: %w", id, err)
	}
	if upTo > 0 {
		high = min(high, upTo)
	}
	for from := uint64(1); from <= high; {
		evs, err := j.Read(ctx, id, from, high, memoryPage)
		if err != nil {
			return fmt.Errorf("read journal of %s from %d: %w", id, from, err)
		}
		if len(evs) == 0 {
			return nil
		}
		for _, ev := range evs {
			switch ev.Type {
			case messages.EventBriefRecorded, messages.EventEpisodeFinalized, messages.EventWorkItemCreated,
				messages.EventWorkItemUpdated, messages.EventWorkItemCompleted:
			default:
				continue
			}
			p, err := ev.Decode()
			if err != nil {
				return fmt.Errorf("decode %s seq %d: %w", id, ev.Seq, err)
			}
			if err := fn(ev, p); err != nil {
				return err
			}
		}
		from = evs[len(evs)-1].Seq + 1
	}
	return nil
}

// rewriteLedger replaces the ledger of the agent in home with eps.
func rewriteLedger(home string, eps []messages.Episode) error {
	path := episodeLedgerPath(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("ledger dir: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".context_episodes-*")
	if err != nil {
		return fmt.Errorf("rewrite ledger: %w", err)
	}
	enc := json.NewEncoder(tmp)
	for _, e := range eps {
		if err := enc.Encode(e); err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
			return fmt.Errorf("rewrite ledger: %w", err)
		}
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("rewrite ledger: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}
