package mailbox_test

import (
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/mailbox"
	"github.com/holon-actors/holon-actors/messages"
)

// mailboxWait bounds every wait of these tests; reaching it is a failure, not
// a way to synchronise.
const mailboxWait = 10 * time.Second

// bandNote is a labelled user message in a band.
type bandNote struct {
	label string
	prio  messages.Priority
}

func (n bandNote) Priority() messages.Priority { return n.prio }

func bgNote(l string) bandNote        { return bandNote{l, messages.PriorityBackground} }
func normalNote(l string) bandNote    { return bandNote{l, messages.PriorityNormal} }
func nextNote(l string) bandNote      { return bandNote{l, messages.PriorityNext} }
func interjectNote(l string) bandNote { return bandNote{l, messages.PriorityInterject} }

// blockMsg blocks the recorder inside Receive: it closes entered, then waits
// until release is closed. The recorder does not record it.
type blockMsg struct {
	entered chan<- struct{}
	release <-chan struct{}
}

// watchMsg makes the recorder watch pid, then close done.
type watchMsg struct {
	pid  *actor.PID
	done chan<- struct{}
}

// panicMsg is recorded, then panics in Receive.
type panicMsg struct{ prio messages.Priority }

func (b panicMsg) Priority() messages.Priority { return b.prio }

// bandRecorder sends a label for every message it receives to got: the note
// label, "started", "restarting", "stopping", "stopped", "terminated",
// "boom". If sig is set, a note's label gets ":<sig.Pending()>" appended.
type bandRecorder struct {
	got chan<- string
	sig *mailbox.Signal
}

func (r *bandRecorder) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case blockMsg:
		close(m.entered)
		<-m.release
	case watchMsg:
		c.Watch(m.pid)
		close(m.done)
	case bandNote:
		r.noted(c, m)
	case panicMsg:
		r.got <- "boom"
		panic("boom")
	case *actor.Started:
		r.got <- "started"
	case *actor.Restarting:
		r.got <- "restarting"
	case *actor.Stopping:
		r.got <- "stopping"
	case *actor.Stopped:
		r.got <- "stopped"
	case *actor.Terminated:
		r.got <- "terminated"
	}
}

func (r *bandRecorder) noted(c actor.Context, m bandNote) {
	label := m.label
	if r.sig != nil {
		label = fmt.Sprintf("%s:%d", label, r.sig.Pending())
	}
	r.got <- label
	if c.Sender() != nil {
		c.Respond(m.label)
	}
}

// mailboxKinds are the producers the behavioural tests compare: ours, and
// protoactor's default (the FIFO Unbounded) to pin down what we match.
var mailboxKinds = []struct {
	name string
	band bool
	make func(sig *mailbox.Signal) actor.MailboxProducer
}{
	{"band", true, func(sig *mailbox.Signal) actor.MailboxProducer { return mailbox.Banded(sig) }},
	{"default", false, func(*mailbox.Signal) actor.MailboxProducer { return actor.Unbounded() }},
}

func newQuietSystem() *actor.ActorSystem {
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
}

// spawnRecorder spawns a bandRecorder on mb and waits for its "started".
func spawnRecorder(t *testing.T, sys *actor.ActorSystem, mb actor.MailboxProducer, sig *mailbox.Signal) (*actor.PID, <-chan string) {
	t.Helper()
	got := make(chan string, 1024)
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &bandRecorder{got: got, sig: sig} }, actor.WithMailbox(mb)))
	expectLabels(t, got, "started")
	return pid, got
}

// block parks the actor at pid inside Receive and returns the function that
// lets it go on.
func blockActor(t *testing.T, root *actor.RootContext, pid *actor.PID) (release func()) {
	t.Helper()
	entered, held := make(chan struct{}), make(chan struct{})
	root.Send(pid, blockMsg{entered: entered, release: held})
	select {
	case <-entered:
	case <-time.After(mailboxWait):
		t.Fatal("actor never picked up the block message")
	}
	return func() { close(held) }
}

// collect reads n labels from got.
func collectLabels(t *testing.T, got <-chan string, n int) []string {
	t.Helper()
	var labels []string
	timeout := time.After(mailboxWait)
	for len(labels) < n {
		select {
		case l := <-got:
			labels = append(labels, l)
		case <-timeout:
			t.Fatalf("got %q, then nothing for %v; want %d labels", labels, mailboxWait, n)
		}
	}
	return labels
}

