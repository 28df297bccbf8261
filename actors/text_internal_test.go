package actors

import (
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

func TestCutRunes(t *testing.T) {
	tests := []struct {
		name, s  string
		n        int
		want     string
		complete bool
	}{
		{"empty", "", 3, "", true},
		{"empty to zero", "", 0, "", true},
		{"shorter", "abc", 5, "abc", true},
		{"exact", "héllo", 5, "héllo", true},
		{"cut in runes, not bytes", "héllo", 2, "hé", false},
		{"zero of something", "abc", 0, "", false},
		{"multibyte only", "日本語テキスト", 3, "日本語", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, complete := agentstate.CutRunes(tt.s, tt.n)
			if got != tt.want || complete != tt.complete {
				t.Errorf("cutRunes(%q, %d) = %q, %v; want %q, %v", tt.s, tt.n, got, complete, tt.want, tt.complete)
			}
		})
	}
}

func TestTruncateAndOneLine(t *testing.T) {
	tests := []struct {
		name, s string
		n       int
		f       func(string, int) string
		want    string
	}{
		{"truncate: fits", "abc", 3, truncate, "abc"},
		{"truncate: cut, marked", "abcd", 3, truncate, "abc…"},
		{"truncate: empty", "", 0, truncate, ""},
		{"truncate: keeps newlines", "a\nb", 5, truncate, "a\nb"},
		{"oneLine: whitespace runs become one space", "  a\n\tb   c \n", 80, oneLine, "a b c"},
		{"oneLine: cut after joining", "a\nbcdef", 4, oneLine, "a bc…"},
		{"oneLine: blank", " \n\t ", 10, oneLine, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f(tt.s, tt.n); got != tt.want {
				t.Errorf("(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
			}
		})
	}
}

// TestDigest pins digest against SHA-256 values computed outside Go: the
// prompt cache key and the loop breaker's call key are made with it, so a
// change would break caching and loop detection across a restart.
func TestDigest(t *testing.T) {
	tests := []struct {
		name  string
		parts []string
		want  string
	}{
		{"no parts", nil, "e3b0c44298fc1c149afbf4c8"}, // sha256("")
		{"one part", []string{"x"}, "14f825b2bbc32dd8d196367f"},
		{"ab, c", []string{"ab", "c"}, "629c2f14f654f026086f2aef"},
		{"a, bc: the separator keeps them apart", []string{"a", "bc"}, "aa795aa4bbb6117911ef062e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agentstate.Digest(tt.parts...); got != tt.want {
				t.Errorf("digest(%q) = %s, want %s", tt.parts, got, tt.want)
			}
		})
	}
}

func TestNonEmptyAndReasonOr(t *testing.T) {
	tests := []struct {
		name, s, def, want string
	}{
		{"given", "operator said so", "operator pause", "operator said so"},
		{"empty takes the default", "", "operator pause", "operator pause"},
		{"blank is not empty", " ", "operator pause", " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nonEmpty(tt.s, tt.def); got != tt.want {
				t.Errorf("nonEmpty(%q, %q) = %q, want %q", tt.s, tt.def, got, tt.want)
			}
			if got := reasonOr(tt.s, tt.def); got != tt.want {
				t.Errorf("reasonOr(%q, %q) = %q, want %q", tt.s, tt.def, got, tt.want)
			}
		})
	}
}
