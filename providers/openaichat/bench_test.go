package openaichat_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

// BenchmarkChatRound compares one provider round through the Chat Completions
// transport with a bare net/http round trip carrying the same body and
// headers to the same loopback server.
//
//	go test -run='^$' -bench=ChatRound -benchmem ./providers/openaichat
func BenchmarkChatRound(b *testing.B) {
	srv := wiretest.NewServer(b, wiretest.Reply{Body: wiretest.Fixture(b, "chat_success.json")})
	wiretest.BenchRound(b, srv, newChat(b, srv, providers.SchemaRelaxed))
}