func expectLabels(t *testing.T, got <-chan string, want ...string) {
	t.Helper()
	if labels := collectLabels(t, got, len(want)); !slices.Equal(labels, want) {
		t.Fatalf("received %q, want %q", labels, want)
	}
}

// eventually polls cond until it holds, failing the test after mailboxWait.
func pollUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(mailboxWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still false after %v", what, mailboxWait)
		}
		runtime.Gosched()
		<-time.After(time.Millisecond)
	}
}

func TestMailboxBandOrder(t *testing.T) {
	tests := []struct {
		name string
		band bool
		want []string
	}{
		{"band", true, []string{"int1", "int2", "next1", "next2", "n1", "n2", "bg1", "bg2"}},
		{"default", false, []string{"bg1", "n1", "next1", "int1", "n2", "int2", "bg2", "next2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mb := actor.Unbounded()
			if tt.band {
				mb = mailbox.Banded(nil)
			}
			sys := newQuietSystem()
			pid, got := spawnRecorder(t, sys, mb, nil)
			release := blockActor(t, sys.Root, pid)
			sys.Root.Send(pid, bgNote("bg1"))
			sys.Root.Send(pid, normalNote("n1"))
			sys.Root.Send(pid, nextNote("next1"))
			reply := sys.Root.RequestFuture(pid, interjectNote("int1"), mailboxWait) // arrives as *actor.MessageEnvelope
			sys.Root.Send(pid, normalNote("n2"))
			sys.Root.Send(pid, interjectNote("int2"))
			sys.Root.Send(pid, bgNote("bg2"))
			sys.Root.Send(pid, nextNote("next2"))
			release()
			expectLabels(t, got, tt.want...)
			if r, err := reply.Result(); err != nil || r != "int1" {
				t.Errorf("RequestFuture(int1) = %v, %v; want int1, nil", r, err)
			}
		})
	}
}

// seqMsg is message seq of one sender, in a band.
type seqMsg struct {
	sender, seq int
	prio        messages.Priority
}

func (m seqMsg) Priority() messages.Priority { return m.prio }

// seqCounter collects seqMsgs and sends them all on done once it has total.
type seqCounter struct {
	total int
	seen  []seqMsg
	done  chan<- []seqMsg
}

func (a *seqCounter) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case blockMsg:
		close(m.entered)
		<-m.release
	case seqMsg:
		a.seen = append(a.seen, m)
		if len(a.seen) == a.total {
			a.done <- a.seen
		}
	}
}

func TestMailboxFIFOWithinBandConcurrentSenders(t *testing.T) {
	const senders, each = 8, 400
	bandsOf := []messages.Priority{messages.PriorityInterject, messages.PriorityNext, messages.PriorityNormal, messages.PriorityBackground}
	for _, blocked := range []bool{true, false} {
		t.Run(fmt.Sprintf("blocked=%v", blocked), func(t *testing.T) {
			sys := newQuietSystem()
			done := make(chan []seqMsg, 1)
			pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor {
				return &seqCounter{total: senders * each, done: done}
			}, actor.WithMailbox(mailbox.Banded(nil))))
			release := func() {}
			if blocked {
				release = blockActor(t, sys.Root, pid)
			}
			var wg sync.WaitGroup
			for s := range senders {
				wg.Go(func() {
					for i := range each {
						m := seqMsg{sender: s, seq: i, prio: bandsOf[(s+i*7)%len(bandsOf)]}
						if i%3 == 0 { // in an envelope, as Request and RequestFuture send
							sys.Root.RequestWithCustomSender(pid, m, nil)
						} else {
							sys.Root.Send(pid, m)
						}
					}
				})
			}
			wg.Wait()
			release()
			var seen []seqMsg
			select {
			case seen = <-done:
			case <-time.After(mailboxWait):
				t.Fatal("not every message arrived")
			}
			last := map[[2]int]int{} // (sender, band) → last seq
			for i, m := range seen {
				key := [2]int{m.sender, m.prio.Rank()}
				if prev, ok := last[key]; ok && m.seq <= prev {
					t.Fatalf("sender %d band %s: seq %d after %d", m.sender, m.prio, m.seq, prev)
				}
				last[key] = m.seq
				if blocked && i > 0 && m.prio.Rank() < seen[i-1].prio.Rank() {
					t.Fatalf("message %d is %s after %s", i, m.prio, seen[i-1].prio)
				}
			}
		})
	}
}

