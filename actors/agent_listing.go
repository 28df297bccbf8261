package actors

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Listing from stream heads. On a store that lists every stream's head in
// one read (persistence.HeadLister: Badger), List reads the journal's
// highest seqs and the agents' stream headers in two key-range scans and
// the quarantines once, instead of three lookups and a snapshot load per
// agent (1,000 agents over 1 GB of journal took 1.2 s a list). A running
// agent is described by the info it last published (info_view.go), a
// dormant one by its header, and a listing never activates or replays a
// dormant agent: one whose header is not at its journal's highest seq (a
// journal written behind the runtime's back, a header write lost while the
// node ran; boot recovery replays every agent whose header is not current,
// and an agent publishes its header when it settles) is described by its
// current snapshot, else by the last header or snapshot it has, whose
// LastSeq says how far behind that description is.

// listFromHeads is List over a HeadLister; ok is false when the store
// lists no heads (List then reads agent by agent).
func (r *Runtime) listFromHeads(ctx context.Context) (out []agentstate.AgentInfo, ok bool, err error) {
	hl, can := r.deps.Store.(persistence.HeadLister)
	if !can {
		return nil, false, nil
	}
	heads, err := hl.StreamHeads(ctx)
	if errors.Is(err, persistence.ErrNoHeadLister) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("list agents: %w", err)
	}
	quarantined := map[string]persistence.Quarantine{}
	for _, q := range r.deps.Store.Health().Quarantined {
		quarantined[q.Stream] = q
	}
	prev, next := r.headers.current(), make(map[string]decodedHeader, len(heads))
	defer r.headers.replace(next)
	out = make([]agentstate.AgentInfo, 0, len(heads))
	for _, h := range heads {
		if r.deleted.has(ctx, r, h.Stream) {
			continue
		}
		var in agentstate.AgentInfo
		if q, bad := quarantined[h.Stream]; bad {
			in = quarantinedInfo(q)
		} else if in, err = r.headInfo(ctx, h, prev, next); err != nil {
			return nil, true, err
		}
		if in.Visibility == messages.VisibilityPrivate && in.ParentAgentID != "" {
			continue // a private child, described by its own info
		}
		out = append(out, in)
	}
	return out, true, nil // heads come sorted by id
}

// headInfo describes the agent of stream head h without activating it; a
// header is decoded unless prev holds it (headerInfos), and next gets it.
func (r *Runtime) headInfo(ctx context.Context, h persistence.StreamHead, prev, next map[string]decodedHeader) (agentstate.AgentInfo, error) {
	id := h.Stream
	if r.isActive(id) {
		if in, ok := r.view.get(id); ok && in.LastSeq == h.Highest {
			return in, nil
		}
		// Running, and its published info is behind its journal: it is
		// mid-step, and answers between steps.
		return r.Info(ctx, id)
	}
	var stale *agentstate.AgentInfo
	if h.HasHeader {
		if in, err := headerInfo(h, prev, next); err == nil {
			agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
			if h.Header.Seq == h.Highest {
				return in, nil
			}
			stale = &in
		}
	}
	snap, ok, err := r.deps.Store.LoadSnapshot(ctx, id, persistence.LatestSnapshot())
	if err == nil && ok && (snap.Seq == h.Highest || stale == nil || snap.Seq > stale.LastSeq) {
		if in, ok, err := agentstate.SnapshotInfo(snap.Data); err == nil && ok {
			agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
			return in, nil
		}
	}
	if stale != nil {
		return *stale, nil
	}
	// Nothing describes it yet: a journal no runtime has recovered.
	in := agentstate.AgentInfo{ID: id, Status: messages.StatusAsleep}
	agentstate.ApplyBudgetDefault(&in, r.deps.DefaultTokenBudget)
	return in, nil
}

// headerInfos is the info each dormant agent's stream header held at the
// last listing, with the header's bytes: a listing decodes a header again
// only when its bytes changed (1,000 dormant agents took 4.1 ms a listing,
// 83 % of it decoding their headers). Each listing replaces the whole
// map, so agents gone since are forgotten; a map is never written once
// replaced, so a listing reads it without a lock. Its infos share their
// slices with the listings they went into, as infoView's do.
type headerInfos struct {
	mu sync.Mutex
	m  map[string]decodedHeader // guarded by mu; read-only once set
}

// decodedHeader is a stream header's bytes (StreamHeads' own copy) and
// the info decoded from them.
type decodedHeader struct {
	data []byte
	info agentstate.AgentInfo
}

func (c *headerInfos) current() map[string]decodedHeader {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m
}

func (c *headerInfos) replace(m map[string]decodedHeader) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = m
}

// headerInfo is the info in h's header: prev's when its bytes are the
// same, else decoded; next records it.
func headerInfo(h persistence.StreamHead, prev, next map[string]decodedHeader) (agentstate.AgentInfo, error) {
	d, ok := prev[h.Stream]
	if !ok || !bytes.Equal(d.data, h.Header.Data) {
		_, in, err := agentstate.ReadStreamHeader(h.Header.Data)
		if err != nil {
			return in, err
		}
		d = decodedHeader{data: h.Header.Data, info: in}
	}
	next[h.Stream] = d
	return d.info, nil
}
