package control

import (
	"runtime"
	"strings"
	"testing"
)

// TestOneLine: whitespace runs become one space and a long line is cut at
// summaryLimit runes with an ellipsis, multibyte runes intact.
func TestOneLine(t *testing.T) {
	long := strings.Repeat("é", summaryLimit+10)
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"only space", " \n\t ", ""},
		{"collapses whitespace", "  a\n\nb\t c  ", "a b c"},
		{"exactly the limit", strings.Repeat("x", summaryLimit), strings.Repeat("x", summaryLimit)},
		{"one over the limit", strings.Repeat("x", summaryLimit+1), strings.Repeat("x", summaryLimit-1) + "…"},
		{"multibyte", long, strings.Repeat("é", summaryLimit-1) + "…"},
		{"words past the limit", strings.Repeat("ab ", 100), strings.Repeat("ab ", 53) + "…"},
		{"limit reached at a space", strings.Repeat("x", summaryLimit) + " y", strings.Repeat("x", summaryLimit-1) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := oneLine(tt.in); got != tt.want {
				t.Fatalf("oneLine(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestOneLineLargeBody: a summary of a 4 MiB body allocates about a
// summary's worth, not copies of the body (it was 6 of them).
func TestOneLineLargeBody(t *testing.T) {
	body := strings.Repeat("build log line: ok\n", 4<<20/19)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := oneLine(body)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Fatalf("oneLine of %d bytes allocated %d bytes, want under 64 KiB", len(body), n)
	}
	if !strings.HasPrefix(got, "build log line: ok build") || !strings.HasSuffix(got, "…") {
		t.Fatalf("oneLine = %q", got)
	}
}
