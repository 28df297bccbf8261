package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// rateLimitedVendor speaks the OpenAI Responses wire format: it answers
// 429 rate_limit_exceeded with Retry-After while told to, then the success
// fixture. It counts requests.
type rateLimitedVendor struct {
	limited, ok []byte
	mu          sync.Mutex
	failing     int
	requests    int
}

func newRateLimitedVendor(t *testing.T) (*rateLimitedVendor, *httptest.Server) {
	t.Helper()
	v := &rateLimitedVendor{}
	var err error
	if v.limited, err = os.ReadFile("../../providers/openai/testdata/error_429.json"); err != nil {
		t.Fatal(err)
	}
	if v.ok, err = os.ReadFile("../../providers/openai/testdata/responses_success.json"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	return v, srv
}

func (v *rateLimitedVendor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	v.mu.Lock()
	v.requests++
	fail := v.failing > 0
	if fail {
		v.failing--
	}
	v.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if fail {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write(v.limited)
		return
	}
	_, _ = w.Write(v.ok)
}

// fail makes the next n requests answer 429.
func (v *rateLimitedVendor) fail(n int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.failing = n
}

func (v *rateLimitedVendor) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.requests
}

// waitSummary polls (another process) until the agent's summary
// satisfies ok.
func waitSummary(t *testing.T, home, id string, ok func(control.AgentSummary) bool) control.AgentSummary {
	t.Helper()
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	deadline := time.Now().Add(e2eWait)
	for {
		st, err := c.Status(context.Background(), id)
		if err == nil && ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: summary %+v (%v) not reached after %s", id, st, err, e2eWait)
		}
		time.Sleep(20 * time.Millisecond) // polling another process
	}
}

// The provider chain tries a round three times (two quick retries) before
// the turn sees the failure.
const chainAttempts = 3

// TestModelRetrySurvivesSIGKILL: a 429 burst longer than the provider
// chain's quick retries leaves the turn waiting on a durable retry (status
// shows it); the daemon is SIGKILLed while it waits, and after the restart
// the retry fires once and the turn completes. Then the operator runs a
// waiting retry at once, and cancels another one.
func TestModelRetrySurvivesSIGKILL(t *testing.T) {
	vendor, srv := newRateLimitedVendor(t)
	home := filepath.Join(t.TempDir(), "home")
	env := []string{"OPENAI_API_KEY=test-key", "HOLON_OPENAI_BASE_URL=" + srv.URL + "/v1/"}
	args := []string{"--model", "openai/gpt-5", "--model-retry-base", "6s", "--model-retry-max", "6s"}
	d := startRunEnv(t, home, env, args...)

	vendor.fail(chainAttempts)
	if code, out, errOut := client(t, home, "prompt", "What is the weather in Oslo?"); code != 0 {
		t.Fatalf("prompt = %d %s %s", code, out, errOut)
	}
	st := waitSummary(t, home, "main", func(s control.AgentSummary) bool { return s.ModelRetry != nil })
	if st.ModelRetry.Attempt != 2 || st.ModelRetry.FailureCode != "rate_limited" || !st.TurnInFlight {
		t.Fatalf("summary = %+v, want the turn in flight retrying a rate_limited call as attempt 2", st)
	}
	if code, out, _ := client(t, home, "status"); code != 0 || !strings.Contains(out, "retrying at") || !strings.Contains(out, "attempt 2") {
		t.Fatalf("status = %d %q, want it to show the pending retry", code, out)
	}
	d.kill()
	if n := vendor.count(); n != chainAttempts {
		t.Fatalf("the vendor saw %d requests before the kill, want %d", n, chainAttempts)
	}

	d = startRunEnv(t, home, env, args...)
	st = waitSummary(t, home, "main", func(s control.AgentSummary) bool { return s.TurnIndex == 1 && !s.TurnInFlight })
	if st.ModelRetry != nil || st.LastClosure == nil || st.LastClosure.Outcome != messages.OutcomeCompleted {
		t.Fatalf("summary after the restart = %+v, want the turn completed", st)
	}
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	got := [4]int{len(eventsOf(t, c, "main", messages.EventModelRetryScheduled)), len(eventsOf(t, c, "main", messages.EventTimerFired)),
		len(eventsOf(t, c, "main", messages.EventProviderRoundCompleted)), len(eventsOf(t, c, "main", messages.EventRuntimeError))}
	if got != [4]int{1, 1, 1, 0} || vendor.count() != chainAttempts+1 {
		t.Fatalf("retries scheduled, fired, rounds completed, runtime errors = %v, vendor requests %d; want [1 1 1 0] and %d",
			got, vendor.count(), chainAttempts+1)
	}
	if code, _, errOut := client(t, home, "agents", "retry"); code != exitFailure || !strings.Contains(errOut, "not waiting to retry") {
		t.Fatalf("agents retry with nothing waiting = %d %q", code, errOut)
	}

	vendor.fail(chainAttempts) // retry now: the operator does not wait for the timer
	client(t, home, "prompt", "And in Bergen?")
	waitSummary(t, home, "main", func(s control.AgentSummary) bool { return s.ModelRetry != nil })
	if code, out, errOut := client(t, home, "agents", "retry"); code != 0 || !strings.Contains(out, "retrying the model call now") {
		t.Fatalf("agents retry = %d %q %q", code, out, errOut)
	}
	waitSummary(t, home, "main", func(s control.AgentSummary) bool { return s.TurnIndex == 2 && !s.TurnInFlight })

	vendor.fail(chainAttempts) // cancel: the turn fails with the last failure
	client(t, home, "prompt", "And in Tromsø?")
	waitSummary(t, home, "main", func(s control.AgentSummary) bool { return s.ModelRetry != nil })
	if code, out, errOut := client(t, home, "agents", "retry", "--cancel"); code != 0 || !strings.Contains(out, "retry cancelled") {
		t.Fatalf("agents retry --cancel = %d %q %q", code, out, errOut)
	}
	st = waitSummary(t, home, "main", func(s control.AgentSummary) bool { return s.TurnIndex == 3 && !s.TurnInFlight })
	if st.LastClosure == nil || st.LastClosure.Outcome != messages.OutcomeFailed || !strings.Contains(st.LastError, "cancelled the model retry") {
		t.Fatalf("summary after the cancel = %+v", st)
	}
	if n := vendor.count(); n != 3*chainAttempts+2 {
		t.Fatalf("the vendor saw %d requests, want %d", n, 3*chainAttempts+2)
	}
	d.stop()
}
