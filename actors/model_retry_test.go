package actors_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/openai"
	"github.com/holon-actors/holon-actors/testkit"
)

// limitedOpenAI is a server speaking the OpenAI Responses wire format that
// answers 429 rate_limit_exceeded (with Retry-After) while it is told to,
// and the success fixture otherwise. It counts the requests it saw.
type limitedOpenAI struct {
	t          *testing.T
	retryAfter string
	mu         sync.Mutex
	failing    int // the next failing requests get 429
	requests   int
}

func newLimitedOpenAI(t *testing.T, failing int, retryAfter string) (*limitedOpenAI, providers.Provider) {
	t.Helper()
	limited, err := os.ReadFile("../providers/openai/testdata/error_429.json")
	if err != nil {
		t.Fatal(err)
	}
	ok, err := os.ReadFile("../providers/openai/testdata/responses_success.json")
	if err != nil {
		t.Fatal(err)
	}
	f := &limitedOpenAI{t: t, failing: failing, retryAfter: retryAfter}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		f.requests++
		fail := f.failing > 0
		if fail {
			f.failing--
		}
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if fail {
			if f.retryAfter != "" {
				w.Header().Set("Retry-After", f.retryAfter)
			}
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write(limited)
			return
		}
		_, _ = w.Write(ok)
	}))
	t.Cleanup(srv.Close)
	ref, _ := providers.ParseModelRef("openai/gpt-5")
	p, err := openai.NewResponses(providers.Endpoint{Ref: ref, Transport: providers.TransportResponses, BaseURL: srv.URL + "/v1/", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	return f, p
}

func (f *limitedOpenAI) fail(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failing = n
}

func (f *limitedOpenAI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// retryHarness runs agents on p with durable retries from 30 s, doubling
// to 10 min, for an hour, and jitter pinned to its lowest value.
func retryHarness(t *testing.T, p providers.Provider) *testkit.Harness {
	return testkit.NewWith(t, testkit.Options{Deps: func(_ string, d *actors.AgentDeps) {
		d.Provider = p
		d.ModelRetry = actors.ModelRetry{Horizon: time.Hour, BaseDelay: 30 * time.Second, MaxDelay: 10 * time.Minute,
			Jitter: func() float64 { return 0 }}
	}})
}

// TestModelRetryAcrossCrash: a turn whose model answers 429 with
// Retry-After waits on a durable timer instead of failing; the retry fires
// when due (not before, honouring Retry-After over the shorter backoff), a
// second 429 schedules attempt 2, the runtime crashes while it waits, and
// after the restart the retry fires exactly once and the turn completes.
func TestModelRetryAcrossCrash(t *testing.T) {
	vendor, p := newLimitedOpenAI(t, 2, "120")
	h := retryHarness(t, p)
	ctx := context.Background()
	h.Prompt("main", "What is the weather in Oslo?")

	first := decode[messages.ModelRetryScheduled](t, h.WaitEvent("main", testkit.OfType(messages.EventModelRetryScheduled)))
	if first.Attempt != 1 || !first.DueAt.Equal(h.Clock.Now().Add(2*time.Minute)) || first.Failure.Code != string(providers.KindRateLimited) {
		t.Fatalf("first retry = %+v, want attempt 1 due in 2m (Retry-After) for rate_limited", first)
	}
	info, err := h.Runtime.Info(ctx, "main")
	if err != nil || info.ModelRetry == nil || info.ModelRetry.Attempt != 2 || !info.ModelRetry.DueAt.Equal(first.DueAt) || !info.TurnInFlight {
		t.Fatalf("info = %+v (%v), want the turn in flight retrying at %v, attempt 2", info, err, first.DueAt)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(2*time.Minute - time.Second)
	if n := vendor.count(); n != 1 {
		t.Fatalf("the vendor saw %d requests before the retry was due, want 1", n)
	}
	h.Clock.Advance(time.Second)
	second := decode[messages.ModelRetryScheduled](t, h.WaitEvent("main", testkit.NthOfType(messages.EventModelRetryScheduled, 2)))
	if second.Attempt != 2 || !second.FirstFailedAt.Equal(first.FirstFailedAt) || second.TurnID != first.TurnID {
		t.Fatalf("second retry = %+v, want attempt 2 of the same run", second)
	}
	waitArmed(t, h, 1)

	h.Store().Crash()
	h.Clock.Advance(time.Minute) // not yet due
	if active := h.Restart(); len(active) != 1 || active[0] != "main" {
		t.Fatalf("Recover activated %v, want [main]", active)
	}
	waitArmed(t, h, 1)
	if n := vendor.count(); n != 2 {
		t.Fatalf("the vendor saw %d requests after the restart, before the retry was due; want 2", n)
	}
	h.Clock.Advance(time.Minute)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalCompleted || tt.LastAssistantMessage != "It is 4°C and raining in Oslo." {
		t.Fatalf("turn = %+v, want completed with the vendor's answer", tt)
	}
	h.Restart() // and once more: nothing fires again
	h.Prompt("main", "ping")
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	evs := h.Events("main")
	if n := vendor.count(); n != 4 {
		t.Fatalf("the vendor saw %d requests, want 4 (two 429s, the retry, the ping)", n)
	}
	if got := [3]int{testkit.CountOfType(evs, messages.EventModelRetryScheduled), testkit.CountOfType(evs, messages.EventTimerFired),
		testkit.CountOfType(evs, messages.EventRuntimeError)}; got != [3]int{2, 2, 0} {
		t.Fatalf("retries scheduled, timers fired, runtime errors = %v, want [2 2 0]:\n%s", got, testkit.Describe(evs))
	}
	if info, _ := h.Runtime.Info(ctx, "main"); info.ModelRetry != nil {
		t.Fatalf("info after the turn = %+v, want no pending retry", info.ModelRetry)
	}
}

// TestModelRetryOperator: the operator can run a waiting retry now (the
// timer's own fire then finds nothing) or cancel it, which fails the turn
// with the last failure and notifies no one; without a waiting retry both
// are refused and change nothing.
func TestModelRetryOperator(t *testing.T) {
	vendor, p := newLimitedOpenAI(t, 1, "")
	h := retryHarness(t, p)
	ctx := context.Background()
	if _, err := h.Runtime.RetryModel(ctx, "main", false); !errors.Is(err, actors.ErrNoModelRetry) {
		t.Fatalf("RetryModel with nothing waiting = %v, want ErrNoModelRetry", err)
	}

	h.Prompt("main", "Hello")
	h.WaitEvent("main", testkit.OfType(messages.EventModelRetryScheduled))
	waitArmed(t, h, 1)
	info, err := h.Runtime.RetryModel(ctx, "main", false)
	if err != nil || info.ModelRetry != nil {
		t.Fatalf("RetryModel now = %+v, %v; want no retry waiting any more", info.ModelRetry, err)
	}
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalCompleted {
		t.Fatalf("turn after retry now = %+v", tt)
	}
	waitArmed(t, h, 0)
	h.Clock.Advance(time.Hour)
	if n := vendor.count(); n != 2 {
		t.Fatalf("the vendor saw %d requests, want 2: the retry ran once, early", n)
	}

	vendor.fail(1)
	h.Prompt("main", "Again")
	h.WaitEvent("main", testkit.NthOfType(messages.EventModelRetryScheduled, 2))
	if _, err := h.Runtime.RetryModel(ctx, "main", true); err != nil {
		t.Fatal(err)
	}
	tt = decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2)))
	re := decode[messages.RuntimeError](t, h.WaitEvent("main", testkit.OfType(messages.EventRuntimeError)))
	if tt.Kind != messages.TerminalAborted || re.Failure.Code != "model_retry_cancelled" || !strings.Contains(re.Failure.Summary, "rate_limited") {
		t.Fatalf("cancelled turn = %+v, failure %+v", tt, re.Failure)
	}
	if _, err := h.Runtime.Info(ctx, "main"); err != nil { // the agent has settled after the cancel
		t.Fatal(err)
	}
	evs := h.Events("main")
	if n := testkit.CountOfType(evs, messages.EventOperatorNotificationRequested); n != 0 {
		t.Fatalf("%d operator notifications for the operator's own cancel, want 0", n)
	}
	if st, _ := h.Runtime.State(ctx, "main"); len(st.Timers) != 0 {
		t.Fatalf("timers after the cancel = %v, want none", st.Timers)
	}
	if _, err := h.Runtime.RetryModel(ctx, "main", true); !errors.Is(err, actors.ErrNoModelRetry) {
		t.Fatalf("cancel with nothing waiting = %v, want ErrNoModelRetry", err)
	}
	if got := len(h.Events("main")); got != len(evs) {
		t.Fatalf("a refused cancel wrote %d events", got-len(evs))
	}
}

