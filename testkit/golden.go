package testkit

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// UpdateGolden rewrites golden event streams instead of comparing them:
// go test ./actors -run X -args -update-golden
var UpdateGolden = flag.Bool("update-golden", false, "rewrite testkit golden event streams")

// generatedID matches ids made by messages.NewID (prefix, "_", 26 chars),
// alone or inside a longer string.
var generatedID = regexp.MustCompile(`\b([a-z]+)_[0-9A-Z]{26}\b`)

// timeKeys are the payload keys holding times, replaced by "<time>".
var timeKeys = map[string]bool{"at": true, "created_at": true, "due_at": true, "until": true, "started_at": true}

// Normalize renders events one per line, "type payload", with everything
// that differs between identical runs replaced: generated ids become
// "<prefix#n>" numbered by first appearance, times become "<time>", and
// durations ("*_ms") become 0. Two runs that did the same thing normalize
// to the same text.
func Normalize(evs []messages.Event) string {
	ids := map[string]string{}
	counts := map[string]int{}
	var b strings.Builder
	for _, ev := range evs {
		var payload any
		if err := json.Unmarshal(ev.Payload, &payload); err != nil {
			fmt.Fprintf(&b, "%s <undecodable payload: %v>\n", ev.Type, err)
			continue
		}
		payload = normalizeValue("", payload, ids, counts)
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(payload) // decoded JSON always encodes
		fmt.Fprintf(&b, "%s %s", ev.Type, out.Bytes())
	}
	return b.String()
}

func normalizeValue(key string, v any, ids map[string]string, counts map[string]int) any {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys) // number ids in a stable order
		for _, k := range keys {
			v[k] = normalizeValue(k, v[k], ids, counts)
		}
		return v
	case []any:
		for i := range v {
			v[i] = normalizeValue(key, v[i], ids, counts)
		}
		return v
	case string:
		if timeKeys[key] {
			return "<time>"
		}
		return generatedID.ReplaceAllStringFunc(v, func(id string) string {
			if _, ok := ids[id]; !ok {
				prefix := generatedID.FindStringSubmatch(id)[1]
				counts[prefix]++
				ids[id] = fmt.Sprintf("<%s#%d>", prefix, counts[prefix])
			}
			return ids[id]
		})
	case float64:
		if strings.HasSuffix(key, "_ms") {
			return 0
		}
		return v
	}
	return v
}

// CheckGolden compares the normalized events with testdata/golden/name.txt
// (relative to the test's package), rewriting it with -update-golden.
func CheckGolden(t testing.TB, name string, evs []messages.Event) {
	t.Helper()
	CheckFile(t, filepath.Join("testdata", "golden", name+".txt"), []byte(Normalize(evs)), *UpdateGolden)
}

// CheckFile compares got with the golden file at path, or (re)writes the
// file when update is set: the one golden-file helper of the module's
// tests.
func CheckFile(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden %s (create it by running the test with its update flag): %v", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
