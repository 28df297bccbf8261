package persistence

// Snapshot/replay equivalence (research R4): for random event sequences,
// state(snapshot at or below k + the tail after it) == state(full replay
// of 1..k) == the live state built while appending, also after retention
// deleted the events a snapshot covers.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// refState is the state of the reference reducer. Its JSON is the snapshot
// data, and comparing JSON compares states.
type refState struct {
	LastSeq uint64         `json:"last_seq"`
	Sum     int            `json:"sum"`
	KV      map[string]int `json:"kv"`
	Status  string         `json:"status"`
	// Digest hashes every event applied, in order: replaying the right
	// events in the wrong order, or twice, changes it.
	Digest uint64 `json:"digest"`
}

// refOp is an event payload the reducer understands.
type refOp struct {
	Op string `json:"op"` // add, del or set_status
	K  string `json:"k,omitempty"`
	V  int    `json:"v,omitempty"`
	S  string `json:"s,omitempty"`
}

func newRefState() *refState { return &refState{KV: map[string]int{}, Status: "new"} }

// apply folds ev into the state. Events must come in seq order without
// gaps.
func (st *refState) apply(ev messages.Event) error {
	if ev.Seq != st.LastSeq+1 {
		return fmt.Errorf("event seq %d after seq %d", ev.Seq, st.LastSeq)
	}
	var op refOp
	if err := json.Unmarshal(ev.Payload, &op); err != nil {
		return fmt.Errorf("seq %d: payload %s: %v", ev.Seq, ev.Payload, err)
	}
	switch op.Op {
	case "add":
		st.KV[op.K] += op.V
		st.Sum += op.V
	case "del":
		delete(st.KV, op.K)
	case "set_status":
		st.Status = op.S
	default:
		return fmt.Errorf("seq %d: unknown op %q", ev.Seq, op.Op)
	}
	h := fnv.New64a()
	_ = binary.Write(h, binary.BigEndian, st.Digest)
	_ = binary.Write(h, binary.BigEndian, ev.Seq)
	h.Write(ev.Payload)
	st.Digest, st.LastSeq = h.Sum64(), ev.Seq
	return nil
}

func (st *refState) encode() string {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // a map[string]int and scalars always encode
	}
	return string(b)
}

func decodeRefState(data []byte) (*refState, error) {
	st := newRefState()
	if err := json.Unmarshal(data, st); err != nil {
		return nil, err
	}
	if st.KV == nil {
		st.KV = map[string]int{}
	}
	return st, nil
}

var (
	refKeys     = []string{"a", "b", "c", "d", "e", "f"}
	refStatuses = []string{"awake", "asleep", "waiting", "done"}
)

func randomRefOp(rng *rand.Rand) refOp {
	switch r := rng.IntN(10); {
	case r < 6:
		return refOp{Op: "add", K: refKeys[rng.IntN(len(refKeys))], V: rng.IntN(201) - 100}
	case r < 8:
		return refOp{Op: "del", K: refKeys[rng.IntN(len(refKeys))]}
	default:
		return refOp{Op: "set_status", S: refStatuses[rng.IntN(len(refStatuses))]}
	}
}

// propertyStats sums what the property test did.
type propertyStats struct {
	sequences, maxLen, events, snapshots, checks, mismatches atomic.Int64
}