func TestMailboxSystemMessagesOvertakeUserMessages(t *testing.T) {
	for _, mb := range mailboxKinds {
		t.Run(mb.name, func(t *testing.T) {
			sys := newQuietSystem()
			pid, got := spawnRecorder(t, sys, mb.make(nil), nil)
			target := sys.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
			watching := make(chan struct{})
			sys.Root.Send(pid, watchMsg{pid: target, done: watching})
			<-watching
			release := blockActor(t, sys.Root, pid)
			sys.Root.Send(pid, interjectNote("u1"))
			sys.Root.Send(pid, normalNote("u2"))
			// The recorder watched target first, so its Terminated (a system
			// message) is queued before the future's completes.
			if err := sys.Root.StopFuture(target).Wait(); err != nil {
				t.Fatalf("stop target: %v", err)
			}
			release()
			expectLabels(t, got, "terminated", "u1", "u2")
		})
	}
}

// TestMailboxSuspendedDuringSupervision fails a child and holds its parent's
// decider: while the child is suspended, posted user messages wait; after
// the restart they all run, in band order for ours and FIFO for protoactor's.
func TestMailboxSuspendedDuringSupervision(t *testing.T) {
	tests := []struct {
		name         string
		band         bool
		beforeFail   []string // received before the failure, after "started"
		afterRestart []string
	}{
		{"band", true, []string{"int1", "boom"}, []string{"restarting", "started", "int2", "n1", "n2", "bg1"}},
		{"default", false, []string{"boom"}, []string{"restarting", "started", "n1", "bg1", "int1", "n2", "int2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := newQuietSystem()
			got := make(chan string, 1024)
			var child actor.Mailbox // written on spawn, read after childPID arrives
			produce := actor.Unbounded()
			if tt.band {
				produce = mailbox.Banded(nil)
			}
			childProps := actor.PropsFromProducer(func() actor.Actor { return &bandRecorder{got: got} },
				actor.WithMailbox(func() actor.Mailbox { child = produce(); return child }))

			deciding, decide := make(chan struct{}, 1), make(chan struct{})
			strategy := actor.NewOneForOneStrategy(10, time.Minute, func(any) actor.Directive {
				deciding <- struct{}{}
				<-decide
				return actor.RestartDirective
			})
			childPID := make(chan *actor.PID, 1)
			sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
				if _, ok := c.Message().(*actor.Started); ok {
					childPID <- c.Spawn(childProps)
				}
			}, actor.WithSupervisor(strategy)))
			pid := <-childPID
			expectLabels(t, got, "started")

			release := blockActor(t, sys.Root, pid)
			sys.Root.Send(pid, panicMsg{messages.PriorityNormal})
			sys.Root.Send(pid, normalNote("n1"))
			sys.Root.Send(pid, bgNote("bg1"))
			sys.Root.Send(pid, interjectNote("int1"))
			release()
			expectLabels(t, got, tt.beforeFail...)
			<-deciding // the child is suspended until the decider returns
			sys.Root.Send(pid, normalNote("n2"))
			sys.Root.Send(pid, interjectNote("int2"))
			if n, want := child.UserMessageCount(), len(tt.afterRestart)-2; n != want {
				t.Errorf("suspended: UserMessageCount() = %d, want %d", n, want)
			}
			close(decide)
			expectLabels(t, got, tt.afterRestart...)
		})
	}
}