// TestModelRetryHorizon: a vendor that keeps refusing is retried with
// doubling delays, capped, until the horizon, then the turn fails saying
// so.
func TestModelRetryHorizon(t *testing.T) {
	vendor, p := newLimitedOpenAI(t, 1000, "")
	h := retryHarness(t, p)
	h.Prompt("main", "Hello")
	var delays []time.Duration
	for attempt := 1; ; attempt++ {
		ev := h.WaitEvent("main", func(ev messages.Event) bool {
			if ev.Type == messages.EventTurnTerminal {
				return true
			}
			r, err := ev.Decode()
			return err == nil && ev.Type == messages.EventModelRetryScheduled && r.(messages.ModelRetryScheduled).Attempt == attempt
		})
		if ev.Type == messages.EventTurnTerminal {
			break
		}
		r := decode[messages.ModelRetryScheduled](t, ev)
		delays = append(delays, r.DueAt.Sub(h.Clock.Now()))
		waitArmed(t, h, 1)
		h.Clock.Advance(r.DueAt.Sub(h.Clock.Now()))
	}
	// 30 s doubling, capped at 10 min, jittered to the lower half; the
	// last one is cut to the horizon (1 h after the first failure).
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute}
	for range 10 {
		want = append(want, 5*time.Minute)
	}
	want = append(want, 2*time.Minute+15*time.Second)
	if !slices.Equal(delays, want) {
		t.Fatalf("delays = %v, want %v", delays, want)
	}
	re := decode[messages.RuntimeError](t, h.WaitEvent("main", testkit.OfType(messages.EventRuntimeError)))
	if re.Failure.Code != string(providers.KindRateLimited) || !strings.Contains(re.Failure.Summary, "Gave up after 17 attempts over 1h0m0s") {
		t.Fatalf("failure = %+v, want rate_limited saying it gave up", re.Failure)
	}
	if n := vendor.count(); n != len(delays)+1 {
		t.Fatalf("the vendor saw %d requests for %d retries, want one more than the retries", n, len(delays))
	}
}

