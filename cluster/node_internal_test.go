package cluster

import (
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/tlsca"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestConfigValidate: a node refuses, saying what to give, a config it
// cannot run with; above all one that would listen on every interface.
func TestConfigValidate(t *testing.T) {
	ok := Config{Name: "n1", Listen: "127.0.0.1:7300", TLS: &tlsca.Credentials{}, Pool: &pgxpool.Pool{}, Runtime: &actors.Runtime{}}
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string
		is     error
	}{
		{"valid", func(*Config) {}, "", nil},
		{"no name", func(c *Config) { c.Name = "" }, "--node-name", nil},
		{"no port", func(c *Config) { c.Listen = "127.0.0.1" }, "give HOST:PORT", nil},
		{"port not a number", func(c *Config) { c.Listen = "127.0.0.1:http" }, "not a number", nil},
		{"every IPv4 interface", func(c *Config) { c.Listen = "0.0.0.0:7300" }, "", ErrAnyAddress},
		{"every IPv6 interface", func(c *Config) { c.Listen = "[::]:7300" }, "", ErrAnyAddress},
		{"no host", func(c *Config) { c.Listen = ":7300" }, "", ErrAnyAddress},
		{"no certificate", func(c *Config) { c.TLS = nil }, "ca issue --role member", nil},
		{"no database", func(c *Config) { c.Pool = nil }, "journal's database", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.change(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && tc.is == nil:
				if err != nil {
					t.Fatalf("Validate() = %v", err)
				}
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Fatalf("Validate() = %v, want %v", err, tc.is)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Validate() = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestGrainRefusesAPromptItCannotAdmit: a prompt without a text body, or
// for another agent than the grain's, is refused and admits nothing.
func TestGrainRefusesAPromptItCannotAdmit(t *testing.T) {
	store := persistence.NewMemStore()
	rt, err := actors.NewRuntime(actors.AgentDeps{Store: store, Provider: testkit.NewProvider(testkit.Reply("ok")), Log: zerolog.Nop(), Node: "n1"}, actors.RuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	g := &agentGrain{rt: rt, node: "n1", id: "x", log: zerolog.Nop()}
	text := &messagespb.Body{Type: &messagespb.Body_Text{Text: &messagespb.TextBody{Text: "hi"}}}
	for _, r := range []*remotepb.PromptRequest{
		{AgentId: "x", Envelope: &messagespb.MessageEnvelope{Id: "m1"}},
		{AgentId: "y", Envelope: &messagespb.MessageEnvelope{Id: "m2", Body: text}},
	} {
		res, ok := g.prompt(r).(*remotepb.Error)
		if !ok || res.GetCode() != "invalid" {
			t.Fatalf("prompt %v answered %v, want an invalid error", r, g.prompt(r))
		}
	}
	if evs, _ := store.Read(t.Context(), "x", 1, ^uint64(0), 0); len(evs) != 0 {
		t.Fatalf("refused prompts wrote %d events", len(evs))
	}
	res, ok := g.prompt(&remotepb.PromptRequest{AgentId: "x", Envelope: &messagespb.MessageEnvelope{Id: "m3", Body: text}}).(*remotepb.PromptAccepted)
	if !ok || res.GetMessageId() != "m3" || res.GetEventSeq() == 0 {
		t.Fatalf("a valid prompt answered %v", res)
	}
}
