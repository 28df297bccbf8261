package openai

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/holon-actors/holon-actors/providers"
)

// FuzzCodexStream feeds arbitrary bytes to the Codex stream consumer as an
// SSE body: it must never panic, and must return either a response or a
// classified *providers.Error. Seeds are the testdata streams.
//
//	go test -fuzz=FuzzCodexStream ./providers/openai
func FuzzCodexStream(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.sse"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("data: {\"type\":\"response.completed\",\"response\":{\"output\":[{\"type\":\"function_call\",\"arguments\":7}]}}\n\n"))
	f.Add([]byte("data: {\"error\":{\"message\":\"x\"}}\n\n"))
	f.Add([]byte("data: [DONE]\n\n"))
	tr, err := newTransport(providers.Endpoint{Ref: providers.ModelRef{Provider: "openai-codex", Model: "m"}, BaseURL: "http://127.0.0.1/v1/"},
		providers.TransportCodex)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body: io.NopCloser(bytes.NewReader(data))}
		stream := ssestream.NewStream[streamEvent](ssestream.NewDecoder(res), nil)
		defer stream.Close()
		_, err := tr.consume(context.Background(), stream, res)
		var pe *providers.Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("unclassified error %T: %v", err, err)
		}
	})
}