// TestModelRetryEndsWithTheTurn: a turn interrupted (or stopped) while
// it waits on a model retry takes the retry with it: no timer is left in
// the state, and when the timer service's fire still comes, nothing calls
// the model again.
func TestModelRetryEndsWithTheTurn(t *testing.T) {
	vendor, p := newLimitedOpenAI(t, 1, "")
	h := retryHarness(t, p)
	ctx := context.Background()
	h.Prompt("main", "Hello")
	h.WaitEvent("main", testkit.OfType(messages.EventModelRetryScheduled))
	waitArmed(t, h, 1)
	if _, err := h.Runtime.Interrupt(ctx, "main", "", "operator interrupt"); err != nil {
		t.Fatal(err)
	}
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalAborted {
		t.Fatalf("turn = %+v, want aborted by the interrupt", tt)
	}
	st, err := h.Runtime.State(ctx, "main")
	if err != nil || len(st.Timers) != 0 || st.Info().ModelRetry != nil {
		t.Fatalf("state after the interrupt: timers %v, retry %+v (%v); want neither", st.Timers, st.Info().ModelRetry, err)
	}
	h.Clock.Advance(time.Hour) // the service's fire, if armed, finds no timer
	h.Prompt("main", "ping")   // a later turn proves the agent went on
	h.WaitEvent("main", testkit.NthOfType(messages.EventTurnTerminal, 2))
	if n := vendor.count(); n != 2 {
		t.Fatalf("the vendor saw %d requests, want 2 (the 429 and the ping)", n)
	}
	if n := testkit.CountOfType(h.Events("main"), messages.EventTimerFired); n != 0 {
		t.Fatalf("%d timer_fired events after the interrupt, want 0", n)
	}
}

