package mailbox

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/messages"
)

// prioMsg is a message of the given priority.
type prioMsg messages.Priority

func (p prioMsg) Priority() messages.Priority { return messages.Priority(p) }

func TestBandOf(t *testing.T) {
	tests := []struct {
		name string
		msg  any
		want int
	}{
		{"interject", prioMsg(messages.PriorityInterject), 0},
		{"next", prioMsg(messages.PriorityNext), 1},
		{"normal", prioMsg(messages.PriorityNormal), 2},
		{"background", prioMsg(messages.PriorityBackground), 3},
		{"legacy spelling is not parsed here", prioMsg("interrupt"), 2},
		{"empty priority", prioMsg(""), 2},
		{"not prioritized", "hello", 2},
		{"nil", nil, 2},
		{"interject in an envelope", &actor.MessageEnvelope{Message: prioMsg(messages.PriorityInterject)}, 0},
		{"background in an envelope", actor.WrapEnvelope(prioMsg(messages.PriorityBackground)), 3},
		{"poison pill", &actor.PoisonPill{}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bandOf(tt.msg); got != tt.want {
				t.Errorf("bandOf(%#v) = %d, want %d", tt.msg, got, tt.want)
			}
		})
	}
	if r := messages.PriorityBackground.Rank(); r != numBands-1 {
		t.Errorf("PriorityBackground.Rank() = %d, want numBands-1 = %d", r, numBands-1)
	}
}

func TestRing(t *testing.T) {
	tests := []struct {
		name string
		// ops: n > 0 pushes n values, n < 0 pops -n values.
		ops []int
	}{
		{"empty", nil},
		{"fill exactly", []int{minRingCap, -minRingCap}},
		{"grow", []int{3 * minRingCap, -3 * minRingCap}},
		{"wrap around then grow", []int{minRingCap - 2, -(minRingCap - 3), minRingCap + 5, -4, 40, -50}},
		{"shrink while wrapped", []int{100, -90, 300, -250, 1, -61}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r bandRing
			pushed, popped := 0, 0
			for _, n := range tt.ops {
				for ; n > 0; n-- {
					r.push(pushed)
					pushed++
				}
				for ; n < 0; n++ {
					v, ok := r.pop()
					if !ok || v != popped {
						t.Fatalf("pop = %v, %v; want %d, true", v, ok, popped)
					}
					popped++
				}
				if c := len(r.buf); c != 0 && (c&(c-1) != 0 || c < r.n) {
					t.Fatalf("capacity %d for %d values", c, r.n)
				}
			}
			if v, ok := r.pop(); ok {
				t.Fatalf("pop of an empty bandRing = %v, true", v)
			}
			if c := len(r.buf); c > minRingCap {
				t.Errorf("empty bandRing keeps capacity %d, want <= %d", c, minRingCap)
			}
		})
	}
}

// manualDispatcher keeps what is scheduled until the test runs it.
type manualDispatcher struct{ scheduled []func() }

func (d *manualDispatcher) Schedule(fn func()) { d.scheduled = append(d.scheduled, fn) }
func (d *manualDispatcher) Throughput() int    { return 300 }

type countInvoker struct{ n int }

func (c *countInvoker) InvokeSystemMessage(any)  { c.n++ }
func (c *countInvoker) InvokeUserMessage(any)    { c.n++ }
func (c *countInvoker) EscalateFailure(any, any) {}

// TestMailboxShrinksAfterBurst queues a 100k-message burst over all bands,
// drains it and checks the queues gave their memory back: an agent idles
// for days after a burst.
func TestMailboxShrinksAfterBurst(t *testing.T) {
	const burst = 100_000
	m := Banded(nil)().(*bandMailbox)
	d, inv := &manualDispatcher{}, &countInvoker{}
	m.RegisterHandlers(inv, d)
	ps := []prioMsg{prioMsg(messages.PriorityInterject), prioMsg(messages.PriorityNext), prioMsg(messages.PriorityNormal), prioMsg(messages.PriorityBackground)}
	for i := range burst {
		m.PostUserMessage(ps[i%len(ps)])
	}
	m.PostSystemMessage("sys")
	if c := m.capacity(); c < burst {
		t.Fatalf("capacity with %d queued = %d", burst, c)
	}
	for _, fn := range d.scheduled {
		fn()
	}
	if inv.n != burst+1 {
		t.Fatalf("delivered %d messages, want %d", inv.n, burst+1)
	}
	if c, limit := m.capacity(), (numBands+1)*minRingCap; c > limit {
		t.Errorf("capacity after the burst drained = %d slots, want <= %d", c, limit)
	}
}

// inlineDispatcher runs what it is given at once, on the caller's goroutine.
type inlineDispatcher struct{}

func (inlineDispatcher) Schedule(fn func()) { fn() }
func (inlineDispatcher) Throughput() int    { return 300 }

// TestScheduleAllocatesNothing: scheduling hands the dispatcher the
// mailbox's one processMessages closure, made with the mailbox, not a new
// one each time.
func TestScheduleAllocatesNothing(t *testing.T) {
	m := Banded(nil)().(*bandMailbox)
	m.RegisterHandlers(nil, inlineDispatcher{})
	m.schedule()
	if m.status.Load() != mailboxIdle {
		t.Fatal("an empty mailbox stayed running after its dispatch")
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	if n := testing.AllocsPerRun(100, m.schedule); n != 0 {
		t.Errorf("schedule allocates %v times, want 0", n)
	}
}
