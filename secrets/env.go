package secrets

import (
	"slices"
	"strings"
)

// ControlTokenEnv is the environment variable of the TCP control token.
const ControlTokenEnv = "HOLON_CONTROL_TOKEN"

// Names decides which environment variables carry credentials: the
// control token, the model providers' default key variables
// (OPENAI_API_KEY, ANTHROPIC_API_KEY, HOLON_<PROVIDER>_API_KEY) and the
// extra names given (a config file's api_key_env).
type Names struct {
	Extra []string
}

// Secret reports whether the variable name carries a credential.
func (n Names) Secret(name string) bool {
	switch name {
	case ControlTokenEnv, "OPENAI_API_KEY", "ANTHROPIC_API_KEY":
		return true
	}
	if strings.HasPrefix(name, "HOLON_") && strings.HasSuffix(name, "_API_KEY") {
		return true
	}
	return slices.Contains(n.Extra, name)
}

// Split divides env ("NAME=value" entries) into what a child may inherit
// and the credentials, by name.
func (n Names) Split(env []string) (kept []string, taken map[string]string) {
	kept, taken = make([]string, 0, len(env)), map[string]string{}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if n.Secret(name) {
			taken[name] = value
			continue
		}
		kept = append(kept, kv)
	}
	return kept, taken
}

// Strip is env without the credentials.
func (n Names) Strip(env []string) []string {
	kept, _ := n.Split(env)
	return kept
}

// Lookup returns a getenv that answers from vars first, then from
// getenv: the background runtime's view of its environment, with the
// credentials it received through a Handoff.
func Lookup(vars map[string]string, getenv func(string) string) func(string) string {
	return func(name string) string {
		if v, ok := vars[name]; ok {
			return v
		}
		return getenv(name)
	}
}
