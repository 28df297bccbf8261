package messages_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestCommandPolicyValidate(t *testing.T) {
	tests := []struct {
		name string
		p    messages.CommandPolicy
		want string // "" means valid
	}{
		{"zero", messages.CommandPolicy{}, ""},
		{"names paths patterns", messages.CommandPolicy{Allow: []string{"git", "/usr/bin/*", "go*"}, Deny: []string{"curl"}, ConfineToRoot: true}, ""},
		{"empty entry", messages.CommandPolicy{Allow: []string{"git", " "}}, "allow[1] is empty"},
		{"arguments", messages.CommandPolicy{Deny: []string{"rm -rf"}}, `deny[0] "rm -rf" holds whitespace`},
		{"bad pattern", messages.CommandPolicy{Allow: []string{"go["}}, `allow[0] "go[" is not a valid pattern`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate = %v, want nil", err)
			case tt.want != "" && (!errors.Is(err, messages.ErrInvalidCommandPolicy) || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate = %v, want ErrInvalidCommandPolicy saying %q", err, tt.want)
			}
		})
	}
}

func TestCommandPoliciesFor(t *testing.T) {
	def := &messages.CommandPolicy{Deny: []string{"curl"}}
	c := messages.CommandPolicies{Default: def, Agents: map[string]messages.CommandPolicy{"builder": {Allow: []string{"go"}}}}
	if p := c.For("builder"); p == nil || p.Allow[0] != "go" {
		t.Errorf("For(builder) = %+v, want its own entry", p)
	}
	if p := c.For("other"); p != def {
		t.Errorf("For(other) = %+v, want the default", p)
	}
	if p := (messages.CommandPolicies{}).For("x"); p != nil {
		t.Errorf("For with nothing configured = %+v, want nil", p)
	}
	bad := messages.CommandPolicies{Agents: map[string]messages.CommandPolicy{"b": {Allow: []string{""}}}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "command_policy.agents.b: ") {
		t.Errorf("Validate = %v, want the agent named", err)
	}
}
