package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
)

// testSecret is 32 bytes, the shortest secret New accepts.
const testSecret = "0123456789abcdef0123456789abcdef"

// guard bounds every wait for an event, so a hang fails the test with a
// message instead of timing out the run; no test waits for it to pass.
const guard = 10 * time.Second

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func note() messages.OperatorNotification {
	return messages.OperatorNotification{NotificationID: "ntf-1", AgentID: "agt-1", RequestedByAgentID: "agt-1",
		TargetOperatorBoundary: messages.BoundaryPrimaryOperator, Message: "Approve the deploy?\nIt touches prod.",
		Summary: "Approve the deploy?", Reason: messages.NotifyAgentTool, CreatedAt: t0.Add(-time.Minute)}
}

// timerClock is a fake clock that also reports every timer made with
// NewTimer: Deliver's backoff waits. Attempt timeouts use AfterFunc and
// are not reported.
type timerClock struct {
	*clockwork.FakeClock
	timers chan time.Duration // NewTimer sends once the timer exists; buffered past any test's retries
}

func newClock() *timerClock {
	return &timerClock{FakeClock: clockwork.NewFakeClockAt(t0), timers: make(chan time.Duration, 16)}
}

func (c *timerClock) NewTimer(d time.Duration) clockwork.Timer {
	t := c.FakeClock.NewTimer(d)
	c.timers <- d
	return t
}

// waitBackoff waits until Deliver is blocked on its backoff timer and
// returns the timer's duration. Call it after receiving a retrying report:
// by then the attempt's timeout timer is stopped, so the one waiter is the
// backoff timer.
func (c *timerClock) waitBackoff(t *testing.T) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := c.BlockUntilContext(ctx, 1); err != nil {
		t.Fatalf("Deliver never waited on a backoff timer: %v", err)
	}
	return recv(t, c.timers, "backoff timer")
}

// answer is how the receiver answers one request.
type answer struct {
	status int
	header map[string]string
	body   string
	block  bool // hold the request until the client gives up
}

// request is what the receiver got.
type request struct {
	header    http.Header
	body      []byte
	intent    notify.Intent
	verifyErr error // Verify on the receiver's side, against the test clock
}

// receiver is a webhook receiver on loopback: it verifies, decodes and
// records every request, and answers from a script whose last answer
// repeats.
type receiver struct {
	*httptest.Server
	arrived chan struct{} // a send per request, before answering; buffered

	mu      sync.Mutex
	answers []answer
	got     []request
}

func serve(t *testing.T, clock clockwork.Clock, answers ...answer) *receiver {
	t.Helper()
	r := &receiver{answers: answers, arrived: make(chan struct{}, 16)}
	release := make(chan struct{}) // unblocks held requests when the test ends
	r.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		a := r.record(req, clock)
		r.arrived <- struct{}{}
		if a.block {
			select {
			case <-req.Context().Done():
			case <-release:
			}
			return
		}
		for k, v := range a.header {
			rw.Header().Set(k, v)
		}
		rw.WriteHeader(a.status)
		io.WriteString(rw, a.body)
	}))
	t.Cleanup(r.Close)
	t.Cleanup(func() { close(release) }) // runs first: Close waits for handlers
	return r
}

func (r *receiver) record(req *http.Request, clock clockwork.Clock) answer {
	body, _ := io.ReadAll(req.Body)
	got := request{header: req.Header.Clone(), body: body}
	got.verifyErr = notify.Verify([]byte(testSecret), req.Header.Get(notify.HeaderTimestamp),
		req.Header.Get(notify.HeaderSignature), body, clock.Now(), notify.DefaultTolerance)
	if err := json.Unmarshal(body, &got.intent); err != nil {
		got.verifyErr = errors.Join(got.verifyErr, fmt.Errorf("decode intent: %w", err))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, got)
	return r.answers[min(len(r.got), len(r.answers))-1]
}

func (r *receiver) requests() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]request(nil), r.got...)
}

func newWebhook(t *testing.T, clock clockwork.Clock, url string, tweak func(*notify.Config)) *notify.Webhook {
	t.Helper()
	cfg := notify.Config{URL: url, Secret: []byte(testSecret), Clock: clock}
	if tweak != nil {
		tweak(&cfg)
	}
	w, err := notify.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return w
}

// delivery is a Deliver call running on its own goroutine.
type delivery struct {
	reports chan messages.OperatorNotificationDelivery // report sends; buffered past any test's attempts
	done    chan messages.DeliveryStatus               // Deliver's result; buffered
	cancel  context.CancelFunc                         // cancels Deliver's context
}

