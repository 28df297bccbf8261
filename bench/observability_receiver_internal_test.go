package bench

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
)

// TestReceiverSettlesAfterTheRun: the loopback receiver answers an export
// request at once but decodes it only when settled (after the run, out of
// the measured time); a request that is not OTLP fails the settle with
// the request's number.
func TestReceiverSettlesAfterTheRun(t *testing.T) {
	recv, err := startReceiver()
	if err != nil {
		t.Fatal(err)
	}
	defer recv.close()
	spans := []*tracepb.Span{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	body, err := proto.Marshal(&coltracepb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{
		{ScopeSpans: []*tracepb.ScopeSpans{{Spans: spans[:2]}, {Spans: spans[2:]}}}}})
	if err != nil {
		t.Fatal(err)
	}
	post := func(b []byte) {
		t.Helper()
		resp, err := http.Post(recv.url+"/v1/traces", "application/x-protobuf", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("export answered %d, want 200", resp.StatusCode)
		}
	}
	post(body)
	if n := recv.spans.Load(); n != 0 {
		t.Fatalf("%d spans counted before the settle, want none (decoded after the run)", n)
	}
	if err := recv.settle(); err != nil {
		t.Fatal(err)
	}
	if n, r := recv.spans.Load(), recv.requests.Load(); n != 3 || r != 1 {
		t.Fatalf("settled %d spans in %d requests, want 3 in 1", n, r)
	}
	post(body)
	post([]byte{0xff, 0xff, 0xff})
	err = recv.settle()
	if err == nil || !strings.Contains(err.Error(), "request 2 of 2") {
		t.Fatalf("settle of a request that is not OTLP: %v, want its number in the error", err)
	}
}

// TestFlushSpansInTheRun: an on run's measured time ends once the spans of
// its turns are at the receiver (fewer than a batch here, which the
// exporter would otherwise send only at its close); an off run has none
// to flush.
func TestFlushSpansInTheRun(t *testing.T) {
	recv, err := startReceiver()
	if err != nil {
		t.Fatal(err)
	}
	defer recv.close()
	tel, err := telemetry.New(telemetry.Config{OTLPEndpoint: recv.url}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Close(context.Background())
	tel.Observe("a", messages.AgentDefault, time.Now(), []messages.Payload{
		messages.MessageProcessingStarted{MessageID: "m1", TurnID: "t1"},
		messages.TurnTerminal{TurnID: "t1", Kind: messages.TerminalCompleted}})
	var ferr error
	if d := flushSpans(context.Background(), tel, &ferr); ferr != nil || d <= 0 {
		t.Fatalf("flush took %v: %v", d, ferr)
	}
	if err := recv.settle(); err != nil {
		t.Fatal(err)
	}
	if n := recv.spans.Load(); n != 1 {
		t.Fatalf("the receiver had %d spans when the flush returned, want the turn's 1", n)
	}
	if d := flushSpans(context.Background(), nil, &ferr); d != 0 || ferr != nil {
		t.Fatalf("an off run's flush took %v: %v", d, ferr)
	}
}
