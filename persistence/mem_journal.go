package persistence

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/holon-actors/holon-actors/messages"
)

// MemStore is an in-memory Store for tests. It keeps the same encoded
// records as the Badger store, so both behave alike down to the bytes.
type MemStore struct {
	mu      sync.Mutex
	closed  bool
	streams map[string]*memStream
	snaps   map[string]map[uint64][]byte
	hub     notifier
}

type memStream struct {
	highest uint64
	seqs    []uint64 // ascending, parallel to recs
	recs    [][]byte
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty in-memory store.
func NewMemStore() *MemStore {
	return &MemStore{streams: make(map[string]*memStream), snaps: make(map[string]map[uint64][]byte)}
}

// Append implements Journal.
func (m *MemStore) Append(ctx context.Context, stream string, events []messages.Event) (uint64, error) {
	return m.AppendAfter(ctx, stream, noFence, events)
}

// AppendAfter implements Journal.
func (m *MemStore) AppendAfter(ctx context.Context, stream string, after uint64, events []messages.Event) (uint64, error) {
	recs, err := encodeBatch(stream, events)
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return 0, ErrClosed
	}
	s := m.streams[stream]
	if s == nil {
		s = &memStream{}
	}
	if err := checkFence(stream, s.highest, after); err != nil {
		m.mu.Unlock()
		return 0, err
	}
	first := s.highest + 1
	for i, rec := range recs {
		s.seqs = append(s.seqs, first+uint64(i))
		s.recs = append(s.recs, sealRecordInPlace(first+uint64(i), rec))
	}
	s.highest += uint64(len(recs))
	m.streams[stream] = s
	m.mu.Unlock()
	m.hub.notify(stream)
	return first, nil
}

// Read implements Journal.
func (m *MemStore) Read(ctx context.Context, stream string, from, to uint64, limit int) ([]messages.Event, error) {
	return m.ReadPage(ctx, stream, from, to, limit, 0)
}

// ReadPage implements Journal.
func (m *MemStore) ReadPage(_ context.Context, stream string, from, to uint64, limit, maxBytes int) ([]messages.Event, error) {
	unlock, err := m.lockStream(stream)
	if err != nil {
		return nil, err
	}
	defer unlock()
	s := m.streams[stream]
	if s == nil || from > to {
		return nil, nil
	}
	var out []messages.Event
	size := 0
	for i := sort.Search(len(s.seqs), func(i int) bool { return s.seqs[i] >= from }); i < len(s.seqs) && s.seqs[i] <= to; i++ {
		size += len(s.recs[i])
		if limit > 0 && len(out) == limit || maxBytes > 0 && size > maxBytes && len(out) > 0 {
			break
		}
		ev, err := decodeRecord(s.recs[i], s.seqs[i], stream)
		if err != nil {
			return out, fmt.Errorf("read %s seq %d: %w", stream, s.seqs[i], err)
		}
		out = append(out, ev)
	}
	return out, nil
}

// HighestSeq implements Journal.
func (m *MemStore) HighestSeq(_ context.Context, stream string) (uint64, error) {
	unlock, err := m.lockStream(stream)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if s := m.streams[stream]; s != nil {
		return s.highest, nil
	}
	return 0, nil
}

// DeleteUpTo implements Journal.
func (m *MemStore) DeleteUpTo(_ context.Context, stream string, upTo uint64) error {
	unlock, err := m.lockStream(stream)
	if err != nil {
		return err
	}
	defer unlock()
	s := m.streams[stream]
	if s == nil {
		return nil
	}
	n := sort.Search(len(s.seqs), func(i int) bool { return s.seqs[i] > upTo })
	s.seqs, s.recs = slices.Clone(s.seqs[n:]), slices.Clone(s.recs[n:])
	return nil
}

// Streams implements Journal.
func (m *MemStore) Streams(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	out := make([]string, 0, len(m.streams))
	for s := range m.streams {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// Subscribe implements Journal.
func (m *MemStore) Subscribe(stream string) *Subscription { return m.hub.add(stream) }

// SaveSnapshot implements SnapshotStore.
func (m *MemStore) SaveSnapshot(_ context.Context, s Snapshot) error {
	unlock, err := m.lockStream(s.Stream)
	if err != nil {
		return err
	}
	defer unlock()
	if m.snaps[s.Stream] == nil {
		m.snaps[s.Stream] = make(map[uint64][]byte)
	}
	m.snaps[s.Stream][s.Seq] = encodeSnapshot(s)
	return nil
}

// LoadSnapshot implements SnapshotStore.
func (m *MemStore) LoadSnapshot(_ context.Context, stream string, c SnapshotCriteria) (Snapshot, bool, error) {
	unlock, err := m.lockStream(stream)
	if err != nil {
		return Snapshot{}, false, err
	}
	defer unlock()
	for _, seq := range m.snapSeqsDesc(stream) {
		s, err := decodeSnapshot(stream, seq, m.snaps[stream][seq])
		if err != nil {
			return Snapshot{}, false, fmt.Errorf("load snapshot %s seq %d: %w", stream, seq, err)
		}
		if c.matches(s.Seq, s.Timestamp) {
			return s, true, nil
		}
	}
	return Snapshot{}, false, nil
}

// DeleteSnapshot implements SnapshotStore.
func (m *MemStore) DeleteSnapshot(_ context.Context, stream string, seq uint64) error {
	unlock, err := m.lockStream(stream)
	if err != nil {
		return err
	}
	defer unlock()
	delete(m.snaps[stream], seq)
	return nil
}

// DeleteSnapshots implements SnapshotStore.
func (m *MemStore) DeleteSnapshots(_ context.Context, stream string, c SnapshotCriteria) error {
	unlock, err := m.lockStream(stream)
	if err != nil {
		return err
	}
	defer unlock()
	for seq, rec := range m.snaps[stream] {
		if s, err := decodeSnapshot(stream, seq, rec); err == nil && c.matches(s.Seq, s.Timestamp) {
			delete(m.snaps[stream], seq)
		}
	}
	return nil
}

func (m *MemStore) snapSeqsDesc(stream string) []uint64 {
	seqs := make([]uint64, 0, len(m.snaps[stream]))
	for seq := range m.snaps[stream] {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	slices.Reverse(seqs)
	return seqs
}

// Health implements Store; an in-memory store is never damaged.
func (m *MemStore) Health() Health { return Health{} }

// Close implements Store.
func (m *MemStore) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}

// lockStream validates stream and locks the store; it fails on a closed
// store. Call the returned unlock when done.
func (m *MemStore) lockStream(stream string) (unlock func(), err error) {
	if err := validateStream(stream); err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	return m.mu.Unlock, nil
}
