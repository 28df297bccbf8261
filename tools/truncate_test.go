package tools_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestHeadTail(t *testing.T) {
	cases := []struct {
		name      string
		in        string
		max       int
		truncated bool
	}{
		{"fits", "a\nb\n", 1000, false},
		{"lines", numbered(5000), 2000, true},
		{"one long line", strings.Repeat("x", 10000), 1000, true},
		{"multibyte", strings.Repeat("é", 5000), 1000, true},
		{"tiny budget", numbered(100), 10, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, tr := tools.HeadTail(c.in, c.max)
			if tr != c.truncated {
				t.Fatalf("truncated = %v, want %v", tr, c.truncated)
			}
			if !tr {
				if got != c.in {
					t.Fatalf("untruncated preview changed")
				}
				return
			}
			if len(got) > max(c.max, 256) {
				t.Errorf("len = %d, over budget %d", len(got), c.max)
			}
			if !strings.Contains(got, "[output truncated: showing first ") {
				t.Errorf("no marker in %q", got)
			}
			if again, tr2 := tools.HeadTail(got, c.max); again != got || tr2 {
				t.Errorf("re-rendering changed the preview")
			}
			if !strings.HasPrefix(c.in, strings.TrimSuffix(got[:strings.Index(got, "...\n[output")], "\n")) {
				t.Errorf("head is not a prefix")
			}
			tail := got[strings.LastIndex(got, "...\n")+4:]
			if !strings.HasSuffix(c.in, tail) {
				t.Errorf("tail %q is not a suffix", tail)
			}
		})
	}
}

func TestHeadTailLinesCounted(t *testing.T) {
	got, _ := tools.HeadTail(numbered(1000), 1000)
	if !strings.HasPrefix(got, "line 1\n") || !strings.HasSuffix(got, "line 1000\n") {
		t.Fatalf("preview lost the first or last line:\n%s", got)
	}
	if !regexp.MustCompile(`\n\.\.\.\n\[output truncated: showing first \d+ and last \d+ lines; \d+ bytes omitted\]\n\.\.\.\n`).MatchString(got) {
		t.Errorf("marker: %s", got[strings.Index(got, "["):strings.Index(got, "]")+1])
	}
}

func TestHeadTailReaderMatchesHeadTail(t *testing.T) {
	for _, in := range []string{numbered(3), numbered(5000), strings.Repeat("é", 3000)} {
		want, wt := tools.HeadTail(in, 1500)
		got, gt, err := tools.HeadTailReader(strings.NewReader(in), int64(len(in)), 1500)
		if err != nil || got != want || gt != wt {
			t.Errorf("HeadTailReader = %q,%v,%v; HeadTail = %q,%v", got, gt, err, want, wt)
		}
	}
}
