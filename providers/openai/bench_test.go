package openai_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

// BenchmarkResponsesRound compares one provider round through the Responses
// transport with a bare net/http round trip carrying the same body and
// headers to the same loopback server.
//
//	go test -run='^$' -bench=ResponsesRound -benchmem ./providers/openai
func BenchmarkResponsesRound(b *testing.B) {
	srv := wiretest.NewServer(b, wiretest.Reply{Body: wiretest.Fixture(b, "responses_success.json")})
	wiretest.BenchRound(b, srv, newResponses(b, srv, ""))
}
