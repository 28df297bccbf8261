package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
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
			return group, true
		}
	}
	return group, true
}

// planned is one append of a group with the seq it is written after.
type planned struct {
	req   *appendReq
	after uint64
}

// commit writes group in one pipelined transaction: one fenced statement
// per append, and one notification per stream.
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
	plan := c.plan(group)
	wrote, err := c.send(ctx, plan)
	if err != nil {
		c.forget(group)
		var refused *pgconn.PgError
		if len(group) > 1 && errors.As(err, &refused) {
			// The server refused one statement, which rolled back the
			// whole transaction: commit each append alone, so only the bad
			// one fails. Any other error (a lost connection) leaves the
			// commit in doubt: retrying could write the events twice.
			for _, r := range group {
				c.commit([]*appendReq{r})
			}
			return
		}
		c.failAll(group, err)
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

// plan orders group by stream (the same lock order in every process, so
// two groups never deadlock; stable, so one stream's appends keep their
// order) and works out each append's fence: its own for AppendAfter, the
// stream's highest plus what the group appends before it for Append.
func (c *committer) plan(group []*appendReq) []planned {
	slices.SortStableFunc(group, func(a, b *appendReq) int { return strings.Compare(a.stream, b.stream) })
	next := make(map[string]uint64, len(group))
	out := make([]planned, len(group))
	for i, r := range group {
		after := r.after
		if after == noFence {
			after = c.highest[r.stream]
			if n, ok := next[r.stream]; ok {
				after = n
			}
		}
		next[r.stream] = after + uint64(len(r.bodies))
		out[i] = planned{req: r, after: after}
	}
	return out
}

// Both statements move the stream's highest seq only where it equals
// $2 (the fence) and insert the events from the rows that moved, so they
// write all of a batch or, fenced out, nothing; they return how many
// events they wrote. A new stream's row is created by the first append.
const (
	appendSQL = `WITH s AS (
	UPDATE holon_streams SET highest = highest + $3 WHERE stream = $1 AND highest = $2
	RETURNING highest - $3 AS prev
), ins AS (
	INSERT INTO holon_events (stream, seq, record)
	SELECT $1, s.prev + r.ord, r.rec FROM s, unnest($4::bytea[]) WITH ORDINALITY AS r(rec, ord)
	RETURNING 1
)
SELECT count(*) FROM ins`
	appendNewSQL = `WITH s AS (
	INSERT INTO holon_streams AS t (stream, highest) VALUES ($1, $3)
	ON CONFLICT (stream) DO UPDATE SET highest = t.highest + $3 WHERE t.highest = $2
	RETURNING t.highest - $3 AS prev
), ins AS (
	INSERT INTO holon_events (stream, seq, record)
	SELECT $1, s.prev + r.ord, r.rec FROM s, unnest($4::bytea[]) WITH ORDINALITY AS r(rec, ord)
	RETURNING 1
)
SELECT count(*) FROM ins`
	notifySQL = `SELECT count(pg_notify('` + notifyChannel + `', s)) FROM unnest($1::text[]) AS s`
)

// send runs plan as one pipeline: the statements up to the final Sync are
// one implicit transaction, committed (and synced by PostgreSQL) before
// the results are complete. It returns how many events each append wrote.
func (c *committer) send(ctx context.Context, plan []planned) ([]int64, error) {
	b := &pgx.Batch{}
	var streams []string
	for _, p := range plan {
		recs := make([][]byte, len(p.req.bodies))
		for i, body := range p.req.bodies {
			recs[i] = persistence.SealRecord(p.after+uint64(i)+1, body)
		}
		sql := appendSQL
		if p.after == 0 {
			sql = appendNewSQL
		}
		b.Queue(sql, p.req.stream, int64(p.after), int64(len(recs)), recs)
		if len(streams) == 0 || streams[len(streams)-1] != p.req.stream {
			streams = append(streams, p.req.stream)
		}
	}
	b.Queue(notifySQL, streams)
	br := c.s.pool.SendBatch(ctx, b)
	wrote := make([]int64, len(plan))
	var err error
	for i := range plan {
		if err = br.QueryRow().Scan(&wrote[i]); err != nil {
			break
		}
	}
	if err == nil {
		_, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("commit %d appends: %w", len(plan), err)
	}
	return wrote, nil
}

// settle answers the appends of a committed plan: the written ones with
// their first seq, fenced-out AppendAfters with ErrSeqConflict, and
// fenced-out Appends (another process wrote the stream) go to a retry.
func (c *committer) settle(ctx context.Context, plan []planned, wrote []int64) {
	signalled := map[string]bool{}
	c.s.stats.commits.Add(1)
	for i, p := range plan {
		r := p.req
		if wrote[i] == int64(len(r.bodies)) {
			c.s.stats.appends.Add(1)
			c.highest[r.stream] = p.after + uint64(len(r.bodies))
			r.done <- appendResult{first: p.after + 1}
			if !signalled[r.stream] {
				signalled[r.stream] = true
				c.s.hub.Notify(r.stream)
			}
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
