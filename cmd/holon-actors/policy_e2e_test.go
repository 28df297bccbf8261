package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// TestCommandPolicyE2E: config.json's default policy refuses a denied
// executable, an agent's config entry confines it to its execution root,
// and `agents create --policy` gives an agent an allow-list that survives
// a restart. Each refusal is a journaled tool error with a hint; nothing
// refused runs.
func TestCommandPolicyE2E(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	config := `{"command_policy": {"default": {"deny": ["touch"]}, "agents": {"confined": {"confine_to_root": true}}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	script := writeScript(t, `{"steps": [
		{"tool_calls": [{"id": "m1", "name": "ExecCommand", "arguments": {"cmd": "touch denied-by-default"}}]},
		{"text": "Refused."}
	], "then": "echo", "roles": {
		"builder": {"steps": [
			{"tool_calls": [{"id": "b1", "name": "ExecCommand", "arguments": {"cmd": "ls"}},
				{"id": "b2", "name": "ExecCommand", "arguments": {"cmd": "touch not-allowed"}}]},
			{"text": "Half done."},
			{"tool_calls": [{"id": "b3", "name": "ExecCommand", "arguments": {"cmd": "mkdir still-not-allowed"}}]},
			{"text": "Refused again."}
		]},
		"confined": {"steps": [
			{"tool_calls": [{"id": "c1", "name": "ExecCommand", "arguments": {"cmd": "echo out > `+outside+`/escaped.txt"}},
				{"id": "c2", "name": "ExecCommand", "arguments": {"cmd": "echo in > inside.txt && touch made-by-confined"}}]},
			{"text": "Done."}
		]}
	}}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	prompt := func(agent, text string) {
		t.Helper()
		if code, o, e := client(t, home, "--agent", agent, "prompt", "--wait", text); code != 0 {
			t.Fatalf("prompt %s = %d %q %q", agent, code, o, e)
		}
	}
	prompt("main", "make a file")

	code, _, errOut := client(t, home, "agents", "create", "builder", "--policy", `{"allow": ["ls", "git push"]}`)
	if code != exitUsage || !strings.Contains(errOut, "allow[1]") || !strings.Contains(errOut, "one executable per entry") {
		t.Fatalf("agents create with a bad policy = %d %q, want a usage error naming allow[1]", code, errOut)
	}
	policyFile := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(policyFile, []byte(`{"allow": ["ls", "echo"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, o, e := client(t, home, "agents", "create", "builder", "--policy", policyFile); code != 0 {
		t.Fatalf("agents create --policy = %d %q %q", code, o, e)
	}
	prompt("builder", "builder: build")
	if code, o, e := client(t, home, "agents", "create", "confined"); code != 0 {
		t.Fatalf("agents create confined = %d %q %q", code, o, e)
	}
	prompt("confined", "confined: write")

	d.stop()
	d = startRun(t, home, "--model", "scripted", "--script", script)
	prompt("builder", "once more")
	defer d.stop()

	results := map[string]messages.ToolExecuted{}
	for _, agent := range []string{"main", "builder", "confined"} {
		for id, r := range toolResults(t, home, agent) {
			results[id] = r
		}
	}
	for _, c := range []struct{ call, rule, word string }{
		{"m1", "deny", "touch"}, {"b2", "allow", "touch"}, {"b3", "allow", "mkdir"}, {"c1", "confine_to_root", outside + "/escaped.txt"},
	} {
		r, ok := results[c.call]
		if !ok {
			t.Errorf("%s: no tool_executed journaled", c.call)
			continue
		}
		var env tools.Envelope
		if err := json.Unmarshal(r.Envelope, &env); err != nil || env.Error == nil {
			t.Errorf("%s = %s %s, want a tool error", c.call, r.Status, r.Envelope)
			continue
		}
		var det struct{ Rule, Word string }
		_ = json.Unmarshal(env.Error.Details, &det)
		if r.Status != messages.ToolError || env.Error.Kind != "command_policy_denied" || det.Rule != c.rule || det.Word != c.word ||
			!strings.Contains(env.Error.RecoveryHint, "command_policy") {
			t.Errorf("%s = %s %+v (rule %s word %q), want command_policy_denied by %s of %q with a hint", c.call, r.Status, env.Error, det.Rule, det.Word, c.rule, c.word)
		}
	}
	for _, call := range []string{"b1", "c2"} {
		if r := results[call]; r.Status != messages.ToolOK {
			t.Errorf("%s = %s %s, want it run", call, r.Status, r.Envelope)
		}
	}
	for _, refused := range []string{filepath.Join(home, "agents", "main", "denied-by-default"),
		filepath.Join(home, "agents", "builder", "not-allowed"), filepath.Join(outside, "escaped.txt")} {
		if _, err := os.Stat(refused); err == nil {
			t.Errorf("%s exists: a refused command ran", refused)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "agents", "confined", "inside.txt")); err != nil {
		t.Errorf("the confined agent's allowed command did not run: %v", err)
	}
}

// toolResults reads an agent's journal through `tail --json` and returns
// its tool_executed payloads by call id.
func toolResults(t *testing.T, home, agent string) map[string]messages.ToolExecuted {
	t.Helper()
	code, out, errOut := client(t, home, "--agent", agent, "--json", "tail", "--limit", "1000")
	if code != 0 {
		t.Fatalf("tail %s = %d %s", agent, code, errOut)
	}
	res := map[string]messages.ToolExecuted{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev control.StreamEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("tail printed %q: %v", line, err)
		}
		if ev.Provenance.Kind != messages.EventToolExecuted {
			continue
		}
		var r messages.ToolExecuted
		if err := json.Unmarshal(ev.Payload, &r); err != nil {
			t.Fatal(err)
		}
		res[r.CallID] = r
	}
	return res
}

// TestCommandPolicyFollowsSpawnedAgents: an agent under a policy cannot
// run what it refuses through an agent it spawns: a private child and a
// public agent it names (one with no entry of its own, under a permissive
// default) both get their creator's policy, journaled, and a command of
// theirs the policy refuses never runs.
func TestCommandPolicyFollowsSpawnedAgents(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"command_policy": {"agents": {"main": {"deny": ["touch"]}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	script := writeScript(t, `{"steps": [
		{"tool_calls": [
			{"name": "SpawnAgent", "arguments": {"initial_message": "worker: touch it"}},
			{"name": "SpawnAgent", "arguments": {"preset": "public_named", "agent_id": "helper", "initial_message": "worker: touch it"}}]},
		{"text": "Delegated."}
	], "then": "echo", "roles": {"worker": {"steps": [
		{"tool_calls": [{"id": "w1", "name": "ExecCommand", "arguments": {"cmd": "touch `+out+`/made-by-$$"}}]},
		{"text": "worker done"}]}}}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	defer d.stop()
	if code, o, e := client(t, home, "prompt", "--wait", "delegate"); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, o, e)
	}
	var kids control.ChildList
	code, o, _ := client(t, home, "--json", "agents", "children", "main", "--all")
	if code != 0 || json.Unmarshal([]byte(o), &kids) != nil || len(kids.Children) != 1 {
		t.Fatalf("agents children = %d %q", code, o)
	}
	for _, agent := range []string{kids.Children[0].ChildAgentID, "helper"} {
		waitSummary(t, home, agent, func(s control.AgentSummary) bool { return s.LastClosure != nil })
		r, ok := toolResults(t, home, agent)["w1"]
		var env tools.Envelope
		if !ok || json.Unmarshal(r.Envelope, &env) != nil || env.Error == nil || env.Error.Kind != "command_policy_denied" {
			t.Errorf("%s: its touch = %s %s, want command_policy_denied", agent, r.Status, r.Envelope)
		}
	}
	if made, _ := filepath.Glob(filepath.Join(out, "made-by-*")); len(made) != 0 {
		t.Fatalf("a spawned agent ran what its creator's policy refuses: %v", made)
	}
}
