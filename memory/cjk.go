package memory

import (
	"strings"
	"unicode"
)

// isCJK reports whether r is written without spaces between words (Han, kana, Hangul), so the
// default word tokenizer would treat a whole run as one token.
func isCJK(r rune) bool {
	if r < 0x1100 { // below Hangul Jamo: Latin, Greek, Cyrillic, Arabic, Indic...
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// isWordRune reports whether r is part of a word for the tokenizer (letters and digits).
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// project returns the FTS projection of text: the text with every CJK run replaced by its
// overlapping bigrams (数据库 → " 数据 据库 "); a run of one character stays itself. Latin words
// pass through for the Unicode tokenizer. The projection is only ever indexed, never shown.
func project(text string) string {
	var b strings.Builder
	b.Grow(len(text) + len(text)/2)
	var run []rune
	flush := func() {
		if len(run) == 0 {
			return
		}
		b.WriteByte(' ')
		b.WriteString(strings.Join(bigrams(run), " "))
		b.WriteByte(' ')
		run = run[:0]
	}
	for _, r := range text {
		if isCJK(r) {
			run = append(run, r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String()
}

// bigrams splits a CJK run into overlapping pairs; a single rune is returned alone.
func bigrams(run []rune) []string {
	if len(run) == 1 {
		return []string{string(run)}
	}
	out := make([]string, 0, len(run)-1)
	for i := 0; i+1 < len(run); i++ {
		out = append(out, string(run[i:i+2]))
	}
	return out
}

// term is one query term: a Latin word (one token) or a CJK run (its bigrams, matched as a phrase).
type term struct {
	tokens []string // lowercased tokens as the index holds them
	text   string   // the term as written, lowercased, for snippets
	single bool     // a lone CJK character: matched as a bigram prefix
}

// queryTerms splits query text into terms the same way project and the tokenizer split documents.
// Duplicates are dropped; at most maxTerms are kept so one query costs a bounded amount.
func queryTerms(text string) []term {
	var terms []term
	seen := map[string]bool{}
	add := func(t term) {
		if t.text == "" || seen[t.text] || len(terms) >= maxTerms {
			return
		}
		seen[t.text] = true
		terms = append(terms, t)
	}
	var word, run []rune
	flushWord := func() {
		if len(word) > 0 {
			w := strings.ToLower(string(word))
			add(term{tokens: []string{w}, text: w})
			word = word[:0]
		}
	}
	flushRun := func() {
		if len(run) > 0 {
			add(term{tokens: bigrams(run), text: string(run), single: len(run) == 1})
			run = run[:0]
		}
	}
	for _, r := range text {
		switch {
		case isCJK(r):
			flushWord()
			run = append(run, r)
		case isWordRune(r):
			flushRun()
			word = append(word, r)
		default:
			flushWord()
			flushRun()
		}
	}
	flushWord()
	flushRun()
	return terms
}

// maxTerms bounds the words one query searches for.
const maxTerms = 16

// match returns the FTS5 expression for t: every token quoted (so no query syntax leaks through
// from the model's text), CJK bigrams as one phrase, a lone CJK character as a prefix.
func (t term) match() string {
	q := make([]string, len(t.tokens))
	for i, tok := range t.tokens {
		q[i] = `"` + strings.ReplaceAll(tok, `"`, `""`) + `"`
	}
	if t.single {
		return q[0] + "*"
	}
	if len(q) == 1 {
		return q[0]
	}
	return "(" + strings.Join(q, " + ") + ")"
}
