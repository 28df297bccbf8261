package importcheck

import (
	"slices"
	"testing"
)

func TestViolations(t *testing.T) {
	const self = "example.com/m/pure"
	tests := []struct {
		name    string
		imports map[string][]string
		want    []string
	}{
		{"stdlib and leaves only", map[string][]string{
			self:                 {"fmt", "example.com/m/leaf"},
			"example.com/m/leaf": {"strings", "net/url"},
		}, nil},
		{"zerolog through a data package", map[string][]string{
			self:                  {"example.com/m/types"},
			"example.com/m/types": {"github.com/rs/zerolog"},
		}, []string{"imports github.com/rs/zerolog through example.com/m/pure → example.com/m/types"}},
		{"a subpackage of a forbidden module", map[string][]string{
			self: {"github.com/asynkron/protoactor-go/actor"},
		}, []string{"imports github.com/asynkron/protoactor-go/actor through example.com/m/pure"}},
		{"net and os/exec, not net/url", map[string][]string{
			self:               {"net/url", "example.com/m/io"},
			"example.com/m/io": {"net", "os/exec"},
		}, []string{"imports net through example.com/m/pure → example.com/m/io", "imports os/exec through example.com/m/pure → example.com/m/io"}},
		{"the clock library and storage", map[string][]string{
			self: {"github.com/jonboulle/clockwork", "github.com/holon-actors/holon-actors/persistence", "github.com/dgraph-io/badger/v4"},
		}, []string{
			"imports github.com/jonboulle/clockwork through example.com/m/pure",
			"imports github.com/holon-actors/holon-actors/persistence through example.com/m/pure",
			"imports github.com/dgraph-io/badger/v4 through example.com/m/pure",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Violations(tt.imports, self, Impure); !slices.Equal(got, tt.want) {
				t.Errorf("Violations = %q, want %q", got, tt.want)
			}
		})
	}
}
