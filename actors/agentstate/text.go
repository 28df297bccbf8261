package agentstate

import (
	"crypto/sha256"
	"encoding/hex"
)

// CutRunes returns the first n runes of s and whether that is all of s.
func CutRunes(s string, n int) (string, bool) {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], false
		}
		i++
	}
	return s, true
}

// Digest returns the first 24 hex digits of the SHA-256 of parts, each
// ended by a NUL byte, so ("ab", "c") and ("a", "bc") differ.
func Digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// truncate returns s cut to its first n bytes, with "…" appended when
// anything was cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
