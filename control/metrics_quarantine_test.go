package control_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/telemetry"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestMetricsCountQuarantinedAgents: an agent whose supervision stops it
// after repeated crashes counts on holon_agents_quarantined from the
// moment its stopped status is journaled, and no longer once the operator
// resumes it.
func TestMetricsCountQuarantinedAgents(t *testing.T) {
	tel, err := telemetry.New(telemetry.Config{}, telemetry.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{testkit.Reply("ok")}, RequestTimeout: time.Second,
		Deps: func(_ string, d *actors.AgentDeps) { d.Telemetry = tel }})
	tel.Metrics().WatchRuntime(h.Runtime)
	get := serve(t, control.Config{Runtime: h.Runtime, Store: h.Store(), Log: zerolog.Nop(), Metrics: tel.Metrics().Handler()})
	quarantined := func() float64 {
		t.Helper()
		_, body := get("/metrics")
		var p expfmt.TextParser
		fams, err := p.TextToMetricFamilies(strings.NewReader(body))
		if err != nil {
			t.Fatalf("parse /metrics: %v\n%s", err, body)
		}
		if fams["holon_agents_quarantined"] == nil {
			t.Fatalf("no holon_agents_quarantined in\n%s", body)
		}
		return sum(fams["holon_agents_quarantined"], nil)
	}
	status := func(to messages.AgentStatus) func(messages.Event) bool {
		return func(ev messages.Event) bool {
			if ev.Type != messages.EventAgentStateChanged {
				return false
			}
			p, _ := ev.Decode()
			return p.(messages.AgentStateChanged).To == to
		}
	}

	h.Prompt("good", "hello")
	h.WaitEvent("good", testkit.OfType(messages.EventTurnTerminal))
	h.Prompt("bad", "hello")
	h.WaitEvent("bad", testkit.OfType(messages.EventTurnTerminal))
	h.WaitEvent("bad", status(messages.StatusAwakeIdle))
	if n := quarantined(); n != 0 {
		t.Fatalf("holon_agents_quarantined = %v before any crash, want 0", n)
	}

	h.SetFault(func(agent, point string) {
		if agent == "bad" {
			panic("poisoned agent")
		}
	})
	_, _ = h.Runtime.Admit(context.Background(), h.Envelope("bad", "crash", messages.PriorityNormal))
	h.WaitEvent("bad", status(messages.StatusStopped))
	if n := quarantined(); n != 1 {
		t.Fatalf("holon_agents_quarantined = %v after bad was quarantined, want 1", n)
	}

	h.SetFault(nil)
	if _, err := h.Runtime.Control(context.Background(), "bad", agentstate.OpResume, "fixed"); err != nil {
		t.Fatal(err)
	}
	h.WaitEvent("bad", func(ev messages.Event) bool {
		if ev.Type != messages.EventAgentStateChanged {
			return false
		}
		p, _ := ev.Decode()
		return p.(messages.AgentStateChanged).From == messages.StatusStopped
	})
	if n := quarantined(); n != 0 {
		t.Fatalf("holon_agents_quarantined = %v after bad was resumed, want 0", n)
	}
}
