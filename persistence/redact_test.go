package persistence

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/holon-actors/holon-actors/messages"
	"testing"
)

// TestBadgerRedactsPayloads: with Options.Redact set, a payload carrying a
// secret is stored scrubbed (read back and in the data files), and the
// caller's events are left as they were.
func TestBadgerRedactsPayloads(t *testing.T) {
	const canary = "sk-journal-canary-0123456789"
	dir := t.TempDir()
	o := testBadgerOptions(dir)
	o.Redact = func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(canary), []byte("[redacted]")) }
	s := openBadger(t, o)
	ev := testEvent("main", 1)
	ev.Payload = json.RawMessage(`{"text":"the key is ` + canary + `"}`)
	evs := []messages.Event{ev}
	if _, err := s.Append(context.Background(), "main", evs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(evs[0].Payload, []byte(canary)) {
		t.Error("Append changed the caller's event")
	}
	got, err := s.Read(context.Background(), "main", 1, 1, 0)
	if err != nil || len(got) != 1 {
		t.Fatalf("Read = %v, %v", got, err)
	}
	if string(got[0].Payload) != `{"text":"the key is [redacted]"}` {
		t.Fatalf("stored payload = %s", got[0].Payload)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dir, func(path string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(canary)) {
			t.Errorf("%s holds the secret", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
