package persistence

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// TestRecordSealedInPlaceIsGolden: the write path (encodeBatch, then the
// writer's sealRecordInPlace) makes exactly the committed format-1 bytes
// of every golden record, sealed again for another seq exactly what
// sealRecord makes, and the store kit's bodies are the records' bodies.
func TestRecordSealedInPlaceIsGolden(t *testing.T) {
	dir := filepath.Join("testdata", "records_v1")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	for _, jsonPath := range files {
		name := strings.TrimSuffix(filepath.Base(jsonPath), ".json")
		t.Run(name, func(t *testing.T) {
			var ev messages.Event
			if err := json.Unmarshal(readFixture(t, jsonPath), &ev); err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			json.Compact(&compact, ev.Payload)
			ev.Payload = compact.Bytes()
			want := readFixture(t, filepath.Join(dir, name+".rec"))
			recs, err := encodeBatch(ev.AgentID, []messages.Event{ev})
			if err != nil {
				t.Fatal(err)
			}
			if got := sealRecordInPlace(ev.Seq+1, recs[0]); !bytes.Equal(got, sealRecord(ev.Seq+1, want[recordHeaderLen:])) {
				t.Fatalf("sealed at seq %d:\n%x\nwant\n%x", ev.Seq+1, got, sealRecord(ev.Seq+1, want[recordHeaderLen:]))
			}
			if got := sealRecordInPlace(ev.Seq, recs[0]); !bytes.Equal(got, want) {
				t.Fatalf("sealed again at seq %d:\n%x\nwant the golden record\n%x", ev.Seq, got, want)
			}
			bodies, err := EncodeBatch(ev.AgentID, []messages.Event{ev})
			if err != nil || !bytes.Equal(SealRecord(ev.Seq, bodies[0]), want) {
				t.Fatalf("EncodeBatch then SealRecord = %x, %v; want the golden record", SealRecord(ev.Seq, bodies[0]), err)
			}
		})
	}
}

// TestSnapshotRecordLayout: a snapshot record is the header, the
// timestamp's seconds and nanoseconds, then the data.
func TestSnapshotRecordLayout(t *testing.T) {
	s := Snapshot{Stream: "agent-1", Seq: 9, Timestamp: time.Unix(1_700_000_000, 123), Data: []byte(`{"x":1}`)}
	body := binary.BigEndian.AppendUint64(nil, uint64(s.Timestamp.Unix()))
	body = binary.BigEndian.AppendUint32(body, uint32(s.Timestamp.Nanosecond()))
	body = append(body, s.Data...)
	if got, want := encodeSnapshot(s), sealRecord(s.Seq, body); !bytes.Equal(got, want) {
		t.Fatalf("encodeSnapshot = %x, want %x", got, want)
	}
}

// TestDecodeRecordOfStream: read from its stream, a record decodes to the
// same event as DecodeRecord's, an agent id other than the stream's and an
// unknown type still come out as written, and a known event costs two
// allocations, its id and its payload.
func TestDecodeRecordOfStream(t *testing.T) {
	ev := benchEvent("agent-1", 1)
	body, err := encodeEventBody("agent-1", ev)
	if err != nil {
		t.Fatal(err)
	}
	rec := sealRecord(7, body)
	want, err := DecodeRecord(rec, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, stream := range []string{"agent-1", "agent-2", ""} {
		if got, err := decodeRecord(rec, 7, stream); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeRecord(stream %q) = %+v, %v; want %+v", stream, got, err, want)
		}
	}
	unknown := ev
	unknown.Type = "a_type_from_a_newer_build"
	b := append(appendString(appendString(appendString(nil, unknown.ID), unknown.AgentID), string(unknown.Type)), 1, 0, 0, '{', '}')
	if _, err := decodeRecord(sealRecord(7, b), 7, "agent-1"); !errors.Is(err, ErrUnsupportedRecord) || !strings.Contains(err.Error(), string(unknown.Type)) {
		t.Errorf("decodeRecord of an unknown type = %v, want ErrUnsupportedRecord naming it", err)
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = decodeRecord(rec, 7, "agent-1") }); n != 2 {
		t.Errorf("decodeRecord allocates %v times, want 2", n)
	}
}

// TestEncodeBatchSharesOneAllocation: a batch's records, encoded into
// one allocation, are each the record its event alone encodes to, capped
// at its end, and sealing one leaves its neighbours as they were.
func TestEncodeBatchSharesOneAllocation(t *testing.T) {
	evs := testEvents("a", 1, 5)
	recs, err := encodeBatch("a", evs)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(recs) - 1; i >= 0; i-- { // the last first: its neighbours are already sealed
		sealRecordInPlace(uint64(i+1), recs[i])
	}
	for i, ev := range evs {
		alone, err := encodeEventRecord("a", ev)
		if err != nil {
			t.Fatal(err)
		}
		if want := sealRecordInPlace(uint64(i+1), alone); !bytes.Equal(recs[i], want) || cap(recs[i]) != len(recs[i]) {
			t.Errorf("record %d of the batch = %x (cap %d), want %x, capped", i, recs[i], cap(recs[i]), want)
		}
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	if n := testing.AllocsPerRun(50, func() { _, _ = encodeBatch("a", evs) }); n != 2 {
		t.Errorf("encodeBatch of %d events allocates %v times, want 2 (the records and their slice)", len(evs), n)
	}
}

// TestAppendKeysShareOneAllocation: an append's keys and the highest
// seq's value, carved from one allocation, are the event keys, the
// highest-seq key and the seq, each capped.
func TestAppendKeysShareOneAllocation(t *testing.T) {
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	recs, err := encodeBatch("a", testEvents("a", 1, 3))
	if err != nil {
		t.Fatal(err)
	}
	g := s.newGroup(1)
	defer g.txn.Discard()
	sets, first, err := s.prepare(g, &writeOp{stream: "a", recs: recs, after: noFence})
	if err != nil || first != 1 || len(sets) != 4 {
		t.Fatalf("prepare = %d sets, first %d, %v; want 4 sets from seq 1", len(sets), first, err)
	}
	for i, e := range sets {
		want := highestKey("a")
		if i < 3 {
			want = eventKey("a", uint64(i+1))
		}
		if !bytes.Equal(e.key, want) || cap(e.key) != len(e.key) {
			t.Errorf("key %d = %x (cap %d), want %x, capped", i, e.key, cap(e.key), want)
		}
	}
	if v := sets[3].value; !bytes.Equal(v, encodeSeq(3)) || cap(v) != len(v) {
		t.Errorf("highest seq's value = %x (cap %d), want %x, capped", v, cap(v), encodeSeq(3))
	}
}