// TestModelRetryWhilePaused: a retry that comes due while its agent is
// paused does not call the model, and running it now is refused (it would
// not run now, whatever the operator is told); the resume runs it. A resumed agent
// whose turn is still in flight is running, not idle: before the pause it
// was awake_running while it waited, and status (and daemon status, which
// counts it as processing) must not call it idle now.
func TestModelRetryWhilePaused(t *testing.T) {
	vendor, p := newLimitedOpenAI(t, 2, "120")
	h := retryHarness(t, p)
	ctx := context.Background()
	h.Prompt("main", "Hello")
	h.WaitEvent("main", testkit.OfType(messages.EventModelRetryScheduled))
	waitArmed(t, h, 1)
	if _, err := h.Runtime.Control(ctx, "main", actors.OpPause, ""); err != nil {
		t.Fatal(err)
	}
	before := len(h.Events("main"))
	if _, err := h.Runtime.RetryModel(ctx, "main", false); !errors.Is(err, actors.ErrRetryPaused) {
		t.Fatalf("RetryModel now while paused = %v, want ErrRetryPaused (it would not run now)", err)
	}
	if got := len(h.Events("main")); got != before || vendor.count() != 1 {
		t.Fatalf("a refused retry wrote %d events, vendor requests %d", got-before, vendor.count())
	}
	h.Clock.Advance(2 * time.Minute)
	h.WaitEvent("main", testkit.OfType(messages.EventTimerFired))
	if info, err := h.Runtime.Info(ctx, "main"); err != nil || info.Status != messages.StatusPaused || !info.TurnInFlight {
		t.Fatalf("info after the fire while paused = %+v, %v", info, err)
	}
	if n := vendor.count(); n != 1 {
		t.Fatalf("the vendor saw %d requests, want 1: no model call while paused", n)
	}

	if _, err := h.Runtime.Control(ctx, "main", actors.OpResume, ""); err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("main", testkit.NthOfType(messages.EventModelRetryScheduled, 2))
	info, err := h.Runtime.Info(ctx, "main")
	if err != nil || !info.TurnInFlight || info.ModelRetry == nil || info.Status != messages.StatusAwakeRunning {
		t.Fatalf("info after the resume = status %s, turn in flight %v, retry %+v (%v); want awake_running with the turn retrying",
			info.Status, info.TurnInFlight, info.ModelRetry, err)
	}
	if n := vendor.count(); n != 2 {
		t.Fatalf("the vendor saw %d requests, want 2: the resume ran the retry once", n)
	}
	waitArmed(t, h, 1)
	h.Clock.Advance(2 * time.Minute)
	tt := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
	if tt.Kind != messages.TerminalCompleted {
		t.Fatalf("turn = %+v, want completed", tt)
	}
	h.WaitEvent("main", func(ev messages.Event) bool {
		r, err := ev.Decode()
		return err == nil && ev.Type == messages.EventAgentStateChanged && r.(messages.AgentStateChanged).To == messages.StatusAwakeIdle
	})
}
