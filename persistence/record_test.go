package persistence

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	ev := benchEvent("agent-1", 1)
	body, err := encodeEventBody("agent-1", ev)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeRecord(sealRecord(42, body), 42)
	if err != nil {
		t.Fatal(err)
	}
	ev.Seq = 42
	if !reflect.DeepEqual(got, ev) {
		t.Fatalf("DecodeRecord = %+v, want %+v", got, ev)
	}
}

func TestRecordDamage(t *testing.T) {
	body, _ := encodeEventBody("agent-1", benchEvent("agent-1", 1))
	good := sealRecord(7, body)
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x40; return b }
	newer := bytes.Clone(good)
	newer[0] = 2
	cases := []struct {
		name string
		rec  []byte
		seq  uint64
		want error
	}{
		{"empty", nil, 7, ErrCorrupt},
		{"short header", good[:5], 7, ErrCorrupt},
		{"truncated body", good[:len(good)-3], 7, ErrCorrupt},
		{"flipped payload byte", flip(len(good) - 2), 7, ErrCorrupt},
		{"flipped checksum", flip(2), 7, ErrCorrupt},
		{"wrong key seq", good, 8, ErrCorrupt},
		{"garbage format", append([]byte{0xff}, good[1:]...), 7, ErrCorrupt},
		{"newer format", newer, 7, ErrUnsupportedRecord},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DecodeRecord(c.rec, c.seq); !errors.Is(err, c.want) {
				t.Fatalf("DecodeRecord = %v, want %v", err, c.want)
			}
		})
	}
}

func TestRecordUnknownEventTypeIsUnsupported(t *testing.T) {
	ev := benchEvent("agent-1", 1)
	body, _ := encodeEventBody("agent-1", ev)
	body = bytes.Replace(body, []byte("message_admitted"), []byte("message_admittex"), 1)
	if _, err := DecodeRecord(sealRecord(1, body), 1); !errors.Is(err, ErrUnsupportedRecord) {
		t.Fatalf("unknown type: %v, want ErrUnsupportedRecord", err)
	}
}

// FuzzDecodeRecord: DecodeRecord never panics, and a record it accepts
// re-encodes to the same bytes.
func FuzzDecodeRecord(f *testing.F) {
	for i, stream := range []string{"main", "agent-1", "tmp_child_01"} {
		body, err := encodeEventBody(stream, benchEvent(stream, i))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(sealRecord(uint64(i+1), body), uint64(i+1))
	}
	f.Add([]byte{recordV1, 0, 0, 0, 0}, uint64(0))
	f.Fuzz(func(t *testing.T, rec []byte, seq uint64) {
		ev, err := DecodeRecord(rec, seq)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupportedRecord) {
				t.Fatalf("error %v wraps neither ErrCorrupt nor ErrUnsupportedRecord", err)
			}
			return
		}
		if !json.Valid(ev.Payload) {
			return // intact bytes, but not something encodeEventBody would write
		}
		body, err := encodeEventBody(ev.AgentID, ev)
		if err != nil {
			return
		}
		if again := sealRecord(seq, body); !bytes.Equal(again, rec) {
			t.Fatalf("re-encoded record differs:\n got %x\nwant %x", again, rec)
		}
	})
}
