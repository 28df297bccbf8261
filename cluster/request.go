package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	pacluster "github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/remote"
)

const (
	// maxAttempts bounds the attempts of one request.
	maxAttempts = 5
	// recheckAfter is how long an attempt waits before it asks the
	// membership to probe the members: a prompt is admitted in
	// milliseconds, so one that takes longer may have gone to a dead
	// owner nobody noticed yet.
	recheckAfter = 200 * time.Millisecond
	// noOwnerPause is the wait before looking an owner up again when the
	// lookup found none (no member hosts agents yet, or the owner's
	// activator did not answer); a topology change ends it sooner.
	noOwnerPause = 100 * time.Millisecond
)

// errMemberLeft ends an attempt when a member left the topology while it
// waited: the owner it asked may be the one that left.
var errMemberLeft = errors.New("a member left the cluster during the request")

// errNoOwner is an attempt whose lookup found no activation.
var errNoOwner = errors.New("no member activated the agent")

// departures tells requests in flight that a member left: each attempt
// takes the current channel, which is closed (and replaced) when the
// topology drops a member.
type departures struct {
	mu sync.Mutex
	ch chan struct{}
}

func newDepartures(sys *actor.ActorSystem) (*departures, func()) {
	d := &departures{ch: make(chan struct{})}
	sub := sys.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*pacluster.ClusterTopology); ok && len(t.Left) > 0 {
			d.mu.Lock()
			close(d.ch)
			d.ch = make(chan struct{})
			d.mu.Unlock()
		}
	})
	return d, func() { sys.EventStream.Unsubscribe(sub) }
}

func (d *departures) next() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ch
}

type answer struct {
	res any
	err error
}

// ask sends msg to identity's activation and returns its answer. Each
// attempt looks the owner up and waits at most n.timeout; an attempt is
// abandoned as soon as a member leaves the topology, and the next one
// looks the owner up again in the new topology. Without that, a request
// that reached a dead owner before the cluster dropped it waits out its
// whole timeout, and a lookup sent to the dead owner's activator waits out
// the lookup's own fixed 5 s. Resending is safe: the agent admits a
// message id once.
func (n *Node) ask(ctx context.Context, identity string, msg any) (any, error) {
	var last error
	for range maxAttempts {
		timeout := n.timeout
		if dl, ok := ctx.Deadline(); ok {
			timeout = min(timeout, time.Until(dl))
		}
		if timeout <= 0 || ctx.Err() != nil {
			break
		}
		left := n.left.next()
		// The attempt's goroutine ends on its own: the lookup is bounded
		// (5 s) and the future by timeout. Its channel is buffered, so it
		// never blocks once its request is abandoned.
		done := make(chan answer, 1)
		go func() { done <- n.attempt(identity, msg, timeout) }()
		recheck := time.NewTimer(recheckAfter)
		expire := time.NewTimer(timeout)
		a, err := n.await(ctx, done, left, recheck.C, expire.C)
		recheck.Stop()
		expire.Stop()
		if err == nil {
			return a, nil
		}
		last = err
		if !retryable(err) {
			return nil, err
		}
		if errors.Is(err, errNoOwner) {
			select {
			case <-left:
			case <-ctx.Done():
			case <-time.After(noOwnerPause):
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, errors.Join(err, last)
	}
	return nil, fmt.Errorf("%d attempts: %w", maxAttempts, last)
}

// await waits for one attempt's answer; a member leaving, the attempt's
// time running out or ctx ending abandon it. Past recheck it asks the
// membership to probe the members, once.
func (n *Node) await(ctx context.Context, done <-chan answer, left <-chan struct{}, recheck, expire <-chan time.Time) (any, error) {
	for {
		select {
		case a := <-done:
			return a.res, a.err
		case <-recheck:
			n.members.Recheck()
			recheck = nil
		case <-left:
			return nil, errMemberLeft
		case <-expire:
			return nil, actor.ErrTimeout
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// attempt looks identity's activation up (the PID cache, else the
// cluster's placement) and asks it; a PID that failed is dropped from
// the cache.
func (n *Node) attempt(identity string, msg any, timeout time.Duration) answer {
	pid, _ := n.c.PidCache.Get(identity, AgentKind)
	if pid == nil {
		if pid = n.c.Get(identity, AgentKind); pid == nil {
			return answer{err: errNoOwner}
		}
		n.c.PidCache.Set(identity, AgentKind, pid)
	}
	res, err := n.sys.Root.RequestFuture(pid, msg, timeout).Result()
	if err != nil {
		n.c.PidCache.RemoveByValue(identity, AgentKind, pid)
		return answer{err: err}
	}
	return answer{res: res}
}

// retryable is an attempt's failure the next attempt may not meet: no
// answer in time, or nobody at the PID or in the lookup.
func retryable(err error) bool {
	return errors.Is(err, errNoOwner) || errors.Is(err, errMemberLeft) || errors.Is(err, actor.ErrTimeout) || errors.Is(err, actor.ErrDeadLetter) ||
		errors.Is(err, remote.ErrTimeout) || errors.Is(err, remote.ErrDeadLetter)
}
