package actors

import (
	"strings"
)

// Small string helpers shared by the agent, its prompt and its tasks.

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

// nonEmpty returns s, or def when s is empty.
func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// reasonOr returns an operator's reason, or def when none was given.
func reasonOr(reason, def string) string { return nonEmpty(reason, def) }
