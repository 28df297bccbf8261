package actors

import (
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Staged appends. The steps an agent takes in one go (advance, and the
// step result that led to it) often record several batches in a row with
// nothing run between them: a model round that asked for no tool, the
// turn's terminal and brief, the status change to idle. Each batch was its
// own durable append (a sync of the journal and of its integrity marks);
// now the batches a must-commit records while staging is on are encoded
// and applied at once, so Next decides on them as before, and written as
// ONE durable append when the agent is about to do anything else: before
// any step that runs something or waits (a model call, a tool, settling
// launches, idle), before any other write, and when the handler ends.
//
// What the durability contract asks still holds. Nothing is acknowledged
// from a staged batch; its effects (timers, notifications, usage reports,
// memory records, snapshots) run only after the one append is durable, in
// the order the batches were recorded. A tool's tool_call_started is
// never staged with what came before it: the batches before it are made
// durable first, then it alone, then the tool runs, so a crash finds the
// same step boundaries as before (TestCrashAtEveryStepBoundary). A failed
// append panics as a must-commit always did, and the supervisor restarts
// the agent from its journal, which drops the state applied ahead.

// stagedGroup is one batch applied ahead of its append.
type stagedGroup struct {
	payloads []messages.Payload // for effects
	decoded  []messages.Payload // for the memory service
	now      time.Time
	from     int // index of its first event in stagedAppend.evs
}

// stagedAppend is what an agent has applied but not yet journaled.
type stagedAppend struct {
	depth  int    // nested staging scopes open; staging is on while > 0
	after  uint64 // the fence: the last seq durable before the first staged event
	evs    []messages.Event
	groups []stagedGroup
}

// beginStaging opens a staging scope; endStaging closes it, making what
// was staged durable when it was the outermost one.
func (a *agent) beginStaging() { a.stage.depth++ }

func (a *agent) endStaging() {
	a.stage.depth--
	if a.stage.depth == 0 {
		a.flushStaged()
	}
}

// staging reports whether must-commits are staged rather than written.
func (a *agent) staging() bool { return a.stage.depth > 0 && a.fenced == nil }

// stageBatch encodes payloads, applies them to the state at the seqs they
// will take and keeps them for flushStaged. It panics as mustPersist does
// when an event cannot be made.
func (a *agent) stageBatch(payloads []messages.Payload) {
	now := a.deps.Clock.Now()
	payloads = a.observe(now, payloads)
	if len(a.stage.evs) == 0 {
		a.stage.after = a.state.LastSeq
	}
	evs, decoded, err := a.events(now, payloads) // kept only whole: a panic below leaves no part of this batch staged
	if err != nil {
		panic(fmt.Errorf("agent %s: %w", a.id, err))
	}
	for i := range evs {
		evs[i].Seq = a.state.LastSeq + 1
		if err := a.state.ApplyDecoded(evs[i], decoded[i]); err != nil {
			panic(err) // an event we make must apply: programmer error
		}
	}
	a.stage.groups = append(a.stage.groups, stagedGroup{payloads: payloads, decoded: decoded, now: now, from: len(a.stage.evs)})
	a.stage.evs = append(a.stage.evs, evs...)
}

// flushStaged writes what is staged as one durable append, then does what
// each staged batch asks of the world, in order. A failure panics: the
// state holds events the journal does not (mustPersist).
func (a *agent) flushStaged() {
	if len(a.stage.evs) == 0 {
		return
	}
	evs, groups, after := a.stage.evs, a.stage.groups, a.stage.after
	a.stage.evs, a.stage.groups = nil, nil
	t0 := time.Now()
	first, err := a.appendAfter(after, evs)
	if err == nil && first != after+1 {
		err = fmt.Errorf("staged events written at seq %d, applied from %d", first, after+1)
	}
	if err != nil {
		panic(fmt.Errorf("agent %s: journal write: %w", a.id, a.appendFailed(err)))
	}
	a.appended(time.Since(t0), evs)
	a.journaled(evs)
	for _, g := range groups {
		a.effects(g.payloads)
		a.wire.memory.write(a.id, g.decoded, g.now, first+uint64(g.from))
	}
}
