package messages_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// FuzzDecodeEnvelope decodes arbitrary JSON as an envelope. Decoding and
// validating must never panic, and a valid envelope must survive the trip
// through its canonical encoding (raw JSON compacted, empty maps and slices
// dropped): decoding that encoding validates, re-encodes to the same bytes
// and decodes to an equal value. Seeds: the golden envelopes plus
// testdata/fuzz/FuzzDecodeEnvelope/.
func FuzzDecodeEnvelope(f *testing.F) {
	goldens, err := filepath.Glob(filepath.Join("testdata", "envelope_*.json"))
	if err != nil || len(goldens) == 0 {
		f.Fatalf("no golden envelopes to seed from: %v", err)
	}
	for _, path := range goldens {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m messages.MessageEnvelope
		if json.Unmarshal(data, &m) != nil || m.Validate() != nil {
			return
		}
		canon, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("Marshal of a valid envelope: %v", err)
		}
		var m2 messages.MessageEnvelope
		if err := json.Unmarshal(canon, &m2); err != nil {
			t.Fatalf("Unmarshal(%s): %v", canon, err)
		}
		if err := m2.Validate(); err != nil {
			t.Fatalf("canonical encoding %s no longer validates: %v", canon, err)
		}
		again, err := json.Marshal(m2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, canon) {
			t.Fatalf("re-encoding differs:\n%s\n%s", canon, again)
		}
		var m3 messages.MessageEnvelope
		if err := json.Unmarshal(again, &m3); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m2, m3) {
			t.Fatalf("re-decoding differs:\n%#v\n%#v", m2, m3)
		}
	})
}
