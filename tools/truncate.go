package tools

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// markerReserve is what HeadTail keeps free for its marker, so a preview
// never exceeds its budget; minPreview is the smallest budget honoured.
const (
	markerReserve = 160
	minPreview    = 256
)

// HeadTail returns s if it fits in maxChars bytes, otherwise its first and
// last lines around an explicit marker:
//
//	<first lines>
//	...
//	[output truncated: showing first N and last M lines; B bytes omitted]
//	...
//	<last lines>
//
// The preview is never longer than maxChars, so re-rendering a preview with
// the same budget returns it unchanged. Invalid UTF-8 is replaced.
func HeadTail(s string, maxChars int) (preview string, truncated bool) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	maxChars = max(maxChars, minPreview)
	if len(s) <= maxChars {
		return s, false
	}
	half := max((maxChars-markerReserve)/2, 0)
	head := cutHead(s[:half])
	tail := cutTail(s[len(s)-half:])
	return joinHeadTail(head, tail, int64(len(s)-len(head)-len(tail))), true
}

// HeadTailReader is HeadTail over content of size bytes readable at
// random offsets, such as an output file being written: it reads at most
// maxChars bytes whatever the size.
func HeadTailReader(r io.ReaderAt, size int64, maxChars int) (preview string, truncated bool, err error) {
	maxChars = max(maxChars, minPreview)
	if size <= int64(maxChars) {
		buf := make([]byte, size)
		n, err := r.ReadAt(buf, 0)
		if err != nil && err != io.EOF {
			return "", false, fmt.Errorf("read output: %w", err)
		}
		return strings.ToValidUTF8(string(buf[:n]), "\uFFFD"), false, nil
	}
	half := max((maxChars-markerReserve)/2, 0)
	hb := make([]byte, half)
	if _, err := r.ReadAt(hb, 0); err != nil && err != io.EOF {
		return "", false, fmt.Errorf("read output head: %w", err)
	}
	tb := make([]byte, half)
	if _, err := r.ReadAt(tb, size-int64(half)); err != nil && err != io.EOF {
		return "", false, fmt.Errorf("read output tail: %w", err)
	}
	head := cutHead(strings.ToValidUTF8(string(hb), "\uFFFD"))
	tail := cutTail(strings.ToValidUTF8(string(tb), "\uFFFD"))
	omitted := size - int64(len(hb)+len(tb)) + int64(len(hb)-len(head)) + int64(len(tb)-len(tail))
	return joinHeadTail(head, tail, omitted), true, nil
}

// cutHead ends the head at its last newline, or at a rune boundary when
// it has none.
func cutHead(h string) string {
	if i := strings.LastIndexByte(h, '\n'); i >= 0 {
		return h[:i+1]
	}
	for len(h) > 0 && !utf8.ValidString(h) {
		h = h[:len(h)-1]
	}
	return h
}

// cutTail starts the tail after its first newline, or at a rune boundary.
func cutTail(t string) string {
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
		return t[i+1:]
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return t
}

func joinHeadTail(head, tail string, omitted int64) string {
	var b strings.Builder
	b.WriteString(head)
	if head != "" && !strings.HasSuffix(head, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "...\n[output truncated: showing first %d and last %d lines; %d bytes omitted]\n...\n",
		countLines(head), countLines(tail), omitted)
	b.WriteString(tail)
	return b.String()
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
