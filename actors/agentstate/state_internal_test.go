package agentstate

import (
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/secrets"
)

func TestSnapshotRoundTripAndBadInput(t *testing.T) {
	s := &State{ID: "a", LastSeq: 7, Status: messages.StatusAwakeIdle}
	env := messages.MessageEnvelope{ID: "m1", AgentID: "a", Kind: messages.KindOperatorPrompt,
		Origin: messages.OperatorOrigin("op"), Body: messages.TextBody("hi"),
		DeliverySurface: messages.SurfaceCLIPrompt, AdmissionContext: messages.AdmissionLocalProcess}
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	s.Queue.Push(env)
	data, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	facts, err := SnapshotOpenFacts(data)
	if err != nil || len(facts) != 1 {
		t.Fatalf("SnapshotOpenFacts = %v, %v; want the queued message", facts, err)
	}
	got, err := RestoreState(data)
	if err != nil || got.ID != "a" || got.LastSeq != 7 || got.Queue.Len() != 1 {
		t.Fatalf("restoreState = %+v, %v", got, err)
	}
	for name, bad := range map[string][]byte{
		"empty":          nil,
		"plain json":     []byte(`{"id":"a"}`),
		"cut in header":  data[:3],
		"huge length":    {snapshotFormat, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"header garbage": append([]byte{snapshotFormat, 3}, "{x}"...),
	} {
		if _, err := SnapshotOpenFacts(bad); err == nil || !strings.Contains(err.Error(), "snapshot") {
			t.Errorf("%s: SnapshotOpenFacts error = %v, want a snapshot error", name, err)
		}
		if _, err := RestoreState(bad); err == nil {
			t.Errorf("%s: restoreState = nil error", name)
		}
	}
}

// TestSnapshotRedacted: a secret in the state (here a queued prompt) is
// scrubbed from the header and the body, and the snapshot still restores.
func TestSnapshotRedacted(t *testing.T) {
	const canary = "sk-snapshot-canary-0123456789"
	s := &State{ID: "a", LastSeq: 3, Status: messages.StatusAwakeIdle}
	env := messages.MessageEnvelope{ID: "m1", AgentID: "a", Kind: messages.KindOperatorPrompt,
		Origin: messages.OperatorOrigin("op"), Body: messages.TextBody("use " + canary),
		DeliverySurface: messages.SurfaceCLIPrompt, AdmissionContext: messages.AdmissionLocalProcess}
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	s.Queue.Push(env)
	data, err := s.SnapshotRedacted(secrets.NewRegistry(canary).RedactBytes)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), canary) {
		t.Fatalf("snapshot holds the secret: %s", data)
	}
	got, err := RestoreState(data)
	if err != nil || got.Queue.Len() != 1 {
		t.Fatalf("restoreState = %+v, %v", got, err)
	}
}
