package agentstate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestDigest: the first 24 hex digits of the SHA-256 of the parts, each
// ended by a NUL, for parts shorter and longer than the digester's
// buffer; one allocation, the string.
func TestDigest(t *testing.T) {
	long := strings.Repeat("a system prompt, ", 100)
	tests := []struct {
		name  string
		parts []string
	}{
		{"none", nil},
		{"empty part", []string{""}},
		{"split ab c", []string{"ab", "c"}},
		{"split a bc", []string{"a", "bc"}},
		{"long parts", []string{"agent-1", long, long[:257], "echo,sleep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sha256.New()
			for _, p := range tt.parts {
				h.Write([]byte(p + "\x00"))
			}
			want := hex.EncodeToString(h.Sum(nil))[:24]
			if got := Digest(tt.parts...); got != want {
				t.Errorf("Digest(%d parts) = %s, want %s", len(tt.parts), got, want)
			}
		})
	}
	if Digest("ab", "c") == Digest("a", "bc") {
		t.Error(`Digest("ab", "c") = Digest("a", "bc"), want them to differ`)
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	if n := testing.AllocsPerRun(100, func() { _ = Digest("agent-1", long, "echo") }); n != 1 {
		t.Errorf("Digest allocates %v times, want 1", n)
	}
}

func BenchmarkDigest(b *testing.B) {
	long := strings.Repeat("a system prompt, ", 100)
	b.ReportAllocs()
	for b.Loop() {
		_ = Digest("agent-1", long, "echo,sleep", "3")
	}
}
