package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/holon-actors/holon-actors/messages"
)

// userAgent names this sender and its wire contract version.
const userAgent = "holon-actors-notify/1"

const (
	// maxExcerpt bounds the response body excerpt kept in a report, in
	// bytes.
	maxExcerpt = 200
	// maxError bounds the error text of a report, in bytes.
	maxError = 300
	// maxDrain bounds how much of a response body is read and discarded so
	// its connection can be reused; a longer body costs the connection.
	maxDrain = 64 << 10
)

// Webhook delivers operator notifications to one receiver as signed
// delivery intents. It is immutable and safe for concurrent use.
type Webhook struct {
	cfg    Config // defaults filled in; Secret is a private copy
	client *http.Client
	rnd    func(n int64) int64 // jitter: a value in [0, n)
}

// New validates cfg (see Config.Validate) and returns a Webhook for it. It
// keeps its own copies of the secret and of the client, whose redirect
// policy it replaces.
func New(cfg Config) (*Webhook, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	cfg.Secret = bytes.Clone(cfg.Secret)
	client := &http.Client{}
	if cfg.Client != nil {
		c := *cfg.Client // shares the transport and its connection pool
		client = &c
	}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.Client = nil
	return &Webhook{cfg: cfg, client: client, rnd: rand.Int64N}, nil
}

// outcome is how one attempt went.
type outcome struct {
	accepted   bool
	retryable  bool
	status     int           // the HTTP status; 0 when no response arrived
	err        string        // short, bounded, free of the URL and the secret
	retryAfter time.Duration // the response's Retry-After, 0 if none
}

// Deliver posts n to the webhook as a delivery intent, retrying per the
// Config, and returns DeliveryAcceptedByTransport once the receiver
// answers 2xx or DeliveryFailed when it refuses (3xx, 4xx other than 408,
// 425 and 429), when attempts run out, or when ctx ends. report, if not
// nil, is called on the calling goroutine for every step: retrying after
// each failed attempt that will be retried, then one accepted or failed.
// Deliver blocks until done, waiting on the Config's clock between
// attempts, and returns promptly when ctx ends.
func (w *Webhook) Deliver(ctx context.Context, n messages.OperatorNotification, report func(messages.OperatorNotificationDelivery)) messages.DeliveryStatus {
	if report == nil {
		report = func(messages.OperatorNotificationDelivery) {}
	}
	step := func(status messages.DeliveryStatus, attempt int, o outcome) messages.DeliveryStatus {
		report(messages.OperatorNotificationDelivery{NotificationID: n.NotificationID, Status: status,
			Attempt: attempt, HTTPStatus: o.status, Error: o.err, At: w.cfg.Clock.Now().UTC()})
		return status
	}
	if n.NotificationID == "" {
		return step(messages.DeliveryFailed, 0, outcome{err: "notification_id is empty: receivers dedupe on it"})
	}
	for attempt := 1; ; attempt++ {
		o := w.attempt(ctx, n, attempt)
		switch {
		case o.accepted:
			return step(messages.DeliveryAcceptedByTransport, attempt, o)
		case ctx.Err() != nil:
			return step(messages.DeliveryFailed, attempt, outcome{err: context.Cause(ctx).Error()})
		case !o.retryable:
			return step(messages.DeliveryFailed, attempt, o)
		case attempt >= w.cfg.MaxAttempts:
			o.err = bound(fmt.Sprintf("%s; gave up after %d %s", o.err, attempt, plural(attempt, "attempt")), maxError)
			return step(messages.DeliveryFailed, attempt, o)
		}
		step(messages.DeliveryRetrying, attempt, o)
		if err := w.sleep(ctx, w.backoff(attempt, o.retryAfter)); err != nil {
			return step(messages.DeliveryFailed, attempt, outcome{err: context.Cause(ctx).Error()})
		}
	}
}

// attempt makes one signed request and reads its response.
func (w *Webhook) attempt(ctx context.Context, n messages.OperatorNotification, attempt int) outcome {
	now := w.cfg.Clock.Now()
	body, err := encodeIntent(n, attempt, now)
	if err != nil {
		return outcome{err: bound("encode intent: "+err.Error(), maxError)}
	}
	actx, done := w.attemptContext(ctx)
	defer done()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, w.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return outcome{err: "build request: " + w.transportError(err)}
	}
	ts := now.Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(HeaderDelivery, n.NotificationID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, Sign(w.cfg.Secret, ts, body))
	resp, err := w.client.Do(req)
	if err != nil {
		if errors.Is(context.Cause(actx), errAttemptTimeout) {
			return outcome{retryable: true, err: fmt.Sprintf("attempt timed out after %v", w.cfg.Timeout)}
		}
		return outcome{retryable: true, err: w.transportError(err)}
	}
	defer resp.Body.Close()
	return w.response(resp)
}

// response classifies a response and drains its body.
func (w *Webhook) response(resp *http.Response) outcome {
	defer drain(resp.Body)
	o := outcome{status: resp.StatusCode}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		o.accepted = true
		return o
	}
	o.err = "HTTP " + strconv.Itoa(resp.StatusCode)
	if text := w.bodyExcerpt(resp.Body); text != "" {
		o.err += ": " + text
	}
	o.retryable = retryableStatus(resp.StatusCode)
	if o.retryable {
		o.retryAfter = retryAfter(resp.Header, w.cfg.Clock.Now())
	}
	return o
}

// drain reads and discards what is left of a response body, up to
// maxDrain, so the connection can carry the next request; errors only cost
// the connection.
func drain(body io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, maxDrain))
}

// retryableStatus reports whether a response status may succeed later:
// 408, 425, 429 and 5xx.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	}
	return code >= 500 && code < 600
}

// bodyExcerpt returns the start of an error response body on one line,
// the secret redacted, at most maxExcerpt bytes.
func (w *Webhook) bodyExcerpt(body io.Reader) string {
	// Read the secret's length past the excerpt, so a secret straddling
	// the cut is still whole when redacted.
	buf, _ := io.ReadAll(io.LimitReader(body, int64(maxExcerpt+len(w.cfg.Secret))))
	return excerpt(w.redact(string(buf)), maxExcerpt)
}

// transportError describes a request that got no response. The URL the
// client wraps it with is dropped: it may carry credentials.
func (w *Webhook) transportError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return bound(w.redact(err.Error()), maxError)
}

func (w *Webhook) redact(s string) string {
	return strings.ReplaceAll(s, string(w.cfg.Secret), "[redacted]")
}

// errAttemptTimeout is the cancellation cause of an attempt that ran past
// the Config's Timeout.
var errAttemptTimeout = fmt.Errorf("notify: webhook attempt timed out: %w", context.DeadlineExceeded)

// attemptContext bounds one attempt by the Config's Timeout on its clock;
// done releases it.
func (w *Webhook) attemptContext(ctx context.Context) (context.Context, func()) {
	actx, cancel := context.WithCancelCause(ctx)
	t := w.cfg.Clock.AfterFunc(w.cfg.Timeout, func() { cancel(errAttemptTimeout) })
	return actx, func() {
		t.Stop()
		cancel(nil)
	}
}

// sleep waits d on the Config's clock, or until ctx ends.
func (w *Webhook) sleep(ctx context.Context, d time.Duration) error {
	t := w.cfg.Clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.Chan():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// excerpt returns s on one line (valid UTF-8, runs of white space made one
// space), cut to at most limit bytes plus an ellipsis.
func excerpt(s string, limit int) string {
	return bound(strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " "), limit)
}

// bound cuts s to at most limit bytes, at a rune boundary, marking the
// cut with an ellipsis.
func bound(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