// deliver starts w.Deliver(n); the test's cleanup cancels it and waits for
// it to return.
func deliver(t *testing.T, w *notify.Webhook, n messages.OperatorNotification) *delivery {
	ctx, cancel := context.WithCancel(context.Background())
	d := &delivery{reports: make(chan messages.OperatorNotificationDelivery, 16),
		done: make(chan messages.DeliveryStatus, 1), cancel: cancel}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		d.done <- w.Deliver(ctx, n, func(r messages.OperatorNotificationDelivery) { d.reports <- r })
	}()
	t.Cleanup(func() {
		cancel()
		<-finished
	})
	return d
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatalf("no %s within %v", what, guard)
		panic("unreachable")
	}
}

// wantReport is a report's expected fields; errHas is a substring of
// Error ("" wants no error).
type wantReport struct {
	status     messages.DeliveryStatus
	attempt    int
	httpStatus int
	errHas     string
	at         time.Time
}

func (d *delivery) expect(t *testing.T, want wantReport) messages.OperatorNotificationDelivery {
	t.Helper()
	r := recv(t, d.reports, fmt.Sprintf("%s report", want.status))
	if r.NotificationID != "ntf-1" || r.Status != want.status || r.Attempt != want.attempt || r.HTTPStatus != want.httpStatus {
		t.Errorf("report = {%s %s attempt %d HTTP %d}, want {ntf-1 %s attempt %d HTTP %d}",
			r.NotificationID, r.Status, r.Attempt, r.HTTPStatus, want.status, want.attempt, want.httpStatus)
	}
	if want.errHas == "" && r.Error != "" || !strings.Contains(r.Error, want.errHas) {
		t.Errorf("report error = %q, want it to contain %q", r.Error, want.errHas)
	}
	if !r.At.Equal(want.at) {
		t.Errorf("report at = %v, want %v (the clock's now)", r.At, want.at)
	}
	return r
}

func (d *delivery) result(t *testing.T, want messages.DeliveryStatus) {
	t.Helper()
	if got := recv(t, d.done, "Deliver result"); got != want {
		t.Errorf("Deliver = %s, want %s", got, want)
	}
	select {
	case r := <-d.reports:
		t.Errorf("unexpected report after the last: %+v", r)
	default:
	}
}

// checkRequests checks that the receiver verified every request and got
// the same delivery ID on each, with attempts counting from 1 and sent_at
// and the timestamp at sentAt[i].
func checkRequests(t *testing.T, got []request, sentAt ...time.Time) {
	t.Helper()
	if len(got) != len(sentAt) {
		t.Fatalf("receiver got %d requests, want %d", len(got), len(sentAt))
	}
	for i, r := range got {
		if r.verifyErr != nil {
			t.Errorf("request %d: receiver: %v", i+1, r.verifyErr)
		}
		in := r.intent
		if in.Type != notify.IntentType || in.DeliveryID != "ntf-1" || in.Attempt != i+1 || !in.SentAt.Equal(sentAt[i]) {
			t.Errorf("request %d intent = {%s %s attempt %d sent %v}, want {%s ntf-1 attempt %d sent %v}",
				i+1, in.Type, in.DeliveryID, in.Attempt, in.SentAt, notify.IntentType, i+1, sentAt[i])
		}
		if h := r.header.Get(notify.HeaderDelivery); h != "ntf-1" {
			t.Errorf("request %d %s = %q, want ntf-1", i+1, notify.HeaderDelivery, h)
		}
		if h, want := r.header.Get(notify.HeaderTimestamp), fmt.Sprint(sentAt[i].Unix()); h != want {
			t.Errorf("request %d %s = %q, want %s", i+1, notify.HeaderTimestamp, h, want)
		}
	}
}

func TestDeliverAcceptedFirstTry(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: http.StatusNoContent})
	d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())

	d.expect(t, wantReport{status: messages.DeliveryAcceptedByTransport, attempt: 1, httpStatus: 204, at: t0})
	d.result(t, messages.DeliveryAcceptedByTransport)
	got := rcv.requests()
	checkRequests(t, got, t0)
	for k, want := range map[string]string{"Content-Type": "application/json", "User-Agent": "holon-actors-notify/1"} {
		if h := got[0].header.Get(k); h != want {
			t.Errorf("%s = %q, want %q", k, h, want)
		}
	}
	wantJSON, _ := json.Marshal(note())
	if gotJSON, _ := json.Marshal(got[0].intent.Notification); string(gotJSON) != string(wantJSON) {
		t.Errorf("notification = %s, want %s", gotJSON, wantJSON)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(got[0].body, &raw); err != nil {
		t.Fatalf("body: %v", err)
	}
	if s := string(raw["sent_at"]); s != `"2026-03-04T05:06:07Z"` {
		t.Errorf("sent_at = %s, want RFC 3339 UTC", s)
	}
}

