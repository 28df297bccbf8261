package openaichat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

// BenchmarkChatRound compares one provider round through the Chat
// Completions transport with a bare net/http round trip carrying the same
// body to the same loopback server.
//
//	go test -run='^$' -bench=ChatRound -benchmem ./providers/openaichat
func BenchmarkChatRound(b *testing.B) {
	srv := wiretest.NewServer(b, wiretest.Reply{Body: wiretest.Fixture(b, "chat_success.json")})
	req := wiretest.Request()
	p := newChat(b, srv, providers.SchemaRelaxed)
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
			r, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Authorization", "Bearer "+wiretest.APIKey)
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
