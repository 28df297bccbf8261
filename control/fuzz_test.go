package control

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzDecodeBody: no request body makes the decoder panic, accept JSON
// nested deeper than MaxJSONDepth, or accept something that is not one
// JSON object of the request's fields.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{`{"text":"hi","priority":"next"}`, `{}`, ``, `{"text":`, `[[[[`,
		`{"text":"a"} {"text":"b"}`, `{"message_id":"x","text":"\u0000"}`, strings.Repeat(`{"a":`, 40)} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/control/agents/main/prompt", bytes.NewReader(body))
		var p PromptRequest
		e := decodeBody(rec, req, &p)
		if e != nil {
			if e.Status < 400 || e.Status > 499 || e.Kind == "" || e.Message == "" {
				t.Fatalf("error %+v for %q: want a 4xx with kind and message", e, body)
			}
			return
		}
		if checkDepth(body, MaxJSONDepth) != nil {
			t.Fatalf("accepted %q nested deeper than %d", body, MaxJSONDepth)
		}
		if len(bytes.TrimSpace(body)) > 0 {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("accepted %q, which is not one JSON object: %v", body, err)
			}
		}
	})
}

// FuzzReadSSE: the client's event-stream parser never panics and never
// moves its cursor backwards.
func FuzzReadSSE(f *testing.F) {
	f.Add([]byte("id: 1\nevent: x\ndata: {\"provenance\":{\"event_seq\":1}}\n\n"), uint64(0))
	f.Add([]byte(": keep-alive\n\ndata: {\n\n"), uint64(5))
	f.Add([]byte("data: {\"provenance\":{\"event_seq\":3}}\ndata: \n\n"), uint64(2))
	f.Fuzz(func(t *testing.T, stream []byte, after uint64) {
		last := after
		got, _ := readSSE(bytes.NewReader(stream), after, func(ev StreamEvent) error {
			last = ev.Provenance.EventSeq
			return nil
		})
		if got != after && got != last {
			t.Fatalf("cursor %d, want %d (start) or %d (last delivered)", got, after, last)
		}
	})
}
