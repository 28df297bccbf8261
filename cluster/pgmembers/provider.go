package pgmembers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"
)

// Config tunes a Provider.
type Config struct {
	// Cluster names the cluster: members of other clusters in the same
	// database are ignored.
	Cluster string
	// Lease is how long a node stays a member without renewing; a lost
	// node is dropped by the others after Lease plus one Poll at most.
	// 0 means 3s.
	Lease time.Duration
	// Renew is how often a member renews its lease; 0 means Lease/3.
	Renew time.Duration
	// Poll is how often the members are read; 0 means 500ms.
	Poll time.Duration
	// Lost is called once, from the provider's goroutine, when this
	// node's lease lapsed: the others dropped it. The node must stop
	// running agents; it can only come back as a new member (a restart).
	Lost func(error)
	Log  zerolog.Logger
}

func (c Config) withDefaults() Config {
	if c.Lease <= 0 {
		c.Lease = 3 * time.Second
	}
	if c.Renew <= 0 {
		c.Renew = c.Lease / 3
	}
	if c.Poll <= 0 {
		c.Poll = 500 * time.Millisecond
	}
	return c
}

// Provider is a cluster.ClusterProvider over the lease table.
type Provider struct {
	pool *pgxpool.Pool
	cfg  Config

	mu  sync.Mutex
	reg *Registry
	id  string // this member's id; "" for a client
	// suspects carries, to the provider's loop, addresses whose
	// connection ended and Recheck's "" (every member).
	suspects chan string
	cancel   context.CancelFunc
	done     chan struct{}
}

var _ cluster.ClusterProvider = (*Provider)(nil)

// New returns a provider over pool (the journal's database).
func New(pool *pgxpool.Pool, cfg Config) *Provider {
	return &Provider{pool: pool, cfg: cfg.withDefaults()}
}

// StartMember registers this node (its remote address, its kinds) and
// starts renewing its lease and publishing the members to c.
func (p *Provider) StartMember(c *cluster.Cluster) error {
	host, port, err := c.ActorSystem.GetHostPort()
	if err != nil {
		return fmt.Errorf("pgmembers: this node's address: %w", err)
	}
	return p.start(c, &Member{ID: c.ActorSystem.ID, Host: host, Port: port, Kinds: c.GetClusterKinds()})
}

// StartClient publishes the members to c without registering.
func (p *Provider) StartClient(c *cluster.Cluster) error { return p.start(c, nil) }

func (p *Provider) start(c *cluster.Cluster, self *Member) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reg, err := Open(ctx, p.pool, p.cfg.Cluster, p.cfg.Lease)
	if err != nil {
		return err
	}
	if self != nil {
		if err := reg.Join(ctx, *self); err != nil {
			return err
		}
	}
	members, err := reg.Alive(ctx)
	if err != nil {
		return err
	}
	c.MemberList.UpdateClusterTopology(toCluster(members))

	loopCtx, stop := context.WithCancel(context.Background())
	suspects := make(chan string, 16)
	unwatch := p.watchEndpoints(c, suspects)
	p.mu.Lock()
	p.reg, p.cancel, p.done, p.suspects = reg, stop, make(chan struct{}), suspects
	if self != nil {
		p.id = self.ID
	}
	done := p.done
	p.mu.Unlock()
	go func() {
		defer unwatch()
		p.run(loopCtx, c, members, suspects, done)
	}()
	return nil
}

// run renews the lease and polls the members until ctx ends or the lease
// is lost. Before each poll, and at once when a remote connection ends or
// Recheck asks, it probes the other members' ports and evicts those that
// refuse connections (see suspect). It owns nothing but its tickers.
func (p *Provider) run(ctx context.Context, c *cluster.Cluster, current []Member, suspects <-chan string, done chan struct{}) {
	defer close(done)
	renew := time.NewTicker(p.cfg.Renew)
	defer renew.Stop()
	poll := time.NewTicker(p.cfg.Poll)
	defer poll.Stop()
	var last []Member
	var rechecked time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-renew.C:
			if p.id == "" {
				continue
			}
			err := p.reg.Renew(ctx, p.id)
			if errors.Is(err, ErrLeaseLost) {
				p.cfg.Log.Error().Str("member", p.id).Err(err).Msg("cluster membership lost; this node stops")
				if p.cfg.Lost != nil {
					p.cfg.Lost(err)
				}
				return
			}
			if err != nil && ctx.Err() == nil {
				p.cfg.Log.Warn().Str("member", p.id).Err(err).Msg("membership lease not renewed; retrying")
			}
		case addr := <-suspects:
			if addr == "" {
				if time.Since(rechecked) < recheckEvery {
					continue
				}
				rechecked = time.Now()
			}
			if !p.suspect(ctx, addr, current) {
				continue
			}
			members, err := p.reg.Alive(ctx)
			if err != nil {
				continue // the next poll publishes it
			}
			current = members
			c.MemberList.UpdateClusterTopology(toCluster(members))
		case <-poll.C:
			if time.Since(rechecked) >= recheckEvery { // evictions show in this read
				rechecked = time.Now()
				p.suspect(ctx, "", current)
			}
			members, err := p.reg.Alive(ctx)
			if err != nil {
				if ctx.Err() == nil {
					p.cfg.Log.Warn().Err(err).Msg("cluster members not read; keeping the last topology")
				}
				continue
			}
			current = members
			if !sameMembers(last, members) {
				p.cfg.Log.Info().Int("members", len(members)).Strs("ids", ids(members)).Msg("cluster topology")
				last = members
			}
			c.MemberList.UpdateClusterTopology(toCluster(members))
		}
	}
}

// Shutdown stops renewing and, when graceful, ends this member's lease at
// once so the others drop it without waiting for it to lapse.
func (p *Provider) Shutdown(graceful bool) error {
	p.mu.Lock()
	cancel, done, reg, id := p.cancel, p.done, p.reg, p.id
	p.cancel = nil
	p.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	<-done
	if !graceful || id == "" {
		return nil
	}
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	return reg.Leave(ctx, id)
}

func toCluster(ms []Member) cluster.Members {
	out := make(cluster.Members, len(ms))
	for i, m := range ms {
		out[i] = &cluster.Member{Id: m.ID, Host: m.Host, Port: int32(m.Port), Kinds: slices.Clone(m.Kinds)}
	}
	return out
}

func ids(ms []Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func sameMembers(a, b []Member) bool { return slices.Equal(ids(a), ids(b)) }
