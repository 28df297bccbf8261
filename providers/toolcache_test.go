package providers_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
)

// wrap is a ToolEncoder that counts its calls.
func wrap(calls *int) providers.ToolEncoder {
	return func(s providers.ToolSpec, schema json.RawMessage) (json.RawMessage, error) {
		*calls++
		return json.Marshal(map[string]any{"name": s.Name, "schema": schema})
	}
}

func TestToolCache(t *testing.T) {
	specs := []providers.ToolSpec{{Name: "get_weather", Description: "Weather.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}
	var c providers.ToolCache
	calls := 0
	relaxed, err := c.Encode(specs, providers.SchemaRelaxed, wrap(&calls))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.Encode(specs, providers.SchemaRelaxed, wrap(&calls))
	strict, _ := c.Encode(specs, providers.SchemaStrict, wrap(&calls))
	if string(again[0]) != string(relaxed[0]) || calls != 2 || c.Len() != 2 {
		t.Errorf("%d encodings for 3 calls, %d kept; second %s, first %s", calls, c.Len(), again[0], relaxed[0])
	}
	if strings.Contains(string(relaxed[0]), `"required"`) || !strings.Contains(string(strict[0]), `"required":["city"]`) {
		t.Errorf("relaxed %s\nstrict %s", relaxed[0], strict[0])
	}
	// The same name with another schema is another entry, not a stale hit.
	changed := []providers.ToolSpec{{Name: "get_weather", Description: "Weather.", Parameters: json.RawMessage(`{"type":"object","properties":{"town":{"type":"string"}}}`)}}
	if got, _ := c.Encode(changed, providers.SchemaRelaxed, wrap(&calls)); !strings.Contains(string(got[0]), "town") {
		t.Errorf("changed schema encoded as %s", got[0])
	}
}

func TestToolCacheRefusals(t *testing.T) {
	var c providers.ToolCache
	calls := 0
	bad := []providers.ToolSpec{{Name: "ok"}, {Name: "broken", Parameters: json.RawMessage(`{"type":`)}}
	if _, err := c.Encode(bad, providers.SchemaRelaxed, wrap(&calls)); !errors.Is(err, providers.ErrBadSchema) || !strings.Contains(err.Error(), "tool broken") {
		t.Errorf("bad schema error = %v", err)
	}
	refuse := func(providers.ToolSpec, json.RawMessage) (json.RawMessage, error) { return nil, errors.New("no") }
	if _, err := c.Encode([]providers.ToolSpec{{Name: "x"}}, providers.SchemaRelaxed, refuse); err == nil {
		t.Error("a refused tool encoded")
	}
	if c.Len() != 1 {
		t.Errorf("cache holds %d tools, want only the one that encoded", c.Len())
	}
}

func TestToolCacheBounded(t *testing.T) {
	var c providers.ToolCache
	calls := 0
	for i := range 4097 {
		if _, err := c.Encode([]providers.ToolSpec{{Name: "t" + strconv.Itoa(i)}}, providers.SchemaRelaxed, wrap(&calls)); err != nil {
			t.Fatal(err)
		}
	}
	if c.Len() != 1 {
		t.Errorf("cache holds %d tools past its bound of 4096, want it started over with 1", c.Len())
	}
}