func TestMailboxPoisonDrainsStopDrops(t *testing.T) {
	poison := func(root *actor.RootContext, pid *actor.PID) { root.Poison(pid) }
	stop := func(root *actor.RootContext, pid *actor.PID) { root.Stop(pid) }
	tests := []struct {
		name string
		band bool
		end  func(*actor.RootContext, *actor.PID)
		want []string
	}{
		// Poison is a user message; ours queues it in background, so it
		// drains what came before it, and interjects that come after.
		{"band/poison", true, poison, []string{"int1", "int2", "next1", "n1", "bg1", "stopping", "stopped"}},
		{"default/poison", false, poison, []string{"bg1", "n1", "next1", "int1", "stopping", "stopped"}},
		// Stop is a system message: it overtakes every queued user message,
		// and the messages left behind are dropped.
		{"band/stop", true, stop, []string{"stopping", "stopped"}},
		{"default/stop", false, stop, []string{"stopping", "stopped"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := newQuietSystem()
			sig := new(mailbox.Signal)
			var mb actor.Mailbox
			produce := actor.Unbounded()
			if tt.band {
				produce = mailbox.Banded(sig)
			}
			got := make(chan string, 1024)
			pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &bandRecorder{got: got} },
				actor.WithMailbox(func() actor.Mailbox { mb = produce(); return mb })))
			expectLabels(t, got, "started")
			release := blockActor(t, sys.Root, pid)
			for _, m := range []bandNote{bgNote("bg1"), normalNote("n1"), nextNote("next1"), interjectNote("int1")} {
				sys.Root.Send(pid, m)
			}
			tt.end(sys.Root, pid)
			sys.Root.Send(pid, bgNote("bg2"))
			sys.Root.Send(pid, interjectNote("int2"))
			release()
			expectLabels(t, got, tt.want...)
			pollUntil(t, "mailbox empty after stop", func() bool { return mb.UserMessageCount() == 0 })
			if n := sig.Pending(); n != 0 {
				t.Errorf("Pending() = %d after the actor stopped, want 0", n)
			}
		})
	}
}

func TestSignal(t *testing.T) {
	sys := newQuietSystem()
	sig := new(mailbox.Signal)
	var calls atomic.Int32
	var pendingAtCall []int // written by the callback on this test's goroutine
	sig.SetOnInterject(func() {
		calls.Add(1)
		pendingAtCall = append(pendingAtCall, sig.Pending())
	})
	pid, got := spawnRecorder(t, sys, mailbox.Banded(sig), sig)
	release := blockActor(t, sys.Root, pid)

	sys.Root.Send(pid, normalNote("n1"))
	sys.Root.Send(pid, nextNote("next1"))
	if n := sig.Pending(); n != 0 || calls.Load() != 0 {
		t.Fatalf("after non-interject messages: Pending() = %d, callbacks %d; want 0, 0", n, calls.Load())
	}
	sys.Root.Send(pid, interjectNote("int1"))
	reply := sys.Root.RequestFuture(pid, interjectNote("int2"), mailboxWait)
	if n := sig.Pending(); n != 2 {
		t.Errorf("Pending() = %d, want 2", n)
	}
	if !slices.Equal(pendingAtCall, []int{1, 2}) {
		t.Errorf("Pending() seen by the callbacks = %v, want [1 2]", pendingAtCall)
	}
	sig.SetOnInterject(nil)
	sys.Root.Send(pid, interjectNote("int3"))
	if n := calls.Load(); n != 2 {
		t.Errorf("callbacks = %d after removing the callback, want 2", n)
	}
	release()
	// Each label carries Pending() as seen inside Receive.
	expectLabels(t, got, "int1:2", "int2:1", "int3:0", "next1:0", "n1:0")
	if _, err := reply.Result(); err != nil {
		t.Errorf("RequestFuture(int2): %v", err)
	}
}

// heldDispatcher schedules nothing by itself: the test runs the mailbox.
type heldDispatcher struct{ scheduled []func() }

func (d *heldDispatcher) Schedule(fn func()) { d.scheduled = append(d.scheduled, fn) }
func (d *heldDispatcher) Throughput() int    { return 300 }

// runAll runs what was scheduled, as the goroutine dispatcher would.
func (d *heldDispatcher) runAll() {
	for len(d.scheduled) > 0 {
		fn := d.scheduled[0]
		d.scheduled = d.scheduled[1:]
		fn()
	}
}

// fakeInvoker records what the mailbox delivers and panics on "panic".
type fakeInvoker struct {
	got       []string
	escalated []string
}

func labelOf(m any) string {
	switch m := actor.UnwrapEnvelopeMessage(m).(type) {
	case bandNote:
		return m.label
	case string:
		return m
	case noteBatch:
		return "batch"
	}
	return fmt.Sprintf("%T", m)
}

func (f *fakeInvoker) InvokeSystemMessage(m any) { f.got = append(f.got, "sys:"+labelOf(m)) }
func (f *fakeInvoker) InvokeUserMessage(m any) {
	if labelOf(m) == "panic" {
		panic("kaboom")
	}
	f.got = append(f.got, labelOf(m))
}
func (f *fakeInvoker) EscalateFailure(reason, m any) {
	f.escalated = append(f.escalated, fmt.Sprintf("%v:%s", reason, labelOf(m)))
}

