package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/messages"
)

// Len is the number of queued envelopes.
func (q *Queue) Len() int {
	n := 0
	for _, b := range q.Bands {
		n += len(b)
	}
	return n
}

// Push appends env to its priority's band.
func (q *Queue) Push(env messages.MessageEnvelope) {
	r := env.Priority.Rank()
	q.Bands[r] = append(q.Bands[r], env)
}

// Next returns the first envelope of the most urgent non-empty band.
func (q *Queue) Next() (messages.MessageEnvelope, bool) {
	for _, b := range q.Bands {
		if len(b) > 0 {
			return b[0], true
		}
	}
	return messages.MessageEnvelope{}, false
}

// Remove deletes the envelope with id, wherever it is.
func (q *Queue) Remove(id string) (messages.MessageEnvelope, bool) {
	for r, b := range q.Bands {
		if i := slices.IndexFunc(b, func(e messages.MessageEnvelope) bool { return e.ID == id }); i >= 0 {
			env := b[i]
			q.Bands[r] = slices.Delete(b, i, i+1)
			if len(q.Bands[r]) == 0 {
				q.Bands[r] = nil // release the backing array of a drained band
			}
			return env, true
		}
	}
	return messages.MessageEnvelope{}, false
}

// recentLimit bounds the admission dedupe window.
const recentLimit = 256

// rememberAdmitted keeps id and its admission's seq among the recent ones.
func (s *State) rememberAdmitted(id string, seq uint64) {
	s.Recent = append(s.Recent, id)
	s.RecentSeqs = append(s.RecentSeqs, seq)
	if len(s.Recent) > recentLimit {
		s.Recent = slices.Clone(s.Recent[len(s.Recent)-recentLimit:])
	}
	if len(s.RecentSeqs) > recentLimit {
		s.RecentSeqs = slices.Clone(s.RecentSeqs[len(s.RecentSeqs)-recentLimit:])
	}
}

// AdmittedSeq is the event_seq of the admission of the recent message id;
// ok is false when id is not recent. A message remembered by a snapshot
// older than RecentSeqs answers the last seq, as before the field.
func (s *State) AdmittedSeq(id string) (seq uint64, ok bool) {
	i := slices.Index(s.Recent, id)
	if i < 0 {
		return 0, false
	}
	if j := i - (len(s.Recent) - len(s.RecentSeqs)); j >= 0 {
		return s.RecentSeqs[j], true
	}
	return s.LastSeq, true
}
