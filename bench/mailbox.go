package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/mailbox"
	"github.com/holon-actors/holon-actors/messages"
)

// MailboxConfig sets the workload of Mailbox.
type MailboxConfig struct {
	// Messages is the number of messages delivered in each run of each
	// workload.
	Messages int
	// Senders is the number of goroutines sending in the fan-in workload.
	Senders int
	// Rounds is how many times each workload runs on each mailbox; the
	// result is the median of the rounds.
	Rounds int
	// Logger receives protoactor's logs; nil discards them.
	Logger *slog.Logger
}

// DefaultMailboxConfig returns the default workload: 1,000,000 messages per
// run, 4 fan-in senders, 3 rounds.
func DefaultMailboxConfig() MailboxConfig {
	return MailboxConfig{Messages: 1_000_000, Senders: 4, Rounds: 3}
}

// Validate reports the first setting that cannot run.
func (c MailboxConfig) Validate() error {
	switch {
	case c.Messages < 1:
		return fmt.Errorf("mailbox bench: messages is %d, want at least 1", c.Messages)
	case c.Senders < 1:
		return fmt.Errorf("mailbox bench: senders is %d, want at least 1", c.Senders)
	case c.Rounds < 1:
		return fmt.Errorf("mailbox bench: rounds is %d, want at least 1", c.Rounds)
	}
	return nil
}

// MailboxResult is what Mailbox measured: messages delivered per second,
// the median over the rounds, for our band mailbox (mailbox.Banded) and
// protoactor's default (actor.Unbounded).
type MailboxResult struct {
	Messages int `json:"messages"` // per run
	Senders  int `json:"senders"`
	Rounds   int `json:"rounds"`

	BandPingpongMsgsPerSec    float64 `json:"band_pingpong_msgs_per_sec"`
	DefaultPingpongMsgsPerSec float64 `json:"default_pingpong_msgs_per_sec"`
	BandFaninMsgsPerSec       float64 `json:"band_fanin_msgs_per_sec"`
	DefaultFaninMsgsPerSec    float64 `json:"default_fanin_msgs_per_sec"`
}

// mailboxWorkload runs one timed workload on actors using the mailbox mb and
// returns the messages delivered per second.
type mailboxWorkload func(ctx context.Context, sys *actor.ActorSystem, mb actor.MailboxProducer, cfg MailboxConfig) (float64, error)

// Mailbox compares the band mailbox with protoactor's default on one actor
// system, with the default dispatcher, on two workloads:
//
//   - ping-pong: two actors bounce one message back and forth, one message in
//     flight, so every delivery wakes an idle mailbox (latency-bound);
//   - fan-in: cfg.Senders goroutines send cfg.Messages messages in all to one
//     counting actor (contention on one queue).
//
// Each round runs both workloads on both mailboxes; which mailbox goes first
// alternates between rounds so warm-up and GC drift favour neither. Every
// actor is stopped before Mailbox returns.
func Mailbox(ctx context.Context, cfg MailboxConfig) (MailboxResult, error) {
	if err := cfg.Validate(); err != nil {
		return MailboxResult{}, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return logger }))
	defer sys.Shutdown()

	mailboxes := [2]actor.MailboxProducer{mailbox.Banded(nil), actor.Unbounded()} // band, default
	workloads := [2]mailboxWorkload{runPingpong, runFanin}
	var rates [2][2][]float64 // [workload][mailbox] → one rate per round
	for round := range cfg.Rounds {
		for w, run := range workloads {
			for k := range mailboxes {
				mb := (k + round) % len(mailboxes)
				runtime.GC()
				rate, err := run(ctx, sys, mailboxes[mb], cfg)
				if err != nil {
					return MailboxResult{}, err
				}
				rates[w][mb] = append(rates[w][mb], rate)
			}
		}
	}
	return MailboxResult{
		Messages: cfg.Messages, Senders: cfg.Senders, Rounds: cfg.Rounds,
		BandPingpongMsgsPerSec:    medianRate(rates[0][0]),
		DefaultPingpongMsgsPerSec: medianRate(rates[0][1]),
		BandFaninMsgsPerSec:       medianRate(rates[1][0]),
		DefaultFaninMsgsPerSec:    medianRate(rates[1][1]),
	}, nil
}

// pingBall is the ping-pong message; left is the number of deliveries still
// to make after this one. Like agent traffic it is Prioritized, so the band
// mailbox pays for classifying it.
type pingBall struct{ left int }

