package openai

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
)

func TestToolCache(t *testing.T) {
	specs := []providers.ToolSpec{{Name: "get_weather", Description: "Weather.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}
	var c toolCache
	relaxed, err := c.encode(specs, providers.SchemaRelaxed)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.encode(specs, providers.SchemaRelaxed)
	strict, _ := c.encode(specs, providers.SchemaStrict)
	if string(again[0]) != string(relaxed[0]) || len(c.tools) != 2 {
		t.Errorf("cache holds %d tools; second encoding %s, first %s", len(c.tools), again[0], relaxed[0])
	}
	if !strings.Contains(string(relaxed[0]), `"strict":false`) || !strings.Contains(string(strict[0]), `"strict":true`) ||
		!strings.Contains(string(strict[0]), `"required":["city"]`) {
		t.Errorf("relaxed %s\nstrict %s", relaxed[0], strict[0])
	}
	// The same name with another schema is another entry, not a stale hit.
	changed := []providers.ToolSpec{{Name: "get_weather", Description: "Weather.", Parameters: json.RawMessage(`{"type":"object","properties":{"town":{"type":"string"}}}`)}}
	if got, _ := c.encode(changed, providers.SchemaRelaxed); !strings.Contains(string(got[0]), "town") {
		t.Errorf("changed schema encoded as %s", got[0])
	}
	bad := []providers.ToolSpec{{Name: "broken", Parameters: json.RawMessage(`{"type":`)}}
	if _, err := c.encode(bad, providers.SchemaRelaxed); err == nil || !strings.Contains(err.Error(), "tool broken") {
		t.Errorf("bad schema error = %v", err)
	}
	if len(c.tools) != 3 {
		t.Errorf("cache holds %d tools after a failed encoding, want 3", len(c.tools))
	}
}

func TestToolCacheBounded(t *testing.T) {
	var c toolCache
	for i := range maxCachedTools + 1 {
		if _, err := c.encode([]providers.ToolSpec{{Name: "t" + strconv.Itoa(i)}}, providers.SchemaRelaxed); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.tools) != 1 {
		t.Errorf("cache holds %d tools past its bound, want it started over with 1", len(c.tools))
	}
}
