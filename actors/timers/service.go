package timers

import (
	"container/heap"
	"slices"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"
)

// Fire is one firing of a timer. FireID is deterministic — TimerID +
// "@" + DueAt in Unix nanoseconds (see FireID) — so a fire delivered
// twice (e.g. before and after a restart) is recognisable and applied once
// by the agent.
type Fire struct {
	AgentID, TimerID, FireID string
	DueAt                    time.Time
}

// FireID returns the FireID of the fire of timerID due at dueAt.
func FireID(timerID string, dueAt time.Time) string {
	return timerID + "@" + strconv.FormatInt(dueAt.UnixNano(), 10)
}

// Schedule arms (or re-arms, replacing) timer (AgentID, TimerID) to
// fire at DueAt. A DueAt in the past fires at once. The service keeps DueAt
// in UTC without its monotonic reading: due times are wall-clock instants,
// as they are in the journal.
type Schedule struct {
	AgentID, TimerID string
	DueAt            time.Time
}

// Cancel disarms timer (AgentID, TimerID); unknown timers are ignored.
type Cancel struct {
	AgentID, TimerID string
}

// CancelAgent disarms every timer of an agent (stop, quarantine).
type CancelAgent struct {
	AgentID string
}

// Pending asks for the armed timers, for inspection and tests. The
// reply is []Schedule sorted by DueAt, then AgentID, then TimerID.
type Pending struct{}

// timersDue is sent by the armed AfterFunc. gen is the generation it was
// armed with: a timersDue of an older generation comes from a timer that
// was re-armed or stopped since, and is dropped.
type timersDue struct {
	gen uint64
}

// ServiceProps returns the Props of the timer service: one actor for
// the whole runtime holding a min-heap of due times on clock, with exactly
// one clock.AfterFunc armed for the earliest due time. fire is called for
// each due timer, in due order (ties by AgentID, then TimerID), on the
// actor's goroutine; it must not block (the runtime sends a message).
//
// The service accepts its messages by value or by pointer. Spawn the Props
// once: the actor keeps its timers across a supervisor restart (a panic in
// fire loses only that fire), so every incarnation is the same instance.
// When the actor stops, its AfterFunc is stopped and no goroutine of it
// remains.
//
// The timer service is not durable: its heap lives in memory only. Agents
// journal timer_scheduled and timer_fired and re-arm their pending timers
// on activation; a timer that came due while the runtime was down is
// re-armed in the past and fires at once. While the runtime runs, the
// service keeps the timers of agents whose actors were retired after
// passivation: their fires go to the agents supervisor, which activates
// the agent to apply them. A fire can therefore be
// delivered twice (once before a crash, once after); its FireID makes the
// second one harmless.
func ServiceProps(clock clockwork.Clock, fire func(Fire)) *actor.Props {
	s := &timerService{clock: clock, fire: fire, index: make(map[timerKey]*timerEntry)}
	return actor.PropsFromProducer(func() actor.Actor { return s })
}

// timerKey names a timer: timer ids are unique per agent.
type timerKey struct {
	agent, timer string
}

// timerEntry is one armed timer; index is its position in the heap.
type timerEntry struct {
	key   timerKey
	due   time.Time
	index int
}

// before orders timers by due time, then agent, then timer id.
func (e *timerEntry) before(o *timerEntry) bool {
	if !e.due.Equal(o.due) {
		return e.due.Before(o.due)
	}
	if e.key.agent != o.key.agent {
		return e.key.agent < o.key.agent
	}
	return e.key.timer < o.key.timer
}

// timerHeap is a container/heap of entries, earliest first, that keeps
// each entry's index up to date so heap.Fix and heap.Remove can find it.
type timerHeap []*timerEntry

func (h timerHeap) Len() int           { return len(h) }
func (h timerHeap) Less(i, j int) bool { return h[i].before(h[j]) }
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *timerHeap) Push(x any) {
	e := x.(*timerEntry)
	e.index = len(*h)
	*h = append(*h, e)
}

func (h *timerHeap) Pop() any {
	old := *h
	n := len(old) - 1
	e := old[n]
	old[n] = nil // free the entry for the collector
	*h = old[:n]
	return e
}

// timerService is the timer service actor. Its state is touched only in
// Receive; the AfterFunc callback only sends timersDue.
type timerService struct {
	clock clockwork.Clock
	fire  func(Fire)

	heap  timerHeap
	index map[timerKey]*timerEntry

	// timer is the armed AfterFunc, due at armedAt, or nil. gen counts
	// arms and disarms; the callback carries the gen it was armed with.
	timer   clockwork.Timer
	armedAt time.Time
	gen     uint64
}