// noteBatch is an actor.MessageBatch.
type noteBatch []any

func (b noteBatch) GetMessages() []any { return b }

// TestMailboxContract drives the mailbox directly, without an actor system,
// to pin down each rule of actor.Mailbox.
func TestMailboxContract(t *testing.T) {
	type post struct {
		system bool
		msg    any
	}
	user := func(m any) post { return post{msg: m} }
	system := func(m any) post { return post{system: true, msg: m} }
	tests := []struct {
		name      string
		posts     []post
		want      []string
		escalated []string
		count     int // UserMessageCount() after the run
	}{
		{
			name:  "system first",
			posts: []post{user(normalNote("u1")), system("s1"), user(interjectNote("u2")), system("s2")},
			want:  []string{"sys:s1", "sys:s2", "u2", "u1"},
		},
		{
			name:  "suspended runs system messages only",
			posts: []post{user(normalNote("u1")), system(&actor.SuspendMailbox{}), system("s1")},
			want:  []string{"sys:s1"},
			count: 1,
		},
		{
			name:  "resume",
			posts: []post{system(&actor.SuspendMailbox{}), user(normalNote("u1")), system(&actor.ResumeMailbox{})},
			want:  []string{"u1"},
		},
		{
			name:      "panic is escalated with the message and the loop goes on",
			posts:     []post{user(normalNote("u1")), user(&actor.MessageEnvelope{Message: normalNote("panic")}), user(normalNote("u2"))},
			want:      []string{"u1", "u2"},
			escalated: []string{"kaboom:panic"},
		},
		{
			name:  "noteBatch is unpacked, each in its band, then delivered itself",
			posts: []post{user(noteBatch{normalNote("n1"), interjectNote("int1"), bgNote("bg1")}), user(normalNote("n2"))},
			want:  []string{"int1", "n1", "batch", "n2", "bg1"},
		},
		{
			name:  "noteBatch in an envelope",
			posts: []post{user(&actor.MessageEnvelope{Message: noteBatch{bgNote("bg1"), nextNote("next1")}})},
			want:  []string{"next1", "batch", "bg1"},
		},
		{
			// protoactor's default mailbox drops a nil message and then spins
			// forever on its stale count.
			name:  "nil is a message",
			posts: []post{user(nil), user(normalNote("n1"))},
			want:  []string{"<nil>", "n1"},
		},
		{
			name:  "plain, unknown and empty priorities are normal",
			posts: []post{user(bgNote("bg1")), user("plain"), user(bandNote{"empty", ""}), user(bandNote{"bogus", "urgent"}), user(nextNote("next1"))},
			want:  []string{"next1", "plain", "empty", "bogus", "bg1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mb := mailbox.Banded(nil)()
			d, inv := &heldDispatcher{}, &fakeInvoker{}
			mb.RegisterHandlers(inv, d)
			mb.Start()
			for _, p := range tt.posts {
				if p.system {
					mb.PostSystemMessage(p.msg)
				} else {
					mb.PostUserMessage(p.msg)
				}
			}
			if n := len(d.scheduled); n != 1 {
				t.Errorf("scheduled %d times while idle, want 1", n)
			}
			d.runAll()
			if !slices.Equal(inv.got, tt.want) {
				t.Errorf("delivered %q, want %q", inv.got, tt.want)
			}
			if !slices.Equal(inv.escalated, tt.escalated) {
				t.Errorf("escalated %q, want %q", inv.escalated, tt.escalated)
			}
			if n := mb.UserMessageCount(); n != tt.count {
				t.Errorf("UserMessageCount() = %d, want %d", n, tt.count)
			}
		})
	}
}

func TestMailboxUserMessageCount(t *testing.T) {
	mb := mailbox.Banded(nil)()
	d := &heldDispatcher{}
	mb.RegisterHandlers(&fakeInvoker{}, d)
	for i, m := range []bandNote{bgNote("a"), normalNote("b"), nextNote("c"), interjectNote("d")} {
		mb.PostUserMessage(m)
		if n := mb.UserMessageCount(); n != i+1 {
			t.Fatalf("after %d posts: UserMessageCount() = %d", i+1, n)
		}
	}
	mb.PostSystemMessage("s")
	if n := mb.UserMessageCount(); n != 4 {
		t.Errorf("after a system message: UserMessageCount() = %d, want 4", n)
	}
	d.runAll()
	if n := mb.UserMessageCount(); n != 0 {
		t.Errorf("after the run: UserMessageCount() = %d, want 0", n)
	}
}

