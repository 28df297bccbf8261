package agentstate

import (
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestAdmit(t *testing.T) {
	prompt := func(id, agent string) messages.MessageEnvelope {
		return messages.MessageEnvelope{ID: id, AgentID: agent, CreatedAt: testNow, Kind: messages.KindOperatorPrompt, Origin: messages.OperatorOrigin("ops"),
			Body: messages.TextBody("hello"), DeliverySurface: messages.SurfaceHTTPControlPrompt, AdmissionContext: messages.AdmissionControlAuthenticated}
	}
	full := &State{Status: messages.StatusAwakeIdle}
	full.Queue.Bands[2] = []messages.MessageEnvelope{{ID: "q1"}, {ID: "q2"}}
	cases := []struct {
		name  string
		st    *State
		m     messages.MessageEnvelope
		err   error // matched with errors.Is; nil for an admission
		dup   bool
		wrote bool
	}{
		{"admitted", &State{Status: messages.StatusAwakeIdle}, prompt("msg_1", "a1"), nil, false, true},
		{"another agent's", &State{Status: messages.StatusAwakeIdle}, prompt("msg_1", "a2"), ErrWrongAgent, false, false},
		{"a duplicate", &State{Status: messages.StatusAwakeIdle, Recent: []string{"msg_1"}, RecentSeqs: []uint64{7}}, prompt("msg_1", "a1"), nil, true, false},
		{"a duplicate to a stopped agent", &State{Status: messages.StatusStopped, Recent: []string{"msg_1"}, RecentSeqs: []uint64{7}}, prompt("msg_1", "a1"), nil, true, false},
		{"stopped", &State{Status: messages.StatusStopped}, prompt("msg_1", "a1"), ErrAgentStopped, false, false},
		{"archived", &State{Status: messages.StatusArchived}, prompt("msg_1", "a1"), ErrAgentArchived, false, false},
		{"queue full", full, prompt("msg_1", "a1"), ErrQueueFull, false, false},
		{"an id too long", &State{Status: messages.StatusAwakeIdle}, prompt(strings.Repeat("m", messages.MessageIDMaxLen+1), "a1"), messages.ErrInvalidEnvelope, false, false},
		{"no body", &State{Status: messages.StatusAwakeIdle}, func() messages.MessageEnvelope { m := prompt("msg_1", "a1"); m.Body = messages.Body{}; return m }(), messages.ErrInvalidEnvelope, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ad, err := Admit(c.st, testEnv(), c.m, 2)
			if c.err != nil {
				if !errors.Is(err, c.err) || ad.Batch != nil {
					t.Fatalf("Admit = %v, %v; want %v and nothing written", eventTypes(ad.Batch), err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Admit: %v", err)
			}
			if ad.Duplicate != c.dup || (ad.Batch != nil) != c.wrote || (c.dup && ad.Seq != 7) {
				t.Fatalf("Admit = %+v, want duplicate %v (seq 7), written %v", ad, c.dup, c.wrote)
			}
			if c.wrote {
				m := only[messages.MessageAdmitted](t, ad.Batch).Envelope
				if m.AuthorityClass != messages.AuthorityOperatorInstruction || m.Priority == "" {
					t.Errorf("admitted = %+v, want it normalized with an operator instruction's authority", m)
				}
			}
		})
	}
}
