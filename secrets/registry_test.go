package secrets_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/secrets"
)

func TestRegistryRedact(t *testing.T) {
	r := secrets.NewRegistry("sk-canary-0123456789", "short", "sk-canary-0123456789-longer")
	r.AddURL("http://user:pa55w0rd-canary@example.com/v1?key=query-canary-42&x=1")
	tests := []struct {
		name, in, want string
	}{
		{"plain", "key sk-canary-0123456789 here", "key [redacted] here"},
		{"longest first", "sk-canary-0123456789-longer", "[redacted]"},
		{"too short to register", "short stays", "short stays"},
		{"query value", `Post "http://h/v1?key=query-canary-42": refused`, `Post "http://h/v1?key=[redacted]": refused`},
		{"url password", "pa55w0rd-canary", "[redacted]"},
		{"nothing secret", "hello", "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := string(r.RedactBytes([]byte(tt.in))); got != tt.want {
				t.Errorf("RedactBytes(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if r.Len() != 4 {
		t.Errorf("Len = %d, want 4 (the short value and x=1 are not registered)", r.Len())
	}
}

func TestRedactBytesKeepsJSONValid(t *testing.T) {
	r := secrets.NewRegistry("sk-canary-0123456789")
	in, _ := json.Marshal(map[string]string{"message": "bad key sk-canary-0123456789 given"})
	out := r.RedactBytes(in)
	var m map[string]string
	if err := json.Unmarshal(out, &m); err != nil || m["message"] != "bad key [redacted] given" {
		t.Fatalf("RedactBytes(%s) = %s (%v)", in, out, err)
	}
}

func TestNilRegistryRedactsNothing(t *testing.T) {
	var r *secrets.Registry
	if r.Redact("abc") != "abc" || string(r.RedactBytes([]byte("abc"))) != "abc" || r.Len() != 0 {
		t.Fatal("a nil registry changed its input")
	}
}

func TestWriterRedacts(t *testing.T) {
	r := secrets.NewRegistry()
	var buf bytes.Buffer
	w := r.Writer(&buf)
	r.Add("token-canary-abcdef") // added after the writer was made
	line := []byte(`{"msg":"auth token-canary-abcdef"}` + "\n")
	if n, err := w.Write(line); err != nil || n != len(line) {
		t.Fatalf("Write = %d, %v; want %d", n, err, len(line))
	}
	if got := buf.String(); got != `{"msg":"auth [redacted]"}`+"\n" {
		t.Fatalf("written %q", got)
	}
}
