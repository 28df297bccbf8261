package persistence

// Damage to Badger's own files (research R3, issue 17): each kind of file in
// a real data directory is deleted, truncated or has bytes flipped, the store
// is opened on the damaged copy and compared, event by event, with the
// undamaged baseline. Every loss must be either recovered (the events read
// back identical) or reported (the stream quarantined, the loss listed in
// Health, or Open refused with ErrDamaged): never a short or different
// journal read back without an error.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/holon-actors/holon-actors/messages"
)

// damageImage is a data directory and what every stream held in it.
type damageImage struct {
	name string
	dir  string
	want map[string][]messages.Event
}

// buildDamageImages returns two images: "flushed", closed cleanly so the
// events are in table files, and "crash", the flushed store with more
// events appended and the directory copied while the store is open, as a
// power cut would leave it (recent events only in the WAL).
func buildDamageImages(t *testing.T) []damageImage {
	t.Helper()
	ctx := context.Background()
	flushed := t.TempDir()
	s, err := Open(testBadgerOptions(flushed))
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	for i := 1; i <= 200; i += 10 {
		mustAppend(t, s, victim, testEvents(victim, i, i+9))
	}
	mustAppend(t, s, bystander, testEvents(bystander, 1, 50))
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	base := damageImage{name: "flushed", dir: flushed, want: readAll(t, flushed)}

	work := copyDir(t, flushed)
	s, err = Open(testBadgerOptions(work))
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	mustAppend(t, s, victim, testEvents(victim, 201, 230))
	mustAppend(t, s, bystander, testEvents(bystander, 51, 60))
	crash := copyDir(t, work)
	want := map[string][]messages.Event{}
	for _, stream := range []string{victim, bystander} {
		evs, err := s.Read(ctx, stream, 1, maxSeq, 0)
		if err != nil {
			t.Fatalf("Read(%s) = %v", stream, err)
		}
		want[stream] = evs
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	return []damageImage{base, {name: "crash", dir: crash, want: want}}
}

// readAll opens dir and reads every stream.
func readAll(t *testing.T, dir string) map[string][]messages.Event {
	t.Helper()
	s, err := Open(testBadgerOptions(dir))
	if err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	defer s.Close()
	out := map[string][]messages.Event{}
	streams, err := s.Streams(context.Background())
	if err != nil {
		t.Fatalf("Streams = %v", err)
	}
	for _, stream := range streams {
		evs, err := s.Read(context.Background(), stream, 1, maxSeq, 0)
		if err != nil {
			t.Fatalf("Read(%s) = %v", stream, err)
		}
		out[stream] = evs
	}
	return out
}

// copyDir copies the regular files of dir (no subdirectories in a data
// directory) into a new temporary directory.
func copyDir(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		src, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(filepath.Join(dst, e.Name()), os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// fileKind selects the files of one kind in a data directory.
type fileKind struct {
	name  string
	match func(name string) bool
}

var damageKinds = []fileKind{
	{"MANIFEST", func(n string) bool { return n == "MANIFEST" }},
	{"WAL (.mem)", func(n string) bool { return strings.HasSuffix(n, ".mem") }},
	{"table (.sst)", func(n string) bool { return strings.HasSuffix(n, ".sst") }},
	{"value log (.vlog)", func(n string) bool { return strings.HasSuffix(n, ".vlog") }},
	{"integrity marks", func(n string) bool { return n == marksFileName }},
}

// fileDamage spoils one file.
type fileDamage struct {
	name  string
	apply func(t *testing.T, path string)
}

var fileDamages = []fileDamage{
	{"deleted", func(t *testing.T, path string) {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}},
	{"truncated to half", func(t *testing.T, path string) {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, st.Size()/2); err != nil {
			t.Fatal(err)
		}
	}},
	{"bytes flipped in the middle", func(t *testing.T, path string) { flipBytes(t, path, func(n int) int { return n / 2 }) }},
	{"bytes flipped at 4 KiB", func(t *testing.T, path string) { flipBytes(t, path, func(n int) int { return min(4096, n/2) }) }},
}

// flipBytes flips 16 bytes of path from offset at(size).
func flipBytes(t *testing.T, path string, at func(int) int) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := at(len(b)); i < at(len(b))+16 && i < len(b); i++ {
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// wantDamage pins the outcome of the cases whose handling is decided
// (the others must only be recovered or reported, which openDamaged
// checks): losses are counted exactly, the bystander is untouched where
// the damage is the victim's, and table damage is refused, not a crash.
var wantDamage = map[string]string{
	"flushed/MANIFEST/deleted": "intact [], tail dropped [], quarantined [agent-victim agent-bystander], events reported lost 250, torn WAL tails 0",
	"crash/MANIFEST/deleted":   "intact [], tail dropped [], quarantined [agent-victim agent-bystander], events reported lost 250, torn WAL tails 0",
	// The bystander's events were the last commit: its marks alone cannot
	// tell them from writes a crash cut, so they are reported as dropped.
	"crash/WAL (.mem)/deleted":                     "intact [], tail dropped [agent-bystander], quarantined [agent-victim], events reported lost 30, torn WAL tails 0",
	"crash/WAL (.mem)/bytes flipped in the middle": "intact [agent-victim agent-bystander], tail dropped [], quarantined [], events reported lost 0, torn WAL tails 1",
	"flushed/table (.sst)/truncated to half":       "open refused (ErrDamaged)",
	"crash/table (.sst)/deleted":                   "open refused (ErrDamaged)",
	"flushed/integrity marks/deleted":              "intact [agent-victim agent-bystander], tail dropped [], quarantined [], events reported lost 0, torn WAL tails 0",
	// A WAL written to and cut by a crash, undamaged, has no torn tail.
	"crash/integrity marks/deleted": "intact [agent-victim agent-bystander], tail dropped [], quarantined [], events reported lost 0, torn WAL tails 0",
}

// damageOutcome is what opening and reading a damaged image gave.
type damageOutcome struct {
	refused     bool     // Open failed with ErrDamaged
	intact      []string // streams read back identical
	dropped     []string // streams read back identical but for reported dropped tail records
	quarantined []string // streams reported damaged
	lost        int      // events listed in Health.Lost
	torn        int      // torn WAL tails reported
}

func (o damageOutcome) String() string {
	if o.refused {
		return "open refused (ErrDamaged)"
	}
	return fmt.Sprintf("intact %v, tail dropped %v, quarantined %v, events reported lost %d, torn WAL tails %d",
		o.intact, o.dropped, o.quarantined, o.lost, o.torn)
}

// openDamaged opens a damaged copy and checks every stream of the
// baseline: recovered or reported, never silently short. A test failure
// here is a silent loss.
func openDamaged(t *testing.T, img damageImage, dir string) damageOutcome {
	t.Helper()
	var out damageOutcome
	s, err := Open(testBadgerOptions(dir))
	if err != nil {
		if !errors.Is(err, ErrDamaged) {
			t.Fatalf("Open(damaged) = %v, want nil or ErrDamaged", err)
		}
		if strings.Contains(err.Error(), "goroutine ") {
			t.Errorf("Open(damaged) error carries a stack trace: %v", err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("Open(damaged) error is not one sentence: %q", err)
		}
		out.refused = true
		return out
	}
	defer s.Close()
	for _, l := range s.Health().Lost {
		out.lost += int(l.To - l.From + 1)
	}
	out.torn = len(s.Health().TornWAL)
	for _, stream := range []string{victim, bystander} {
		want := img.want[stream]
		got, err := s.Read(context.Background(), stream, 1, maxSeq, 0)
		_, reported := quarantinedAt(s.Health(), stream)
		switch {
		case err == nil && sameEvents(got, want):
			out.intact = append(out.intact, stream)
		case err == nil && droppedReported(got, want, droppedSeqs(s.Health(), stream)):
			out.dropped = append(out.dropped, stream)
		case reported && (err == nil || errors.Is(err, ErrQuarantined)):
			out.quarantined = append(out.quarantined, stream)
		default:
			t.Errorf("%s: read %d events (error %v), baseline %d; not reported in %+v: a silent loss",
				stream, len(got), err, len(want), s.Health())
		}
		if h := mustHighest(t, s, stream); h < uint64(len(want)) {
			t.Errorf("%s: HighestSeq = %d, below the baseline's %d: seqs would be reused", stream, h, len(want))
		}
	}
	return out
}

// droppedReported reports whether got is want without exactly the seqs
// listed as dropped.
func droppedReported(got, want []messages.Event, dropped []uint64) bool {
	var kept []messages.Event
	for _, w := range want {
		if !slices.Contains(dropped, w.Seq) {
			kept = append(kept, w)
		}
	}
	return len(dropped) > 0 && sameEvents(got, kept)
}

func sameEvents(got, want []messages.Event) bool {
	return slices.EqualFunc(got, want, func(g, w messages.Event) bool { return sameEvent(g, w, w.Seq) })
}

func TestBadgerFileDamageMatrix(t *testing.T) {
	images := buildDamageImages(t)
	var mu sync.Mutex
	var table []string
	for _, img := range images {
		for _, kind := range damageKinds {
			for _, d := range fileDamages {
				name := img.name + "/" + kind.name + "/" + d.name
				t.Run(name, func(t *testing.T) {
					dir := copyDir(t, img.dir)
					files := matching(t, dir, kind.match)
					if len(files) == 0 {
						mu.Lock()
						table = append(table, fmt.Sprintf("%-48s no such file in this image", name))
						mu.Unlock()
						return
					}
					for _, f := range files {
						d.apply(t, f)
					}
					out := openDamaged(t, img, dir)
					if want, ok := wantDamage[name]; ok && out.String() != want {
						t.Errorf("outcome %s, want %s", out, want)
					}
					mu.Lock()
					table = append(table, fmt.Sprintf("%-48s %s", name, out))
					mu.Unlock()
				})
			}
		}
	}
	t.Log("file damage matrix:\n" + strings.Join(table, "\n"))
}

func matching(t *testing.T, dir string, match func(string) bool) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if match(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// TestInspect: the offline check names each stream's state and what can
// be done, without changing anything, and refuses while the store is open.
func TestInspect(t *testing.T) {
	tests := []struct {
		name    string
		damage  func(t *testing.T, s *BadgerStore)
		status  string
		corrupt []uint64
		gaps    []LostRange
	}{
		{"undamaged", func(*testing.T, *BadgerStore) {}, StreamOK, nil, nil},
		{"torn tail", func(t *testing.T, s *BadgerStore) {
			injectRaw(t, s, eventKey(victim, 6), []byte("torn"))
		}, StreamTailTorn, []uint64{6}, nil},
		{"corrupt middle", func(t *testing.T, s *BadgerStore) {
			injectRaw(t, s, eventKey(victim, 3), flipAt(-2)(rawValue(t, s, eventKey(victim, 3)), nil))
		}, StreamDamaged, []uint64{3}, nil},
		{"gap", func(t *testing.T, s *BadgerStore) {
			if err := s.db.Update(func(txn *badger.Txn) error { return txn.Delete(eventKey(victim, 4)) }); err != nil {
				t.Fatal(err)
			}
		}, StreamDamaged, nil, []LostRange{{Stream: victim, From: 4, To: 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := corruptionSetup(t, 6)
			tt.damage(t, s)
			if _, err := Inspect(testBadgerOptions(dir)); !errors.Is(err, ErrLocked) {
				t.Errorf("Inspect while open = %v, want ErrLocked", err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			for range 2 { // inspecting changes nothing
				r, err := Inspect(testBadgerOptions(dir))
				if err != nil {
					t.Fatalf("Inspect = %v", err)
				}
				var v, b StreamReport
				for _, sr := range r.Streams {
					switch sr.Stream {
					case victim:
						v = sr
					case bystander:
						b = sr
					}
				}
				if v.Status != tt.status || !slices.Equal(v.Corrupt, tt.corrupt) || !slices.Equal(v.Gaps, tt.gaps) || v.Highest != 6 {
					t.Errorf("victim = %+v, want status %s, corrupt %v, gaps %v", v, tt.status, tt.corrupt, tt.gaps)
				}
				if (tt.status == StreamOK) != r.Healthy || (tt.status != StreamOK) == (v.Repair == "") {
					t.Errorf("Healthy = %v, repair %q for status %s", r.Healthy, v.Repair, tt.status)
				}
				if b.Status != StreamOK || b.Events != 3 {
					t.Errorf("bystander = %+v", b)
				}
			}
		})
	}
}

// TestMarksCompaction: the marks log rewritten as one snapshot record (as
// the committer does past marksCompactAt) still holds every stream's
// marks, and appends after it land in the new file: a WAL lost afterwards
// is still detected.
func TestMarksCompaction(t *testing.T) {
	s, dir := corruptionSetup(t, 5)
	s.commitMu.Lock()
	s.compactMarks()
	s.commitMu.Unlock()
	mustAppend(t, s, bystander, testEvents(bystander, 4, 4))
	mr, err := readMarks(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]streamMark{victim: {highest: 5}, bystander: {highest: 4}}
	if !mr.found || mr.tornBytes != 0 || len(mr.marks) != 2 || mr.marks[victim] != want[victim] || mr.marks[bystander] != want[bystander] {
		t.Fatalf("marks after compaction = %+v, want %v", mr, want)
	}
	s = reopenBadger(t, s, dir)
	if h := s.Health(); len(h.Lost) != 0 || len(h.Quarantined) != 0 || len(h.Notes) != 0 {
		t.Fatalf("Health after reopen = %+v, want nothing found", h)
	}
}

// TestFoundAtStart: doctor promises a quarantine at the next start only
// for damage a start sees: at the ends a start looks up by key, or after
// the newest snapshot, which an agent's recovery reads.
func TestFoundAtStart(t *testing.T) {
	gap := func(from, to uint64) []LostRange { return []LostRange{{Stream: victim, From: from, To: to}} }
	tests := []struct {
		name     string
		sr       StreamReport
		endsLost bool
		want     bool
	}{
		{"corrupt, no snapshot", StreamReport{RetainedFrom: 1, Highest: 9, Corrupt: []uint64{3}}, false, true},
		{"corrupt after the snapshot", StreamReport{RetainedFrom: 1, Highest: 9, SnapshotSeq: 5, Corrupt: []uint64{7}}, false, true},
		{"corrupt behind the snapshot", StreamReport{RetainedFrom: 1, Highest: 9, SnapshotSeq: 9, Corrupt: []uint64{3}}, false, false},
		{"gap behind the snapshot", StreamReport{RetainedFrom: 1, Highest: 9, SnapshotSeq: 9, Gaps: gap(3, 4)}, false, false},
		{"gap at the ends", StreamReport{RetainedFrom: 1, Highest: 9, SnapshotSeq: 9, Gaps: gap(1, 2)}, true, true},
		// A damaged block hides 8..9 from iteration while a lookup by key
		// still finds 9: the start sees nothing, a read of them does.
		{"gap up to an end found by key", StreamReport{RetainedFrom: 1, Highest: 9, SnapshotSeq: 9, Gaps: gap(8, 9)}, false, false},
		{"gap across the snapshot", StreamReport{RetainedFrom: 1, Highest: 9, SnapshotSeq: 5, Gaps: gap(4, 6)}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := foundAtStart(tt.sr, tt.endsLost); got != tt.want {
				t.Errorf("foundAtStart(%+v, %v) = %v, want %v", tt.sr, tt.endsLost, got, tt.want)
			}
			_, repair := streamVerdict(tt.sr, max(tt.sr.Highest, tt.sr.MarkHighest), tt.endsLost)
			if strings.Contains(repair, "at the next start") != tt.want {
				t.Errorf("repair %q, want a quarantine at the next start promised: %v", repair, tt.want)
			}
		})
	}
}

// TestInspectEmptyDir: an empty data directory (a home no runtime has
// stored anything in yet) holds no streams and so has nothing to lose:
// missing integrity marks are no damage there, as at Open.
func TestInspectEmptyDir(t *testing.T) {
	r, err := Inspect(testBadgerOptions(t.TempDir()))
	if err != nil || !r.Healthy || len(r.Streams) != 0 {
		t.Fatalf("Inspect(empty) = %+v, %v; want healthy with no streams", r, err)
	}
}