// countingMiddleware counts the mailbox events it sees.
type countingMiddleware struct{ started, posted, received, empty int }

func (c *countingMiddleware) MailboxStarted()     { c.started++ }
func (c *countingMiddleware) MessagePosted(any)   { c.posted++ }
func (c *countingMiddleware) MessageReceived(any) { c.received++ }
func (c *countingMiddleware) MailboxEmpty()       { c.empty++ }

func TestMailboxMiddleware(t *testing.T) {
	mw := &countingMiddleware{}
	mb := mailbox.Banded(nil, mw)()
	d := &heldDispatcher{}
	mb.RegisterHandlers(&fakeInvoker{}, d)
	mb.Start()
	mb.PostUserMessage(normalNote("a"))
	mb.PostUserMessage(interjectNote("b"))
	mb.PostSystemMessage("s")
	d.runAll()
	want := countingMiddleware{started: 1, posted: 3, received: 3, empty: 1}
	if *mw != want {
		t.Errorf("middleware saw %+v, want %+v", *mw, want)
	}
}

func TestMailboxNoGoroutineLeak(t *testing.T) {
	sys := newQuietSystem()
	runtime.GC()
	before := runtime.NumGoroutine()
	const agents, each = 50, 200
	pids := make([]*actor.PID, agents)
	for i := range pids {
		sig := new(mailbox.Signal)
		pids[i] = sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &bandRecorder{got: make(chan string, 2*each), sig: sig} },
			actor.WithMailbox(mailbox.Banded(sig))))
	}
	var wg sync.WaitGroup
	for _, pid := range pids {
		wg.Go(func() {
			for i := range each {
				sys.Root.Send(pid, bandNote{fmt.Sprint(i), []messages.Priority{messages.PriorityInterject, messages.PriorityNormal}[i%2]})
			}
		})
	}
	wg.Wait()
	for _, pid := range pids {
		if err := sys.Root.PoisonFuture(pid).Wait(); err != nil {
			t.Fatalf("poison %v: %v", pid, err)
		}
	}
	pollUntil(t, fmt.Sprintf("goroutines back to %d", before), func() bool { return runtime.NumGoroutine() <= before })
}

// benchMailbox measures one message hop: Send to an actor on mb, which
// acknowledges it on a channel.
func benchMailbox(b *testing.B, mb actor.MailboxProducer) {
	sys := newQuietSystem()
	ack := make(chan struct{}, 1)
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(bandNote); ok {
			ack <- struct{}{}
		}
	}, actor.WithMailbox(mb)))
	msg := normalNote("ping")
	b.ReportAllocs()
	for b.Loop() {
		sys.Root.Send(pid, msg)
		<-ack
	}
	b.StopTimer()
	if err := sys.Root.PoisonFuture(pid).Wait(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkBandMailbox(b *testing.B)    { benchMailbox(b, mailbox.Banded(nil)) }
func BenchmarkDefaultMailbox(b *testing.B) { benchMailbox(b, actor.Unbounded()) }

// ExampleBanded wires an agent-like actor to the band mailbox and its
// interject Signal. The actor is held busy while three messages arrive; the
// interject overtakes the others, and the Signal saw it coming.
func ExampleBanded() {
	sys := newQuietSystem()
	sig := new(mailbox.Signal)
	sig.SetOnInterject(func() { fmt.Println("interject waiting:", sig.Pending()) })

	busy, done := make(chan struct{}), make(chan struct{})
	got := make(chan string, 3)
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case chan struct{}: // a long step, for the example
			close(busy)
			<-m
		case bandNote:
			got <- m.label
		}
	}, actor.WithMailbox(mailbox.Banded(sig))))

	sys.Root.Send(pid, done)
	<-busy
	sys.Root.Send(pid, bgNote("tidy up"))
	sys.Root.Send(pid, normalNote("do this"))
	sys.Root.Send(pid, interjectNote("stop, do that instead"))
	close(done)
	for range 3 {
		fmt.Println(<-got)
	}
	// Output:
	// interject waiting: 1
	// stop, do that instead
	// do this
	// tidy up
}
