package persistence

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"path/filepath"
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
