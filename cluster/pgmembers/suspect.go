package pgmembers

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/remote"
)

const (
	// probeTimeout bounds the connection attempt that confirms a suspect:
	// short, as the provider's loop (its lease renewals) waits for it.
	probeTimeout = 250 * time.Millisecond
	// recheckEvery bounds how often Recheck probes every member.
	recheckEvery = 250 * time.Millisecond
)

// Recheck asks the provider to probe every other member's port now and
// evict those that refuse connections, as it does before each poll and
// when a remote connection ends. A request that waits longer than it should
// calls it: its owner may have died before any connection to it was made
// (so none ended). Probes run at most every 250 ms however often it is
// called; it never blocks.
func (p *Provider) Recheck() {
	p.mu.Lock()
	suspects := p.suspects
	p.mu.Unlock()
	if suspects == nil {
		return
	}
	select {
	case suspects <- "":
	default:
	}
}

// suspects feeds the provider's loop the addresses whose remote
// connection ended (the peer closed it, or it could not be made). It
// drops an address when the loop is busy: the next end or the lease
// catches the member anyway.
func (p *Provider) watchEndpoints(c *cluster.Cluster, suspects chan<- string) func() {
	sub := c.ActorSystem.EventStream.Subscribe(func(ev any) {
		if e, ok := ev.(*remote.EndpointTerminatedEvent); ok {
			select {
			case suspects <- e.Address:
			default:
			}
		}
	})
	return func() { c.ActorSystem.EventStream.Unsubscribe(sub) }
}

// suspect ends the lease of the member at addr ("": of every other
// member) when its port refuses connections: nothing listens there any
// more (the process died), so waiting for its lease to lapse would only
// keep requests going to it.
// A member that still accepts connections (frozen, slow, cut off from
// the database) is left to its lease. It reports whether it evicted one.
func (p *Provider) suspect(ctx context.Context, addr string, members []Member) bool {
	if addr == "" { // every other member, probed together
		dead := make([]bool, len(members))
		var wg sync.WaitGroup
		for i, m := range members {
			if m.ID != p.id {
				wg.Go(func() { dead[i] = refused(ctx, net.JoinHostPort(m.Host, strconv.Itoa(m.Port))) })
			}
		}
		wg.Wait()
		evicted := false
		for i, m := range members {
			if dead[i] && p.evict(ctx, m, net.JoinHostPort(m.Host, strconv.Itoa(m.Port))) {
				evicted = true
			}
		}
		return evicted
	}
	var m *Member
	for i := range members {
		if net.JoinHostPort(members[i].Host, strconv.Itoa(members[i].Port)) == addr && members[i].ID != p.id {
			m = &members[i]
		}
	}
	if m == nil {
		return false
	}
	return refused(ctx, addr) && p.evict(ctx, *m, addr)
}

// evict ends m's lease.
func (p *Provider) evict(ctx context.Context, m Member, addr string) bool {
	if err := p.reg.Leave(ctx, m.ID); err != nil {
		if ctx.Err() == nil {
			p.cfg.Log.Warn().Str("member", m.ID).Str("addr", addr).Err(err).Msg("member refuses connections but its lease was not ended; it lapses on its own")
		}
		return false
	}
	p.cfg.Log.Warn().Str("member", m.ID).Str("addr", addr).Msg("member refuses connections: its process is gone; lease ended")
	return true
}

// refused reports whether a connection to addr is refused (as opposed to
// made, or timed out: a frozen or unreachable host is no proof of death).
func refused(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err == nil {
		_ = conn.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}
