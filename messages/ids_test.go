package messages

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

var idPattern = regexp.MustCompile(`^evt_[0-9A-HJKMNP-TV-Z]{26}$`)

func TestNewIDFormat(t *testing.T) {
	if id := NewID("evt"); !idPattern.MatchString(id) {
		t.Errorf("NewID(evt) = %q, want evt_ + 26 Crockford base32 digits", id)
	}
	if id := NewID(""); len(id) != 26 {
		t.Errorf("NewID(\"\") = %q, want 26 digits without prefix", id)
	}
}

func TestNewIDStrictlyIncreasing(t *testing.T) {
	const n = 10000
	var (
		mu  sync.Mutex
		ids []string
		wg  sync.WaitGroup
	)
	for range 4 {
		wg.Go(func() {
			local := make([]string, 0, n)
			for range n {
				local = append(local, NewID("m"))
			}
			if !sort.StringsAreSorted(local) {
				t.Error("ids from one goroutine are not increasing")
			}
			mu.Lock()
			ids = append(ids, local...)
			mu.Unlock()
		})
	}
	wg.Wait()
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
	}
}

func TestEncodeID(t *testing.T) {
	tests := []struct {
		ms   uint64
		r    [10]byte
		want string
	}{
		{0, [10]byte{}, "00000000000000000000000000"},
		{1<<48 - 1, [10]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
		{1, [10]byte{9: 1}, "00000000010000000000000001"},
		// The time part of the ULID spec's example id 01ARYZ6S41TSV4RRFFQ69G5FAV.
		{1469918176385, [10]byte{}, "01ARYZ6S410000000000000000"},
	}
	for _, tt := range tests {
		if got := encodeID(tt.ms, tt.r); got != tt.want {
			t.Errorf("encodeID(%d, %x) = %s, want %s", tt.ms, tt.r, got, tt.want)
		}
	}
}

func TestNextIDBitsMonotonic(t *testing.T) {
	now := uint64(time.Now().UnixMilli()) + 1_000_000 // ahead of any id made so far
	ms1, r1 := nextIDBits(now)
	ms2, r2 := nextIDBits(now - 5) // clock stepped back
	if ms2 != ms1 || encodeID(ms2, r2) <= encodeID(ms1, r1) {
		t.Errorf("after a clock step back: %s then %s, want increasing within %d", encodeID(ms1, r1), encodeID(ms2, r2), ms1)
	}
}

func TestIncrementOverflow(t *testing.T) {
	b := [10]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	if increment(&b) || b != [10]byte{} {
		t.Errorf("increment(max) = %x, want overflow to zero", b)
	}
	b = [10]byte{9: 0xff}
	if !increment(&b) || b != [10]byte{8: 1} {
		t.Errorf("increment carried to %x, want 0x...0100", b)
	}
}

// TestNewIDPrefixes: the id follows any prefix, one longer than the
// stack buffer too, and costs one allocation, the string.
func TestNewIDPrefixes(t *testing.T) {
	for _, prefix := range []string{"evt", "a-prefix-longer-than-the-sixty-four-bytes-an-id-is-built-in-on-the-stack"} {
		id := NewID(prefix)
		if rest, ok := strings.CutPrefix(id, prefix+"_"); !ok || len(rest) != 26 || !idPattern.MatchString("evt_"+rest) {
			t.Errorf("NewID(%q) = %q, want the prefix, _ and 26 Crockford base32 digits", prefix, id)
		}
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	if n := testing.AllocsPerRun(100, func() { _ = NewID("evt") }); n != 1 {
		t.Errorf("NewID(evt) allocates %v times, want 1", n)
	}
}

func BenchmarkNewID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = NewID("evt")
	}
}
