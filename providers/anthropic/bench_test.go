package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

// BenchmarkMessagesRound compares one provider round through the Messages
// transport with a bare net/http round trip carrying the same body to the
// same loopback server.
//
//	go test -run='^$' -bench=MessagesRound -benchmem ./providers/anthropic
func BenchmarkMessagesRound(b *testing.B) {
	srv := wiretest.NewServer(b, wiretest.Reply{Body: wiretest.Fixture(b, "messages_success.json")})
	req := wiretest.Request()
	p := newMessages(b, srv, "")
	ctx := context.Background()
	if _, err := p.Complete(ctx, req); err != nil {
		b.Fatal(err)
	}
	body := srv.Body(0)
	b.Run("transport", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Complete(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bare_http", func(b *testing.B) {
		b.ReportAllocs()
		client := srv.Client()
		for b.Loop() {
			r, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-Api-Key", wiretest.APIKey)
			r.Header.Set("Anthropic-Version", "2023-06-01")
			res, err := client.Do(r)
			if err != nil {
				b.Fatal(err)
			}
			var v map[string]any
			_ = json.NewDecoder(res.Body).Decode(&v)
			_ = res.Body.Close()
		}
	})
}