func (p *propertyStats) noteLen(n int) {
	for {
		cur := p.maxLen.Load()
		if int64(n) <= cur || p.maxLen.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

// replayChecker runs one random sequence against a store.
type replayChecker struct {
	t      *testing.T
	s      Store
	stream string
	rng    *rand.Rand
	stats  *propertyStats
	// liveAt[k] is the live state after the first k events.
	liveAt []string
	snaps  []uint64
}

func (c *replayChecker) mismatch(format string, args ...any) {
	c.stats.mismatches.Add(1)
	c.t.Errorf("%s: "+format, append([]any{c.stream}, args...)...)
}

// run appends a sequence of n events in random batches, snapshotting at
// random points, then checks recovery at random k and after retention.
// Mismatches are reported as test errors; an error return means the store
// failed an operation and the sequence was abandoned. (It runs outside the
// test goroutine, so it must not call t.Fatal.)
func (c *replayChecker) run(n int) error {
	ctx := context.Background()
	live := newRefState()
	c.liveAt = []string{live.encode()}
	for done := 0; done < n; {
		batch := make([]messages.Event, 1+c.rng.IntN(min(16, n-done)))
		for i := range batch {
			payload, _ := json.Marshal(randomRefOp(c.rng))
			batch[i] = testEvent(c.stream, 0)
			batch[i].Payload = payload
		}
		first, err := c.s.Append(ctx, c.stream, batch)
		if err != nil || first != uint64(done+1) {
			return fmt.Errorf("Append(%d events) = %d, %v; want %d, nil", len(batch), first, err, done+1)
		}
		for i, ev := range batch {
			ev.Seq = first + uint64(i)
			if err := live.apply(ev); err != nil {
				return fmt.Errorf("live apply: %v", err)
			}
			c.liveAt = append(c.liveAt, live.encode())
		}
		done += len(batch)
		if c.rng.IntN(4) == 0 {
			if err := c.saveSnapshot(uint64(done), live); err != nil {
				return err
			}
		}
	}
	c.stats.events.Add(int64(n))
	// k = 0 is left to the conformance case on AtOrBelow(0).
	ks := []uint64{uint64(n)}
	for range 3 {
		ks = append(ks, uint64(1+c.rng.IntN(n)))
	}
	for _, k := range ks {
		c.check(k, true)
	}
	return c.checkRetention(uint64(n))
}

func (c *replayChecker) saveSnapshot(seq uint64, st *refState) error {
	snap := Snapshot{Stream: c.stream, Seq: seq, Timestamp: snapTime(int(seq)), Data: []byte(st.encode())}
	if err := c.s.SaveSnapshot(context.Background(), snap); err != nil {
		return fmt.Errorf("SaveSnapshot(seq %d) = %v", seq, err)
	}
	c.snaps = append(c.snaps, seq)
	c.stats.snapshots.Add(1)
	return nil
}

// check compares recovery at k (snapshot + tail) with the live state and,
// when the events are all there, with a full replay.
func (c *replayChecker) check(k uint64, fullReplay bool) {
	c.stats.checks.Add(1)
	want := c.liveAt[k]
	got, snapSeq, err := c.recoverAt(k)
	if err != nil {
		c.mismatch("recover at %d: %v", k, err)
		return
	}
	if got != want {
		c.mismatch("state(snapshot@%d + tail to %d) = %s, want live %s", snapSeq, k, got, want)
	}
	if !fullReplay {
		return
	}
	replayed, err := c.replay(newRefState(), 1, k)
	if err != nil {
		c.mismatch("full replay to %d: %v", k, err)
		return
	}
	if replayed.encode() != want {
		c.mismatch("state(full replay 1..%d) = %s, want live %s", k, replayed.encode(), want)
	}
}

// recoverAt rebuilds the state at k from the newest snapshot at or below k
// and the events after it, and returns the snapshot's seq (0 for none).
func (c *replayChecker) recoverAt(k uint64) (string, uint64, error) {
	st := newRefState()
	snap, ok, err := c.s.LoadSnapshot(context.Background(), c.stream, AtOrBelow(k))
	switch {
	case err != nil:
		return "", 0, fmt.Errorf("LoadSnapshot(AtOrBelow(%d)) = %v", k, err)
	case ok && (snap.Seq > k || snap.Seq == 0):
		return "", 0, fmt.Errorf("LoadSnapshot(AtOrBelow(%d)) = seq %d", k, snap.Seq)
	case ok:
		if st, err = decodeRefState(snap.Data); err != nil {
			return "", 0, fmt.Errorf("snapshot %d: %v", snap.Seq, err)
		}
		if st.LastSeq != snap.Seq {
			return "", 0, fmt.Errorf("snapshot at seq %d holds state of seq %d", snap.Seq, st.LastSeq)
		}
	}
	st, err = c.replay(st, st.LastSeq+1, k)
	if err != nil {
		return "", snap.Seq, err
	}
	return st.encode(), snap.Seq, nil
}

// replay applies events from..to to st, reading them in pages of random
// size to exercise Read's limit.
func (c *replayChecker) replay(st *refState, from, to uint64) (*refState, error) {
	page := 1 + c.rng.IntN(64)
	for from <= to {
		evs, err := c.s.Read(context.Background(), c.stream, from, to, page)
		if err != nil {
			return nil, fmt.Errorf("Read(%d,%d, limit %d) = %v", from, to, page, err)
		}
		if len(evs) == 0 {
			return nil, fmt.Errorf("Read(%d,%d, limit %d) = [], want events %d..%d", from, to, page, from, to)
		}
		if len(evs) > page {
			return nil, fmt.Errorf("Read(%d,%d, limit %d) returned %d events", from, to, page, len(evs))
		}
		for _, ev := range evs {
			if err := st.apply(ev); err != nil {
				return nil, err
			}
		}
		from = st.LastSeq + 1
	}
	return st, nil
}

// checkRetention deletes the events covered by a random snapshot, as
// retention would, and checks that recovery from snapshots still matches.
func (c *replayChecker) checkRetention(n uint64) error {
	if len(c.snaps) == 0 {
		return nil
	}
	ctx := context.Background()
	k := c.snaps[c.rng.IntN(len(c.snaps))]
	if err := c.s.DeleteUpTo(ctx, c.stream, k); err != nil {
		return fmt.Errorf("DeleteUpTo(%d) = %v", k, err)
	}
	if h, err := c.s.HighestSeq(ctx, c.stream); err != nil || h != n {
		c.mismatch("HighestSeq after DeleteUpTo(%d) = %d, %v; want %d", k, h, err, n)
	}
	if evs, err := c.s.Read(ctx, c.stream, 1, k, 0); err != nil || len(evs) != 0 {
		c.mismatch("Read(1,%d) after DeleteUpTo(%d) = %v, %v; want []", k, k, seqsOf(evs), err)
	}
	c.check(n, false)
	c.check(k, false)
	// Recovery at a random point at or after the retained snapshot.
	c.check(k+uint64(c.rng.IntN(int(n-k)+1)), false)
	return nil
}

// propertySequences is how many random sequences to run: def, or
// HOLON_PROPERTY_SEQUENCES when that is larger.
func propertySequences(t *testing.T, def int) int {
	if v := os.Getenv("HOLON_PROPERTY_SEQUENCES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("HOLON_PROPERTY_SEQUENCES=%q: %v", v, err)
		}
		return max(n, def)
	}
	if testing.Short() {
		return max(def/10, 1)
	}
	return def
}

// runReplayProperty runs sequences 0..n-1 (seeded by their index) against
// one store, several at a time on their own streams (so the Badger group
// commit has company).
func runReplayProperty(t *testing.T, name string, s Store, n, maxLen int) {
	start := time.Now()
	var stats propertyStats
	seeds := make(chan uint64)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for seed := range seeds {
				rng := rand.New(rand.NewPCG(seed, 0x5eed))
				length := 1 + rng.IntN(maxLen)
				c := &replayChecker{t: t, s: s, stream: fmt.Sprintf("prop-%04d", seed), rng: rng, stats: &stats}
				if err := c.run(length); err != nil {
					t.Errorf("%s: %v", c.stream, err)
				}
				stats.sequences.Add(1)
				stats.noteLen(length)
			}
		})
	}
	for seed := range uint64(n) {
		seeds <- seed
	}
	close(seeds)
	wg.Wait()
	t.Logf("replay property (%s): sequences %d, max length %d, events %d, snapshots %d, recovery checks %d, mismatches %d (must be 0), %v",
		name, stats.sequences.Load(), stats.maxLen.Load(), stats.events.Load(), stats.snapshots.Load(),
		stats.checks.Load(), stats.mismatches.Load(), time.Since(start).Round(time.Millisecond))
}

func TestMemStoreReplayProperty(t *testing.T) {
	runReplayProperty(t, "mem", NewMemStore(), propertySequences(t, 200), 300)
}

// TestBadgerStoreReplayProperty uses the production options: every Append
// and SaveSnapshot waits for a sync.
func TestBadgerStoreReplayProperty(t *testing.T) {
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	runReplayProperty(t, "badger", s, propertySequences(t, 200), 300)
}
