package notify

import (
	"net/http"
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	w, err := New(Config{URL: "https://example.com/hook", Secret: make([]byte, MinSecretLen),
		BaseBackoff: time.Second, MaxBackoff: 10 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	top := func(n int64) int64 { return n - 1 } // the largest draw
	low := func(int64) int64 { return 0 }       // the smallest draw
	tests := []struct {
		name       string
		rnd        func(int64) int64
		retry      int
		retryAfter time.Duration
		want       time.Duration
	}{
		{"first retry ceiling", top, 1, 0, time.Second},
		{"second retry doubles", top, 2, 0, 2 * time.Second},
		{"fourth retry", top, 4, 0, 8 * time.Second},
		{"capped", top, 5, 0, 10 * time.Second},
		{"far past the cap", top, 200, 0, 10 * time.Second},
		{"never zero", low, 3, 0, time.Nanosecond},
		{"retry-after replaces jitter", low, 1, 7 * time.Second, 7 * time.Second},
		{"retry-after capped", top, 1, time.Hour, 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.rnd = tt.rnd
			if got := w.backoff(tt.retry, tt.retryAfter); got != tt.want {
				t.Errorf("backoff(%d, %v) = %v, want %v", tt.retry, tt.retryAfter, got, tt.want)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name, value string
		want        time.Duration
	}{
		{"absent", "", 0},
		{"seconds", "120", 2 * time.Minute},
		{"padded", " 3 ", 3 * time.Second},
		{"zero", "0", 0},
		{"negative", "-5", 0},
		{"huge", "99999999999999999", maxRetryAfterSeconds * time.Second},
		{"http date", now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{"past date", now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"garbage", "soon", 0},
		{"fraction", "1.5", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.value != "" {
				h.Set("Retry-After", tt.value)
			}
			if got := retryAfter(h, now); got != tt.want {
				t.Errorf("retryAfter(%q) = %v, want %v", tt.value, got, tt.want)
			}
		})
	}
}

func TestBound(t *testing.T) {
	tests := []struct {
		s     string
		limit int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefghij…"},
		{"ééééé", 5, "éé…"}, // never cuts a rune
	}
	for _, tt := range tests {
		if got := bound(tt.s, tt.limit); got != tt.want {
			t.Errorf("bound(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
		}
	}
}
