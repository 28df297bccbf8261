package bench

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
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
