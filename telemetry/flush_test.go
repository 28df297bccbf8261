package telemetry_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/telemetry"
)

// TestFlush: the spans of the turns ended so far are at the OTLP receiver
// when Flush returns (fewer than a batch, which the exporter would hold
// for seconds), and tracing goes on after it; a nil or untraced Telemetry
// flushes nothing.
func TestFlush(t *testing.T) {
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	tel, err := telemetry.New(telemetry.Config{OTLPEndpoint: srv.URL, Env: func(string) string { return "" }}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	received := func() int {
		recv.mu.Lock()
		defer recv.mu.Unlock()
		n := 0
		for _, r := range recv.requests {
			n += r
		}
		return n
	}
	for i, want := range []int{4, 8} {
		observeTurn(tel, "a", "t"+string(rune('1'+i)), time.Now())
		if err := tel.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if n := received(); n != want {
			t.Fatalf("after flush %d the receiver has %d spans, want %d", i+1, n, want)
		}
	}
	if err := tel.Close(ctx); err != nil {
		t.Fatal(err)
	}
	untraced, err := telemetry.New(telemetry.Config{Env: func(string) string { return "" }}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if err := untraced.Flush(ctx); err != nil {
		t.Fatalf("flush without tracing: %v", err)
	}
	if err := (*telemetry.Telemetry)(nil).Flush(ctx); err != nil {
		t.Fatalf("flush of nil: %v", err)
	}
}
