package messages

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// ErrInvalidCommandPolicy is wrapped by CommandPolicy.Validate errors.
var ErrInvalidCommandPolicy = errors.New("invalid command policy")

// CommandPolicy limits the commands an agent's ExecCommand and
// ExecCommandBatch may run. The zero value allows everything (the
// default): commands run with the runtime user's rights, in the execution
// root as their working directory, but nothing stops them reaching
// outside it.
//
// Allow and Deny hold executables: a bare name ("git") matches the
// command word's base name, a path ("/usr/bin/git") the resolved
// executable; either may be a path.Match pattern ("go*", "/usr/bin/*").
// Deny wins over Allow. A non-empty Allow refuses every executable it
// does not match (a few harmless shell builtins such as cd and echo are
// always allowed). ConfineToRoot refuses literal paths outside the
// execution root among a command's words and redirections.
type CommandPolicy struct {
	Allow         []string `json:"allow,omitempty"`
	Deny          []string `json:"deny,omitempty"`
	ConfineToRoot bool     `json:"confine_to_root,omitempty"`
}

// IsZero reports whether p allows everything.
func (p CommandPolicy) IsZero() bool {
	return len(p.Allow) == 0 && len(p.Deny) == 0 && !p.ConfineToRoot
}

// Validate reports an entry that cannot match anything, naming the field.
func (p CommandPolicy) Validate() error {
	for _, f := range []struct {
		name    string
		entries []string
	}{{"allow", p.Allow}, {"deny", p.Deny}} {
		for i, e := range f.entries {
			switch {
			case strings.TrimSpace(e) == "":
				return fmt.Errorf("%w: %s[%d] is empty: give an executable name (git), a path (/usr/bin/git) or a pattern (go*)",
					ErrInvalidCommandPolicy, f.name, i)
			case strings.ContainsAny(e, " \t\n"):
				return fmt.Errorf("%w: %s[%d] %q holds whitespace: give one executable per entry, without arguments",
					ErrInvalidCommandPolicy, f.name, i, e)
			}
			if _, err := path.Match(e, ""); err != nil {
				return fmt.Errorf("%w: %s[%d] %q is not a valid pattern (%v): escape [ ] * ? with a backslash",
					ErrInvalidCommandPolicy, f.name, i, e, err)
			}
		}
	}
	return nil
}

// CommandPolicies is the runtime's configuration of command policies:
// Default applies to every agent without an entry in Agents.
type CommandPolicies struct {
	Default *CommandPolicy           `json:"default,omitempty"`
	Agents  map[string]CommandPolicy `json:"agents,omitempty"`
}

// For is the configured policy of agent id; nil when none applies.
func (c CommandPolicies) For(id string) *CommandPolicy {
	if p, ok := c.Agents[id]; ok {
		return &p
	}
	return c.Default
}

// Validate checks every policy, naming the one at fault.
func (c CommandPolicies) Validate() error {
	if c.Default != nil {
		if err := c.Default.Validate(); err != nil {
			return fmt.Errorf("command_policy.default: %w", err)
		}
	}
	for id, p := range c.Agents {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("command_policy.agents.%s: %w", id, err)
		}
	}
	return nil
}