func (pingBall) Priority() messages.Priority { return messages.PriorityNormal }

// pingPeer tells a pingPlayer whom to bounce the ball to.
type pingPeer struct{ pid *actor.PID }

// pingPlayer bounces the ball to its peer; the one that receives the last
// delivery closes done.
type pingPlayer struct {
	peer *actor.PID
	done chan<- struct{}
}

func (p *pingPlayer) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case pingPeer:
		p.peer = m.pid
	case pingBall:
		if m.left == 0 {
			close(p.done)
			return
		}
		c.Send(p.peer, pingBall{left: m.left - 1})
	}
}

// runPingpong counts every delivery, in both directions: cfg.Messages
// deliveries, the first of them the serve from the root context.
func runPingpong(ctx context.Context, sys *actor.ActorSystem, mb actor.MailboxProducer, cfg MailboxConfig) (rate float64, err error) {
	done := make(chan struct{}) // closed by the player receiving the last delivery
	props := actor.PropsFromProducer(func() actor.Actor { return &pingPlayer{done: done} }, actor.WithMailbox(mb))
	a, b := sys.Root.Spawn(props), sys.Root.Spawn(props)
	defer func() { err = errors.Join(err, stopActors(sys, a, b)) }()
	sys.Root.Send(a, pingPeer{pid: b})
	sys.Root.Send(b, pingPeer{pid: a})
	began := time.Now()
	sys.Root.Send(a, pingBall{left: cfg.Messages - 1})
	return mailboxRate(ctx, done, began, cfg.Messages)
}

// faninItem is the fan-in message, Prioritized like pingBall.
type faninItem struct{}

func (faninItem) Priority() messages.Priority { return messages.PriorityNormal }

// faninTally counts items and closes done at want.
type faninTally struct {
	want, n int
	done    chan<- struct{}
}

func (t *faninTally) Receive(c actor.Context) {
	if _, ok := c.Message().(faninItem); ok {
		if t.n++; t.n == t.want {
			close(t.done)
		}
	}
}

// runFanin releases cfg.Senders goroutines together, each sending its share
// of cfg.Messages items to one tally, and times until the tally has them all.
// The senders have returned before it does.
func runFanin(ctx context.Context, sys *actor.ActorSystem, mb actor.MailboxProducer, cfg MailboxConfig) (rate float64, err error) {
	done := make(chan struct{}) // closed by the tally at cfg.Messages
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return &faninTally{want: cfg.Messages, done: done}
	}, actor.WithMailbox(mb)))
	defer func() { err = errors.Join(err, stopActors(sys, pid)) }()

	start := make(chan struct{}) // closed to release every sender at once
	var wg sync.WaitGroup
	defer wg.Wait() // runs before the tally is stopped
	for s := range cfg.Senders {
		share := cfg.Messages / cfg.Senders
		if s < cfg.Messages%cfg.Senders {
			share++
		}
		wg.Go(func() {
			<-start
			for i := range share {
				if i%1024 == 0 && ctx.Err() != nil {
					return
				}
				sys.Root.Send(pid, faninItem{})
			}
		})
	}
	began := time.Now()
	close(start)
	return mailboxRate(ctx, done, began, cfg.Messages)
}

// mailboxRate waits for done and returns n messages over the time since
// began, or the context's error.
func mailboxRate(ctx context.Context, done <-chan struct{}, began time.Time, n int) (float64, error) {
	select {
	case <-done:
		return float64(n) / time.Since(began).Seconds(), nil
	case <-ctx.Done():
		return 0, fmt.Errorf("mailbox bench: %w", ctx.Err())
	}
}

// stopActors stops the actors and waits until they have stopped.
func stopActors(sys *actor.ActorSystem, pids ...*actor.PID) error {
	futures := make([]*actor.Future, len(pids))
	for i, pid := range pids {
		futures[i] = sys.Root.StopFuture(pid)
	}
	var errs []error
	for i, f := range futures {
		if err := f.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("mailbox bench: stop %s: %w", pids[i].Id, err))
		}
	}
	return errors.Join(errs...)
}

// medianRate returns the median of xs (the mean of the middle two for an
// even count); xs is not modified.
func medianRate(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	mid := len(s) / 2
	if len(s)%2 == 0 {
		return (s[mid-1] + s[mid]) / 2
	}
	return s[mid]
}
