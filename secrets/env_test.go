package secrets_test

import (
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/secrets"
)

func TestNamesSplit(t *testing.T) {
	n := secrets.Names{Extra: []string{"MY_GATEWAY_KEY"}}
	env := []string{"PATH=/bin", "OPENAI_API_KEY=o", "ANTHROPIC_API_KEY=a", "HOLON_OLLAMA_API_KEY=l",
		"HOLON_CONTROL_TOKEN=t", "MY_GATEWAY_KEY=g", "HOLON_MODEL=openai/gpt-5", "API_KEY_NOTE=n"}
	kept, taken := n.Split(env)
	if want := []string{"PATH=/bin", "HOLON_MODEL=openai/gpt-5", "API_KEY_NOTE=n"}; !slices.Equal(kept, want) {
		t.Errorf("kept = %q, want %q", kept, want)
	}
	for name, v := range map[string]string{"OPENAI_API_KEY": "o", "ANTHROPIC_API_KEY": "a", "HOLON_OLLAMA_API_KEY": "l",
		"HOLON_CONTROL_TOKEN": "t", "MY_GATEWAY_KEY": "g"} {
		if taken[name] != v {
			t.Errorf("taken[%s] = %q, want %q", name, taken[name], v)
		}
	}
	if len(taken) != 5 {
		t.Errorf("taken = %v, want 5 credentials", taken)
	}
}

func TestLookupPrefersHandedOver(t *testing.T) {
	get := secrets.Lookup(map[string]string{"K": "handed"}, func(n string) string { return "env-" + n })
	if get("K") != "handed" || get("PATH") != "env-PATH" {
		t.Fatalf("Lookup: K=%q PATH=%q", get("K"), get("PATH"))
	}
}
