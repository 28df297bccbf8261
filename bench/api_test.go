package bench_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestAPI(t *testing.T) {
	cfg := bench.DefaultAPIConfig(t.TempDir())
	cfg.Clients, cfg.Requests = 4, 200
	r, err := bench.API(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Agents != 4 || r.PromptsPerSec <= 0 || r.AdmitP99Ms < r.AdmitP50Ms || r.AdmitP50Ms <= 0 {
		t.Fatalf("API = %+v", r)
	}
}

func TestAPIConfigValidate(t *testing.T) {
	for name, c := range map[string]bench.APIConfig{
		"no dir":      {Clients: 1, Requests: 1},
		"no clients":  {Dir: "d", Requests: 1},
		"too few":     {Dir: "d", Clients: 5, Requests: 4},
		"queue limit": {Dir: "d", Clients: 1, Requests: 5000},
		"neg agents":  {Dir: "d", Clients: 1, Requests: 1, Agents: -1},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%s: Validate() = nil", name)
		}
	}
	if err := bench.DefaultAPIConfig("d").Validate(); err != nil {
		t.Errorf("default: %v", err)
	}
}

func TestAPIResultJSON(t *testing.T) {
	wantKeys(t, bench.APIResult{}, "prompts_per_sec", "admit_p99_ms", "clients", "requests")
}
