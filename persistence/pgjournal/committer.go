package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/holon-actors/holon-actors/persistence"
)

const (
	// groupBytes bounds the records one commit carries, so a burst of big
	// batches does not build one huge transaction.
	groupBytes = 16 << 20
	// maxTries bounds how often an Append is retried after other writers
	// of its stream (other processes) moved the stream under it.
	maxTries = 100
	// commitTimeout bounds one group's round trip to the database.
	commitTimeout = time.Minute
	// notifyChannel is the LISTEN/NOTIFY channel of append signals; the
	// payload is the stream name.
	notifyChannel = "holon_journal"
)

// committer commits the appends of its share of the streams, many per
// transaction (group commit). It is the only writer of those streams in
// this process, so it can remember their highest seq.
type committer struct {
	s *Store
	// in carries appends from callers; Close closes it once no caller can
	// send any more. The buffer lets callers queue while a commit runs.
	in chan *appendReq
	// highest caches the highest seq of streams this committer wrote or
	// read; an entry is dropped whenever a commit shows it stale.
	highest map[string]uint64
	// retry holds Appends that lost their fence to another process and go
	// first into the next group.
	retry []*appendReq
	// lastGroup and lastCommit are the size and the round trip of the
	// last commit: they decide whether, and how long, collect lingers.
	lastGroup  int
	lastCommit time.Duration
}

func newCommitter(s *Store) *committer {
	return &committer{s: s, in: make(chan *appendReq, s.cfg.MaxGroup), highest: make(map[string]uint64)}
}

// run commits groups until in is closed and drained.
func (c *committer) run() {
	for {
		group, ok := c.collect()
		if !ok {
			return
		}
		c.commit(group)
	}
}

// collect takes the retries and what is queued now, waiting only when
// there is nothing at all. ok is false once in is closed and drained.
func (c *committer) collect() (group []*appendReq, ok bool) {
	group, c.retry = c.retry, nil
	if len(group) == 0 {
		req, ok := <-c.in
		if !ok {
			return nil, false
		}
		group = append(group, req)
	}
	size := 0
	for _, r := range group {
		size += r.size
	}
	for len(group) < c.s.cfg.MaxGroup && size < groupBytes {
		select {
		case req, ok := <-c.in:
			if !ok {
				return group, true
			}
			group = append(group, req)
			size += req.size
		default:
			return c.linger(group, size), true
		}
	}
	return group, true
}

