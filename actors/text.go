package actors

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Small string helpers shared by the agent, its prompt and its tasks.

// cutRunes returns the first n runes of s and whether that is all of s.
func cutRunes(s string, n int) (string, bool) {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], false
		}
		i++
	}
	return s, true
}

// truncate returns s cut to its first n bytes, with "…" appended when
// anything was cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// oneLine is s on one line, cut to n bytes.
func oneLine(s string, n int) string {
	return truncate(strings.Join(strings.Fields(s), " "), n)
}

// digest returns the first 24 hex digits of the SHA-256 of parts, each
// ended by a NUL byte, so ("ab", "c") and ("a", "bc") differ.
func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// nonEmpty returns s, or def when s is empty.
func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// reasonOr returns an operator's reason, or def when none was given.
func reasonOr(reason, def string) string { return nonEmpty(reason, def) }
