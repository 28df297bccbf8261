package openaichat_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
	"github.com/holon-actors/holon-actors/providers/openaichat"
)

// staticReply answers every request with a 200 JSON reply of its body.
type staticReply []byte

func (b staticReply) RoundTrip(r *http.Request) (*http.Response, error) {
	_ = r.Body.Close()
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(b)), Request: r}, nil
}

// FuzzChatReply feeds arbitrary bytes to the transport as a 200 reply: it
// must never panic, and must return either a response or a classified
// *providers.Error. Seeds are the testdata replies.
//
//	go test -fuzz=FuzzChatReply ./providers/openaichat
func FuzzChatReply(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`null`))
	f.Add([]byte(`{"choices":[{"message":{"content":["a"],"tool_calls":[{"function":{"arguments":{"x":1}}}]}}],"usage":{"prompt_tokens":"1e400"}}`))
	req := wiretest.Request()
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := openaichat.New(providers.Endpoint{Ref: providers.ModelRef{Provider: "vllm", Model: "m"}, BaseURL: "http://127.0.0.1/v1",
			HTTPClient: &http.Client{Transport: staticReply(data)}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Complete(context.Background(), req)
		var pe *providers.Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("unclassified error %T: %v", err, err)
		}
	})
}
