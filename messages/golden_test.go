package messages_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden marshals v, indents it into the golden file at path (rewritten
// with -update) and checks the file matches byte for byte. It then checks the
// JSON round trip: decoding gives a value deeply equal to v, re-encoding gives
// identical bytes, and decoding the indented golden gives the same bytes too.
func checkGolden[T any](t *testing.T, path string, v T) {
	t.Helper()
	canon, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, canon, "", "  "); err != nil {
		t.Fatalf("Indent: %v", err)
	}
	pretty.WriteByte('\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run go test ./messages -update to create it): %v", err)
	}
	if !bytes.Equal(golden, pretty.Bytes()) {
		t.Errorf("%s differs from the encoding:\ngot:\n%s\nwant:\n%s", path, pretty.Bytes(), golden)
	}
	checkRoundTrip(t, canon, v)
	var fromGolden T
	if err := json.Unmarshal(golden, &fromGolden); err != nil {
		t.Fatalf("Unmarshal golden: %v", err)
	}
	if again := mustMarshal(t, fromGolden); !bytes.Equal(again, canon) {
		t.Errorf("golden re-encodes as\n%s\nwant\n%s", again, canon)
	}
}

// checkRoundTrip checks canon decodes to a value equal to v that encodes to
// canon again.
func checkRoundTrip[T any](t *testing.T, canon []byte, v T) {
	t.Helper()
	var back T
	if err := json.Unmarshal(canon, &back); err != nil {
		t.Fatalf("Unmarshal(%s): %v", canon, err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("round trip changed the value:\ngot  %#v\nwant %#v", back, v)
	}
	if again := mustMarshal(t, back); !bytes.Equal(again, canon) {
		t.Errorf("re-encoding = %s, want %s", again, canon)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return b
}