func TestDeliverRetriesServerError(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: 503, body: "upstream\ndown"}, answer{status: 200})
	d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())

	d.expect(t, wantReport{status: messages.DeliveryRetrying, attempt: 1, httpStatus: 503, errHas: "HTTP 503: upstream down", at: t0})
	wait := c.waitBackoff(t)
	if wait <= 0 || wait > time.Second {
		t.Errorf("first backoff = %v, want in (0, 1s]", wait)
	}
	c.Advance(wait)
	d.expect(t, wantReport{status: messages.DeliveryAcceptedByTransport, attempt: 2, httpStatus: 200, at: t0.Add(wait)})
	d.result(t, messages.DeliveryAcceptedByTransport)
	checkRequests(t, rcv.requests(), t0, t0.Add(wait))
}

func TestDeliverHonoursRetryAfter(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		want       time.Duration
	}{
		{"seconds", "7", 7 * time.Second},
		{"capped at max backoff", "3600", 20 * time.Second},
		{"http date", t0.Add(15 * time.Second).Format(http.TimeFormat), 15 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			rcv := serve(t, c, answer{status: 429, header: map[string]string{"Retry-After": tt.retryAfter}}, answer{status: 202})
			w := newWebhook(t, c, rcv.URL, func(cfg *notify.Config) { cfg.MaxBackoff = 20 * time.Second })
			d := deliver(t, w, note())

			d.expect(t, wantReport{status: messages.DeliveryRetrying, attempt: 1, httpStatus: 429, errHas: "HTTP 429", at: t0})
			if wait := c.waitBackoff(t); wait != tt.want {
				t.Errorf("backoff after Retry-After: %s = %v, want %v", tt.retryAfter, wait, tt.want)
			}
			c.Advance(tt.want)
			d.expect(t, wantReport{status: messages.DeliveryAcceptedByTransport, attempt: 2, httpStatus: 202, at: t0.Add(tt.want)})
			d.result(t, messages.DeliveryAcceptedByTransport)
			checkRequests(t, rcv.requests(), t0, t0.Add(tt.want))
		})
	}
}

func TestDeliverFailsFastOnRefusal(t *testing.T) {
	tests := []struct {
		name   string
		answer answer
	}{
		{"bad request", answer{status: 400, body: `{"error":"unknown field"}`}},
		{"unauthorized", answer{status: 401}},
		{"not found", answer{status: 404}},
		{"redirect not followed", answer{status: 302, header: map[string]string{"Location": "/elsewhere"}}},
		{"permanent redirect not followed", answer{status: 308, header: map[string]string{"Location": "/elsewhere"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			rcv := serve(t, c, tt.answer)
			d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())

			d.expect(t, wantReport{status: messages.DeliveryFailed, attempt: 1, httpStatus: tt.answer.status,
				errHas: fmt.Sprintf("HTTP %d", tt.answer.status), at: t0})
			d.result(t, messages.DeliveryFailed)
			checkRequests(t, rcv.requests(), t0)
			if len(c.timers) != 0 {
				t.Errorf("Deliver started %d backoff timers, want none", len(c.timers))
			}
		})
	}
}

func TestDeliverGivesUpAfterMaxAttempts(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: 500, body: "boom"})
	d := deliver(t, newWebhook(t, c, rcv.URL, func(cfg *notify.Config) { cfg.MaxAttempts = 3 }), note())

	sent := []time.Time{t0}
	for attempt := 1; attempt < 3; attempt++ {
		d.expect(t, wantReport{status: messages.DeliveryRetrying, attempt: attempt, httpStatus: 500, errHas: "HTTP 500: boom", at: c.Now()})
		wait := c.waitBackoff(t)
		if ceiling := time.Second << (attempt - 1); wait <= 0 || wait > ceiling {
			t.Errorf("backoff %d = %v, want in (0, %v]", attempt, wait, ceiling)
		}
		c.Advance(wait)
		sent = append(sent, c.Now())
	}
	d.expect(t, wantReport{status: messages.DeliveryFailed, attempt: 3, httpStatus: 500,
		errHas: "HTTP 500: boom; gave up after 3 attempts", at: c.Now()})
	d.result(t, messages.DeliveryFailed)
	checkRequests(t, rcv.requests(), sent...)
}

