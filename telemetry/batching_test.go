package telemetry_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
)

// otlpReceiver is an OTLP/HTTP trace receiver on loopback that records
// how many spans each export request carried.
type otlpReceiver struct {
	mu       sync.Mutex
	requests []int // spans per request
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	var msg coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &msg)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	n := 0
	for _, rs := range msg.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			n += len(ss.Spans)
		}
	}
	r.mu.Lock()
	r.requests = append(r.requests, n)
	r.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// TestSpansExportInLargeBatches: 500 turns' 2,000 spans reach the OTLP
// receiver, none dropped, in batches larger than the SDK's default 512;
// with OTEL_BSP_MAX_EXPORT_BATCH_SIZE set, the operator's size is kept.
func TestSpansExportInLargeBatches(t *testing.T) {
	for _, c := range []struct {
		name     string
		env      map[string]string
		maxBatch int // the largest request's spans must be above min and at most this
		min      int
	}{
		{"default", nil, 2048, 512},
		{"operator's size", map[string]string{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "100"}, 100, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			recv := &otlpReceiver{}
			srv := httptest.NewServer(recv)
			defer srv.Close()
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			tel, err := telemetry.New(telemetry.Config{OTLPEndpoint: srv.URL, Env: func(k string) string { return c.env[k] }},
				telemetry.Options{Log: zerolog.Nop()})
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			for i := range 500 {
				observeTurn(tel, "a", fmt.Sprintf("t%d", i), now)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := tel.Close(ctx); err != nil {
				t.Fatal(err)
			}
			recv.mu.Lock()
			defer recv.mu.Unlock()
			total, largest := 0, 0
			for _, n := range recv.requests {
				total, largest = total+n, max(largest, n)
			}
			if total != 2000 || largest <= c.min || largest > c.maxBatch {
				t.Fatalf("the receiver got %d spans in requests of %v; want 2000, the largest above %d and at most %d",
					total, recv.requests, c.min, c.maxBatch)
			}
		})
	}
}

// BenchmarkTracedTurnExported is a traced turn (two model rounds, one
// tool call) with its four spans exported over OTLP/HTTP to a receiver on
// loopback that decodes them, as bench observability's: the whole cost of
// tracing a turn, the exporter's batching, encoding and requests and the
// receiver's decoding included (they run on other goroutines, so the
// figures are per turn over the run, flush included).
func BenchmarkTracedTurnExported(b *testing.B) {
	recv := &otlpReceiver{}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	tel, err := telemetry.New(telemetry.Config{OTLPEndpoint: srv.URL}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	batches, now := turnBatches("t"), time.Now()
	b.ReportAllocs()
	for b.Loop() {
		for _, batch := range batches {
			tel.Observe("a", messages.AgentDefault, now, batch)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := tel.Close(ctx); err != nil {
		b.Fatal(err)
	}
}
