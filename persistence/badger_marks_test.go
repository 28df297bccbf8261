package persistence

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// TestMarksLogWritesOverItsZeros: cycle records are written over the zeros
// a snapshot left after itself, so the file keeps its length while they
// fit; past the zeros it grows by whole chunks. Every record replays, and
// neither the zeros nor the growth read as a torn tail.
func TestMarksLogWritesOverItsZeros(t *testing.T) {
	dir := t.TempDir()
	l, err := writeMarksSnapshot(dir, map[string]streamMark{"a": {highest: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	length := func() int64 {
		st, err := os.Stat(marksPath(dir))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	start := length()
	if start < l.size+marksChunk {
		t.Fatalf("snapshot file is %d bytes for a %d-byte record, want at least %d zeros after it", start, l.size, marksChunk)
	}
	want := map[string]streamMark{"a": {highest: 1}}
	grew := false
	for i := 2; l.size < 3*marksChunk; i++ {
		// Records of a few hundred bytes: many cycles, several chunks.
		cycle := map[string]streamMark{}
		for j := range 8 {
			name := fmt.Sprintf("agent-%02d-%s", j, bytes.Repeat([]byte("x"), 20))
			cycle[name] = streamMark{highest: uint64(i), low: uint64(i / 2)}
			want[name] = cycle[name]
		}
		before := l.size
		if err := l.append(cycle, false); err != nil {
			t.Fatal(err)
		}
		switch n := length(); {
		case n < l.size+1:
			t.Fatalf("after a record ending at %d the file is %d bytes", l.size, n)
		case n != start && before+int64(len(encodeMarks(marksCycle, cycle))) <= start:
			t.Fatalf("the file grew from %d to %d bytes for a record that fitted in its zeros", start, n)
		case n != start:
			grew, start = true, n
		}
	}
	if !grew {
		t.Fatal("the log never grew past its first zeros")
	}
	mr, err := readMarks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !mr.found || mr.tornBytes != 0 || len(mr.marks) != len(want) {
		t.Fatalf("replayed %d marks, torn %d; want %d, no tear", len(mr.marks), mr.tornBytes, len(want))
	}
	for name, m := range want {
		if mr.marks[name] != m {
			t.Fatalf("mark of %s = %+v, want %+v", name, mr.marks[name], m)
		}
	}
}

// TestMarksTornRecordBeforeZeros: a record cut by a crash, with the zeros
// still after it, is a torn tail of exactly its written bytes; the records
// before it replay.
func TestMarksTornRecordBeforeZeros(t *testing.T) {
	dir := t.TempDir()
	l, err := writeMarksSnapshot(dir, map[string]streamMark{"a": {highest: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.append(map[string]streamMark{"a": {highest: 2}}, false); err != nil {
		t.Fatal(err)
	}
	cut := encodeMarks(marksCycle, map[string]streamMark{"a": {highest: 3}})
	cut = cut[:len(cut)-2] // the last bytes never reached the disk
	if _, err := l.f.WriteAt(cut, l.size); err != nil {
		t.Fatal(err)
	}
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	mr, err := readMarks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if mr.marks["a"].highest != 2 || mr.tornBytes != len(cut) {
		t.Fatalf("replay = highest %d, torn %d bytes; want 2 and %d", mr.marks["a"].highest, mr.tornBytes, len(cut))
	}
}

// TestMarksWithoutZerosStillRead: a marks file as earlier versions wrote
// it (records to the end, no zeros) replays the same.
func TestMarksWithoutZerosStillRead(t *testing.T) {
	dir := t.TempDir()
	b := append(encodeMarks(marksSnapshot, map[string]streamMark{"a": {highest: 4}, "b": {highest: 2}}),
		encodeMarks(marksCycle, map[string]streamMark{"a": {highest: 6, low: 1}})...)
	if err := os.WriteFile(marksPath(dir), b, 0o600); err != nil {
		t.Fatal(err)
	}
	mr, err := readMarks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if mr.tornBytes != 0 || mr.marks["a"] != (streamMark{highest: 6, low: 1}) || mr.marks["b"] != (streamMark{highest: 2}) ||
		mr.prev["a"] != (streamMark{highest: 4}) {
		t.Fatalf("replay = %+v, want a 6/1 (was 4), b 2, no tear", mr)
	}
}