func TestDeliverRetriesRefusedConnection(t *testing.T) {
	c := newClock()
	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL + "/hooks/T0/s3cr3t-path?token=s3cr3t-query"
	closed.Close()
	d := deliver(t, newWebhook(t, c, url, func(cfg *notify.Config) { cfg.MaxAttempts = 2 }), note())

	r := d.expect(t, wantReport{status: messages.DeliveryRetrying, attempt: 1, errHas: "connection refused", at: t0})
	wait := c.waitBackoff(t)
	c.Advance(wait)
	last := d.expect(t, wantReport{status: messages.DeliveryFailed, attempt: 2, errHas: "gave up after 2 attempts", at: t0.Add(wait)})
	d.result(t, messages.DeliveryFailed)
	for _, e := range []string{r.Error, last.Error} {
		if strings.Contains(e, "s3cr3t") {
			t.Errorf("report error %q quotes the webhook URL", e)
		}
	}
}

func TestDeliverTimesOutAttempt(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{block: true}, answer{status: 200})
	d := deliver(t, newWebhook(t, c, rcv.URL, func(cfg *notify.Config) { cfg.Timeout = 3 * time.Second }), note())

	recv(t, rcv.arrived, "first request")
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := c.BlockUntilContext(ctx, 1); err != nil { // the attempt's timeout
		t.Fatalf("no attempt timeout timer: %v", err)
	}
	c.Advance(3 * time.Second)
	d.expect(t, wantReport{status: messages.DeliveryRetrying, attempt: 1, errHas: "attempt timed out after 3s", at: t0.Add(3 * time.Second)})
	wait := c.waitBackoff(t)
	c.Advance(wait)
	d.expect(t, wantReport{status: messages.DeliveryAcceptedByTransport, attempt: 2, httpStatus: 200, at: c.Now()})
	d.result(t, messages.DeliveryAcceptedByTransport)
}

func TestDeliverCancelDuringBackoff(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: 503})
	d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())

	d.expect(t, wantReport{status: messages.DeliveryRetrying, attempt: 1, httpStatus: 503, errHas: "HTTP 503", at: t0})
	c.waitBackoff(t)
	d.cancel()
	d.expect(t, wantReport{status: messages.DeliveryFailed, attempt: 1, errHas: "context canceled", at: t0})
	d.result(t, messages.DeliveryFailed)
	if !c.Now().Equal(t0) {
		t.Errorf("clock at %v, want %v: Deliver returned without its backoff firing", c.Now(), t0)
	}
	checkRequests(t, rcv.requests(), t0)
}

func TestDeliverCancelDuringAttempt(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{block: true})
	d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())

	recv(t, rcv.arrived, "request")
	d.cancel()
	d.expect(t, wantReport{status: messages.DeliveryFailed, attempt: 1, errHas: "context canceled", at: t0})
	d.result(t, messages.DeliveryFailed)
	if len(c.timers) != 0 {
		t.Errorf("Deliver started %d backoff timers after its context ended, want none", len(c.timers))
	}
}

func TestDeliverErrorIsBoundedAndRedacted(t *testing.T) {
	c := newClock()
	body := strings.Repeat("x", 150) + "\n\t" + testSecret + strings.Repeat(" y", 5000)
	rcv := serve(t, c, answer{status: 422, body: body})
	d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())

	r := d.expect(t, wantReport{status: messages.DeliveryFailed, attempt: 1, httpStatus: 422, errHas: "HTTP 422: xxx", at: t0})
	d.result(t, messages.DeliveryFailed)
	if strings.Contains(r.Error, testSecret) || !strings.Contains(r.Error, "[redacted]") {
		t.Errorf("report error %q: want the secret redacted", r.Error)
	}
	if limit := len("HTTP 422: ") + 200 + len("…"); len(r.Error) > limit {
		t.Errorf("report error is %d bytes, want at most %d", len(r.Error), limit)
	}
}

func TestDeliverNeedsNotificationID(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: 200})
	n := note()
	n.NotificationID = ""
	var reports []messages.OperatorNotificationDelivery
	got := newWebhook(t, c, rcv.URL, nil).Deliver(context.Background(), n,
		func(r messages.OperatorNotificationDelivery) { reports = append(reports, r) })
	if got != messages.DeliveryFailed || len(reports) != 1 || reports[0].Status != messages.DeliveryFailed ||
		!strings.Contains(reports[0].Error, "notification_id") {
		t.Errorf("Deliver = %s, reports %+v; want failed, one failed report naming notification_id", got, reports)
	}
	if n := len(rcv.requests()); n != 0 {
		t.Errorf("receiver got %d requests, want 0", n)
	}
}
