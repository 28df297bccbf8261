package notify

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// backoff returns the wait before retry number retry (1 for the first
// retry). A positive retryAfter is honoured, capped at MaxBackoff.
// Otherwise the wait is drawn uniformly from (0, ceiling] (full jitter),
// the ceiling being BaseBackoff doubled per earlier retry, capped at
// MaxBackoff.
func (w *Webhook) backoff(retry int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, w.cfg.MaxBackoff)
	}
	ceiling := w.cfg.BaseBackoff
	for i := 1; i < retry && ceiling < w.cfg.MaxBackoff; i++ {
		if ceiling > w.cfg.MaxBackoff/2 { // doubling would pass the cap, or overflow
			ceiling = w.cfg.MaxBackoff
		} else {
			ceiling *= 2
		}
	}
	return time.Duration(w.rnd(int64(ceiling))) + 1
}

// maxRetryAfterSeconds keeps a parsed Retry-After from overflowing a
// Duration; MaxBackoff caps it far lower anyway.
const maxRetryAfterSeconds = 1 << 32

// retryAfter reads a Retry-After header: delay seconds, or an HTTP date
// relative to now. It returns 0 when absent, unparsable or not in the
// future.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.Duration(min(max(s, 0), maxRetryAfterSeconds)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
