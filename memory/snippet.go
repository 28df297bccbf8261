package memory

import (
	"strings"
	"unicode/utf8"
)

// snippetChars is the length of a snippet, in characters.
const snippetChars = 240

// snippet is a window of the original body around the first place any term occurs, on character
// boundaries, with "…" where it was cut. It never shows the index's bigram projection.
func snippet(body string, terms []term) string {
	at := firstMatch(body, terms)
	if at < 0 {
		at = 0
	}
	start := at
	for back := 0; back < snippetChars/4 && start > 0; back++ {
		_, size := utf8.DecodeLastRuneInString(body[:start])
		start -= size
	}
	end, n := start, 0
	for end < len(body) && n < snippetChars {
		_, size := utf8.DecodeRuneInString(body[end:])
		end += size
		n++
	}
	s := strings.TrimSpace(body[start:end])
	if start > 0 {
		s = "…" + s
	}
	if end < len(body) {
		s += "…"
	}
	return s
}

// firstMatch is the byte offset in body of the earliest term, matched without regard to case,
// or -1.
func firstMatch(body string, terms []term) int {
	best := -1
	for _, t := range terms {
		if i := indexFold(body, t.text); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// indexFold is strings.Index ignoring case, returning a byte offset into s.
func indexFold(s, sub string) int {
	if sub == "" {
		return -1
	}
	first, _ := utf8.DecodeRuneInString(sub)
	for i, r := range s {
		if !strings.EqualFold(string(r), string(first)) {
			continue
		}
		if hasPrefixFold(s[i:], sub) {
			return i
		}
	}
	return -1
}

// hasPrefixFold reports whether s starts with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	for _, pr := range prefix {
		r, size := utf8.DecodeRuneInString(s)
		if size == 0 || !strings.EqualFold(string(r), string(pr)) {
			return false
		}
		s = s[size:]
	}
	return true
}

// countFold counts the non-overlapping occurrences of sub in s, ignoring case.
func countFold(s, sub string) int {
	n := 0
	for {
		i := indexFold(s, sub)
		if i < 0 {
			return n
		}
		n++
		s = s[i+len(sub):]
		if len(s) == 0 {
			return n
		}
	}
}
