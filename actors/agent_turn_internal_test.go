package actors

import (
	"encoding/json"
	"testing"
)

// TestIsJSONObject: isJSONObject accepts what decodes into a non-nil
// JSON object, and nothing else, without allocating.
func TestIsJSONObject(t *testing.T) {
	decodes := func(b json.RawMessage) bool { // what it checked before
		var m map[string]json.RawMessage
		return json.Unmarshal(b, &m) == nil && m != nil
	}
	for _, in := range []string{
		`{}`, ` {"a":1}`, "\n\t{\"a\":[1,{\"b\":null}]}\r\n", `{"a":"\ud800"}`, `{"a":1,"a":2}`,
		``, ` `, `null`, `[]`, `"{}"`, `1`, `true`, `{`, `{"a":1} x`, `{"a":1}{}`, `{"a":}`, `{a:1}`, "\v{}",
		"{\"a\":\"\xff\"}",
	} {
		if got, want := isJSONObject(json.RawMessage(in)), decodes(json.RawMessage(in)); got != want {
			t.Errorf("isJSONObject(%q) = %t, want %t", in, got, want)
		}
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	args := json.RawMessage(`{"text":"nightly build: 3 failing tests"}`)
	if n := testing.AllocsPerRun(100, func() { _ = isJSONObject(args) }); n != 0 {
		t.Errorf("isJSONObject allocates %v times, want 0", n)
	}
}
