package actors_test

import (
	"reflect"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
)

// TestDepsAreConfigurationOnly: a caller building AgentDeps (and its
// ToolEnv) can set every field of it; what the runtime wires into its
// agents (its back-pointers, the timer service, its task host) is not
// hidden in there.
func TestDepsAreConfigurationOnly(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[actors.AgentDeps](), reflect.TypeFor[actors.ToolEnv]()} {
		for f := range typ.Fields() {
			if !f.IsExported() {
				t.Errorf("%s.%s is unexported: %s is configuration only; pass runtime wiring to the agent beside it", typ.Name(), f.Name, typ.Name())
			}
		}
	}
}
