package anthropic_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

// BenchmarkMessagesRound compares one provider round through the Messages
// transport with a bare net/http round trip carrying the same body and
// headers to the same loopback server.
//
//	go test -run='^$' -bench=MessagesRound -benchmem ./providers/anthropic
func BenchmarkMessagesRound(b *testing.B) {
	srv := wiretest.NewServer(b, wiretest.Reply{Body: wiretest.Fixture(b, "messages_success.json")})
	wiretest.BenchRound(b, srv, newMessages(b, srv, ""))
}