// linger waits a little for more appends when the last commit carried
// several (writers are many): the writers it just acknowledged are about to
// append again, and without the wait they would miss this group and idle
// through a whole commit. A commit costs about the same whatever it
// carries (its sync), so a short wait buys a fuller group. It waits at most
// Config.Linger and half the last commit's round trip, and not at all for
// a lone writer, whose append would only be delayed.
func (c *committer) linger(group []*appendReq, size int) []*appendReq {
	wait := min(c.s.cfg.Linger, c.lastCommit/2)
	if c.lastGroup < 2 || wait <= 0 {
		return group
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for len(group) < c.s.cfg.MaxGroup && size < groupBytes {
		select {
		case req, ok := <-c.in:
			if !ok {
				return group
			}
			group = append(group, req)
			size += req.size
		case <-timer.C:
			return group
		}
	}
	return group
}

// planned is one append of a group with the seq it is written after.
type planned struct {
	req   *appendReq
	after uint64
}

// commit writes group in one statement (so one transaction and one sync):
// fenced appends of many streams, and a notification per stream.
func (c *committer) commit(group []*appendReq) {
	group = slices.DeleteFunc(group, func(r *appendReq) bool {
		if err := r.ctx.Err(); err != nil {
			r.done <- appendResult{err: err}
			return true
		}
		return false
	})
	if len(group) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	if err := c.loadHighest(ctx, group); err != nil {
		c.failAll(group, err)
		return
	}
	plan, deferred := c.plan(group)
	defer func() { c.retry = append(c.retry, deferred...) }() // after this commit's retries: a stream's order holds
	began := time.Now()
	wrote, err := c.send(ctx, plan)
	c.lastGroup, c.lastCommit = len(plan), time.Since(began)
	if err != nil {
		c.forget(group)
		var refused *pgconn.PgError
		if len(group) > 1 && errors.As(err, &refused) {
			// The server refused one statement, which rolled back the
			// whole transaction: commit each append alone, so only the bad
			// one fails. Any other error (a lost connection) leaves the
			// commit in doubt: retrying could write the events twice.
			for _, p := range plan {
				c.commit([]*appendReq{p.req})
			}
			return
		}
		c.failAll(planReqs(plan), err)
		return
	}
	c.settle(ctx, plan, wrote)
}

// loadHighest reads the highest seq of the streams of group's Appends that
// the cache does not know.
func (c *committer) loadHighest(ctx context.Context, group []*appendReq) error {
	var missing []string
	for _, r := range group {
		if _, ok := c.highest[r.stream]; !ok && r.after == noFence && !slices.Contains(missing, r.stream) {
			missing = append(missing, r.stream)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	rows, err := c.s.pool.Query(ctx, `SELECT stream, highest FROM holon_streams WHERE stream = ANY($1)`, missing)
	if err != nil {
		return fmt.Errorf("read highest seqs: %w", err)
	}
	defer rows.Close()
	for _, name := range missing {
		c.highest[name] = 0
	}
	for rows.Next() {
		var name string
		var high int64
		if err := rows.Scan(&name, &high); err != nil {
			return fmt.Errorf("read highest seqs: %w", err)
		}
		c.highest[name] = uint64(high)
	}
	return rows.Err()
}

// plan orders group by stream (stable: one stream's appends keep their
// order) and keeps the first append of each stream, with its fence: its
// own for AppendAfter, the cached highest seq for Append. The statement
// moves each stream once, so a stream's later appends are deferred to the
// next commit, in order.
func (c *committer) plan(group []*appendReq) (plan []planned, deferred []*appendReq) {
	slices.SortStableFunc(group, func(a, b *appendReq) int { return strings.Compare(a.stream, b.stream) })
	for i, r := range group {
		if i > 0 && group[i-1].stream == r.stream {
			deferred = append(deferred, r)
			continue
		}
		after := r.after
		if after == noFence {
			after = c.highest[r.stream]
		}
		plan = append(plan, planned{req: r, after: after})
	}
	return plan, deferred
}

// groupSQL commits a whole group in one statement, so in one transaction
// and one sync. req lists the appends ($1 stream, $2 fence, $3 count); the
// stream's highest seq moves only where it still equals the fence
// (moved_old), or, for a fence of 0, where the stream is new (moved_new);
// the events ($4 append, $5 offset in it, $6 sealed record) of the appends
// that moved are inserted, the others write nothing. It returns the
// appends that moved, and notifies their streams on commit.
const groupSQL = `WITH req AS (
	SELECT stream COLLATE "C" AS stream, after, n, i
	FROM unnest($1::text[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS r(stream, after, n, i)
), moved_old AS (
	UPDATE holon_streams t SET highest = t.highest + req.n FROM req
	WHERE req.after > 0 AND t.stream = req.stream AND t.highest = req.after
	RETURNING req.i
), moved_new AS (
	INSERT INTO holon_streams AS t (stream, highest)
	SELECT stream, n FROM req WHERE after = 0
	ON CONFLICT (stream) DO UPDATE SET highest = t.highest + EXCLUDED.highest WHERE t.highest = 0
	RETURNING t.stream
), moved AS (
	SELECT i FROM moved_old
	UNION ALL SELECT req.i FROM moved_new JOIN req ON req.stream = moved_new.stream
), ins AS (
	INSERT INTO holon_events (stream, seq, record)
	SELECT req.stream, req.after + e.k, e.rec
	FROM unnest($4::bigint[], $5::bigint[], $6::bytea[]) AS e(i, k, rec)
	JOIN req ON req.i = e.i
	WHERE e.i IN (SELECT i FROM moved)
	RETURNING 1
)
SELECT coalesce((SELECT array_agg(i) FROM moved), '{}'::bigint[]),
	(SELECT count(pg_notify('` + notifyChannel + `', req.stream)) FROM req WHERE req.i IN (SELECT i FROM moved))`

// send commits plan in one statement and reports which appends it wrote:
// once it returns, PostgreSQL has committed and synced them.
func (c *committer) send(ctx context.Context, plan []planned) ([]bool, error) {
	streams := make([]string, len(plan))
	afters := make([]int64, len(plan))
	counts := make([]int64, len(plan))
	var idx, offsets []int64
	var recs [][]byte
	for i, p := range plan {
		streams[i], afters[i], counts[i] = p.req.stream, int64(p.after), int64(len(p.req.bodies))
		for j, body := range p.req.bodies {
			idx = append(idx, int64(i+1))
			offsets = append(offsets, int64(j+1))
			recs = append(recs, persistence.SealRecord(p.after+uint64(j)+1, body))
		}
	}
	var moved []int64
	var notified int64
	if err := c.s.pool.QueryRow(ctx, groupSQL, streams, afters, counts, idx, offsets, recs).Scan(&moved, &notified); err != nil {
		return nil, fmt.Errorf("commit %d appends: %w", len(plan), err)
	}
	wrote := make([]bool, len(plan))
	for _, i := range moved {
		wrote[i-1] = true
	}
	return wrote, nil
}

// settle answers the appends of a committed plan: the written ones with
// their first seq, fenced-out AppendAfters with ErrSeqConflict, and
// fenced-out Appends (another process wrote the stream) go to a retry.
func (c *committer) settle(ctx context.Context, plan []planned, wrote []bool) {
	c.s.stats.commits.Add(1)
	for i, p := range plan {
		r := p.req
		if wrote[i] {
			c.s.stats.appends.Add(1)
			c.highest[r.stream] = p.after + uint64(len(r.bodies))
			r.done <- appendResult{first: p.after + 1}
			c.s.hub.Notify(r.stream)
			continue
		}
		delete(c.highest, r.stream)
		if r.after == noFence && r.tries < maxTries {
			r.tries++
			c.retry = append(c.retry, r)
			continue
		}
		r.done <- appendResult{err: c.conflict(ctx, r)}
	}
}

// conflict is the error of a fenced-out append, naming where the stream is.
func (c *committer) conflict(ctx context.Context, r *appendReq) error {
	high, err := c.s.HighestSeq(ctx, r.stream)
	if err != nil {
		return fmt.Errorf("append to %s after seq %d: %w (reading where it is: %v)", r.stream, r.after, persistence.ErrSeqConflict, err)
	}
	if r.after == noFence {
		return fmt.Errorf("append to %s: other writers kept moving it (now at %d) through %d tries: %w", r.stream, high, r.tries, persistence.ErrSeqConflict)
	}
	return fmt.Errorf("append to %s after seq %d: stream is at %d: %w", r.stream, r.after, high, persistence.ErrSeqConflict)
}

func planReqs(plan []planned) []*appendReq {
	out := make([]*appendReq, len(plan))
	for i, p := range plan {
		out[i] = p.req
	}
	return out
}

// forget drops the cached highest seq of group's streams: after a failed
// commit the database may hold more than the cache thinks.
func (c *committer) forget(group []*appendReq) {
	for _, r := range group {
		delete(c.highest, r.stream)
	}
}

func (c *committer) failAll(group []*appendReq, err error) {
	if c.s.closed.Load() && errors.Is(err, context.Canceled) {
		err = persistence.ErrClosed
	}
	for _, r := range group {
		r.done <- appendResult{err: fmt.Errorf("append to %s: %w", r.stream, err)}
	}
}
