package persistence

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

var updateRecords = flag.Bool("update-records", false,
	"write testdata/records_v1 from ../messages/testdata/events (only when adding a format version or event type)")

// TestRecordFormatV1Golden decodes journal records exactly as format 1 wrote
// them. The .rec files are committed bytes: a change to the record layout
// that cannot read them fails here (R23). Regenerate only to add fixtures.
func TestRecordFormatV1Golden(t *testing.T) {
	dir := filepath.Join("testdata", "records_v1")
	if *updateRecords {
		writeRecordFixtures(t, dir)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) < len(messages.EventTypes()) {
		t.Fatalf("%d fixtures in %s, want one per event type (%d)", len(files), dir, len(messages.EventTypes()))
	}
	for _, jsonPath := range files {
		name := strings.TrimSuffix(filepath.Base(jsonPath), ".json")
		t.Run(name, func(t *testing.T) {
			var want messages.Event
			if err := json.Unmarshal(readFixture(t, jsonPath), &want); err != nil {
				t.Fatal(err)
			}
			rec := readFixture(t, filepath.Join(dir, name+".rec"))
			got, err := DecodeRecord(rec, want.Seq)
			if err != nil {
				t.Fatalf("DecodeRecord: %v", err)
			}
			var compact bytes.Buffer
			json.Compact(&compact, want.Payload)
			want.Payload = compact.Bytes()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded\n%+v\nwant\n%+v", got, want)
			}
			if _, err := got.Decode(); err != nil {
				t.Fatalf("payload of a v1 record no longer decodes: %v", err)
			}
		})
	}
}

func writeRecordFixtures(t *testing.T, dir string) {
	src, _ := filepath.Glob(filepath.Join("..", "messages", "testdata", "events", "*.json"))
	os.MkdirAll(dir, 0o755)
	for _, p := range src {
		b := readFixture(t, p)
		var ev messages.Event
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		json.Compact(&compact, ev.Payload)
		ev.Payload = compact.Bytes()
		body, err := encodeEventBody(ev.AgentID, ev)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644)
		os.WriteFile(filepath.Join(dir, name+".rec"), sealRecord(ev.Seq, body), 0o644)
	}
}

func readFixture(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
