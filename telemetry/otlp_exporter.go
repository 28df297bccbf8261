package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// otlpExporter is the SDK's span exporter interface over OTLP/HTTP with
// protobuf bodies: the SDK's batch processor hands it the ended spans,
// and it writes them as an ExportTraceServiceRequest with otlpEncoder
// (no proto objects in between), gzips it when asked, and POSTs it,
// retrying the answers a receiver gives when it is busy (429, 502, 503,
// 504) and connections that failed to reach it, with the SDK's backoff.
type otlpExporter struct {
	cfg    otlpConfig
	client *http.Client
	retry  retryPolicy
	ua     string

	mu  sync.Mutex // one export at a time: the buffers are reused
	enc otlpEncoder
	gz  *gzip.Writer
	zb  bytes.Buffer

	// stopped is cancelled by Shutdown: later exports fail and one in
	// flight gives up.
	stopped context.Context
	stop    context.CancelFunc
}

// retryPolicy is the SDK exporter's default: 5 s doubling by half again
// up to 30 s, randomized by ±50 %, giving up after a minute; a
// Retry-After longer than the wait is waited instead.
type retryPolicy struct {
	initial, max, elapsed time.Duration
}

var defaultRetry = retryPolicy{initial: 5 * time.Second, max: 30 * time.Second, elapsed: time.Minute}

// errExporterStopped is returned by an export after Shutdown.
var errExporterStopped = errors.New("the OTLP exporter is shut down")

func newOTLPExporter(cfg otlpConfig, version string) *otlpExporter {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.tls != nil {
		tr.TLSClientConfig = cfg.tls
	}
	stopped, stop := context.WithCancel(context.Background())
	return &otlpExporter{
		cfg:     cfg,
		client:  &http.Client{Transport: tr, Timeout: cfg.timeout},
		retry:   defaultRetry,
		ua:      "holon-actors/" + orDefault(version, "dev") + " OTLP/HTTP protobuf",
		stopped: stopped,
		stop:    stop,
	}
}

var _ sdktrace.SpanExporter = (*otlpExporter)(nil)

// ExportSpans sends spans in one request, retrying as retryPolicy says
// within ctx.
func (x *otlpExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	if x.stopped.Err() != nil {
		return errExporterStopped
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	body, err := x.body(spans)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(x.stopped, cancel)()
	return x.send(ctx, body)
}

// body encodes spans, gzipped when configured; it is valid until the next
// call.
func (x *otlpExporter) body(spans []sdktrace.ReadOnlySpan) ([]byte, error) {
	raw := x.enc.encode(spans)
	if !x.cfg.gzip {
		return raw, nil
	}
	x.zb.Reset()
	if x.gz == nil {
		x.gz = gzip.NewWriter(&x.zb)
	} else {
		x.gz.Reset(&x.zb)
	}
	if _, err := x.gz.Write(raw); err != nil {
		return nil, fmt.Errorf("gzip the OTLP request: %w", err)
	}
	if err := x.gz.Close(); err != nil {
		return nil, fmt.Errorf("gzip the OTLP request: %w", err)
	}
	return x.zb.Bytes(), nil
}

// send POSTs body until it is taken, refused for good, or the retries
// run out.
func (x *otlpExporter) send(ctx context.Context, body []byte) error {
	start := time.Now()
	wait := x.retry.initial
	for {
		throttle, err := x.post(ctx, body)
		if err == nil {
			return nil
		}
		var re *retryableError
		if !errors.As(err, &re) {
			return err
		}
		d := jitter(wait)
		wait = min(time.Duration(float64(wait)*1.5), x.retry.max)
		d = max(d, throttle)
		if time.Since(start)+d > x.retry.elapsed {
			return fmt.Errorf("OTLP export gave up after %s: %w", time.Since(start).Round(time.Millisecond), err)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
}

// retryableError is a failure another attempt may get past.
type retryableError struct{ err error }

func (e *retryableError) Error() string { return e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

// post makes one attempt; a retryable failure comes back as a
// *retryableError with the Retry-After the receiver gave, if any.
func (x *otlpExporter) post(ctx context.Context, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.cfg.url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("OTLP request to %s: %w", x.cfg.url, err)
	}
	for k, v := range x.cfg.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", x.ua)
	if x.cfg.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := x.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, err
		}
		return 0, &retryableError{fmt.Errorf("send spans to %s: %w", x.cfg.url, err)}
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		if rejected, why := partialSuccess(msg); rejected != 0 || why != "" {
			return 0, fmt.Errorf("the OTLP receiver at %s rejected %d spans: %s", x.cfg.url, rejected, orDefault(why, "(no reason given)"))
		}
		return 0, nil
	}
	text := "(no text)" // a protobuf Status is not shown
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/") || strings.Contains(ct, "json") {
		text = strings.TrimSpace(string(msg))
	}
	err = fmt.Errorf("send spans to %s: %s: %s", x.cfg.url, resp.Status, text)
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return retryAfter(resp.Header.Get("Retry-After")), &retryableError{err}
	}
	return 0, err
}

// partialSuccess reads an ExportTraceServiceResponse's partial_success
// (field 1: rejected_spans 1, error_message 2); an empty or unreadable
// response is a full success.
func partialSuccess(b []byte) (rejected int64, why string) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, ""
		}
		b = b[n:]
		if num != 1 || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return 0, ""
			}
			b = b[n:]
			continue
		}
		ps, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return 0, ""
		}
		b = b[n:]
		for len(ps) > 0 {
			num, typ, n := protowire.ConsumeTag(ps)
			if n < 0 {
				return 0, ""
			}
			ps = ps[n:]
			switch {
			case num == 1 && typ == protowire.VarintType:
				v, m := protowire.ConsumeVarint(ps)
				if m < 0 {
					return 0, ""
				}
				rejected, n = int64(v), m
			case num == 2 && typ == protowire.BytesType:
				v, m := protowire.ConsumeString(ps)
				if m < 0 {
					return 0, ""
				}
				why, n = v, m
			default:
				n = protowire.ConsumeFieldValue(num, typ, ps)
			}
			if n < 0 {
				return 0, ""
			}
			ps = ps[n:]
		}
	}
	return rejected, why
}

// retryAfter is a Retry-After header's delay in seconds, 0 when it has
// none.
func retryAfter(h string) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || s <= 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}

// jitter is d randomized by ±50 %, as the SDK's backoff does.
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.5 + rand.Float64())) //nolint:gosec // backoff jitter
}

// Shutdown makes later exports fail and ends one in flight.
func (x *otlpExporter) Shutdown(ctx context.Context) error {
	x.stop()
	x.client.CloseIdleConnections()
	return ctx.Err()
}