// Receive dispatches one message.
func (s *timerService) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		s.settle(c) // after a restart: fire what came due, re-arm
	case Schedule:
		s.schedule(c, m)
	case *Schedule:
		s.schedule(c, *m)
	case Cancel:
		s.cancel(c, m)
	case *Cancel:
		s.cancel(c, *m)
	case CancelAgent:
		s.cancelAgent(c, m.AgentID)
	case *CancelAgent:
		s.cancelAgent(c, m.AgentID)
	case Pending, *Pending:
		c.Respond(s.pending())
	case *timersDue:
		s.due(c, m)
	case *actor.Restarting, *actor.Stopping:
		s.disarm()
	}
}

// schedule arms a timer or moves an armed one to its new due time.
func (s *timerService) schedule(c actor.Context, m Schedule) {
	k := timerKey{agent: m.AgentID, timer: m.TimerID}
	due := m.DueAt.UTC()
	if e, ok := s.index[k]; ok {
		e.due = due
		heap.Fix(&s.heap, e.index)
	} else {
		e := &timerEntry{key: k, due: due}
		heap.Push(&s.heap, e)
		s.index[k] = e
	}
	s.settle(c)
}

// cancel disarms one timer, if armed.
func (s *timerService) cancel(c actor.Context, m Cancel) {
	e, ok := s.index[timerKey{agent: m.AgentID, timer: m.TimerID}]
	if !ok {
		return
	}
	heap.Remove(&s.heap, e.index)
	delete(s.index, e.key)
	s.settle(c)
}

// cancelAgent disarms every timer of agent in one pass over the heap.
func (s *timerService) cancelAgent(c actor.Context, agent string) {
	kept := s.heap[:0]
	for _, e := range s.heap {
		if e.key.agent == agent {
			delete(s.index, e.key)
			continue
		}
		e.index = len(kept)
		kept = append(kept, e)
	}
	if len(kept) == len(s.heap) {
		return
	}
	clear(s.heap[len(kept):])
	s.heap = kept
	heap.Init(&s.heap)
	s.settle(c)
}

// due handles the armed AfterFunc's callback; stale ones are dropped.
func (s *timerService) due(c actor.Context, m *timersDue) {
	if m.gen != s.gen {
		return
	}
	s.timer = nil // it has fired
	s.settle(c)
}

// settle fires every timer due by now, in due order, then re-arms for the
// earliest one left. Each entry is removed before fire runs, so a panic in
// fire loses only that fire.
func (s *timerService) settle(c actor.Context) {
	now := s.clock.Now()
	for len(s.heap) > 0 && !s.heap[0].due.After(now) {
		e := heap.Pop(&s.heap).(*timerEntry)
		delete(s.index, e.key)
		s.fire(Fire{AgentID: e.key.agent, TimerID: e.key.timer, FireID: FireID(e.key.timer, e.due), DueAt: e.due})
	}
	s.shrink()
	s.arm(c, now)
}

// arm makes sure exactly one AfterFunc is armed, for the earliest due
// time, or none when no timer is armed. Every timer due by now has fired,
// so the delay is positive.
func (s *timerService) arm(c actor.Context, now time.Time) {
	if len(s.heap) == 0 {
		s.disarm()
		return
	}
	next := s.heap[0].due
	if s.timer != nil && s.armedAt.Equal(next) {
		return
	}
	s.disarm()
	gen, self, root := s.gen, c.Self(), c.ActorSystem().Root
	s.timer, s.armedAt = s.clock.AfterFunc(next.Sub(now), func() {
		root.Send(self, &timersDue{gen: gen})
	}), next
}

// disarm stops the armed AfterFunc, if any, and makes any callback already
// on its way stale.
func (s *timerService) disarm() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.gen++
}

// shrink gives memory back after many timers went away: the heap's array
// and the index map never shrink by themselves. It copies at most once per
// halving, so its cost is amortised over the removals.
func (s *timerService) shrink() {
	const minCap = 64
	if cap(s.heap) <= minCap || len(s.heap) > cap(s.heap)/4 {
		return
	}
	s.heap = slices.Clone(s.heap)
	s.index = make(map[timerKey]*timerEntry, len(s.heap))
	for _, e := range s.heap {
		s.index[e.key] = e
	}
}

// pending returns the armed timers sorted by due time, agent, timer id.
func (s *timerService) pending() []Schedule {
	es := slices.Clone(s.heap)
	slices.SortFunc(es, func(a, b *timerEntry) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
	out := make([]Schedule, len(es))
	for i, e := range es {
		out[i] = Schedule{AgentID: e.key.agent, TimerID: e.key.timer, DueAt: e.due}
	}
	return out
}
