package control_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestTriggerDeliveryForwarded: on a cluster node (Config.Forward set) a
// trigger delivery is offered to the forwarder, after the public rate
// limit and before any store is asked about the token; one it leaves here
// is served here, its rate-limit token taken once.
func TestTriggerDeliveryForwarded(t *testing.T) {
	var offered, elsewhere atomic.Int32
	f := newFixtureWith(t, func(c *control.Config) {
		withTriggers(t, t.TempDir())(c)
		c.PublicRate, c.PublicBurst = 0.0001, 4
		c.Forward = func(w http.ResponseWriter, r *http.Request) bool {
			if !strings.HasPrefix(r.URL.Path, "/triggers/") {
				return false
			}
			offered.Add(1)
			if r.Header.Get("X-Delivery-Id") == "elsewhere" {
				elsewhere.Add(1)
				w.WriteHeader(http.StatusAccepted)
				return true
			}
			return false
		}
	})
	_, body := f.raw(t, "POST", "/control/agents/main/trigger", "")
	var capa control.TriggerCapability
	if err := json.Unmarshal([]byte(body), &capa); err != nil {
		t.Fatalf("create trigger: %s", body)
	}
	path := capa.TriggerURL[strings.Index(capa.TriggerURL, "/triggers/"):]

	steps := []struct {
		delivery string
		want     int
	}{
		{"elsewhere", http.StatusAccepted}, // served by the forwarder
		{"d-1", http.StatusAccepted},       // served here: one token, not two
		{"d-2", http.StatusAccepted},
		{"d-3", http.StatusAccepted},
		{"d-4", http.StatusTooManyRequests}, // the burst of 4 is spent
	}
	for i, s := range steps {
		if resp, b := f.raw(t, "POST", path, "", "X-Delivery-Id", s.delivery); resp.StatusCode != s.want {
			t.Fatalf("delivery %d (%s) = %d %s, want %d", i, s.delivery, resp.StatusCode, b, s.want)
		}
	}
	if offered.Load() != 4 || elsewhere.Load() != 1 {
		t.Errorf("the forwarder was offered %d deliveries and served %d; want 4 (not the refused one) and 1", offered.Load(), elsewhere.Load())
	}
	if n := countWakeHints(t, f.h, capa.ID); n != 3 {
		t.Errorf("%d wake hints here, want 3", n)
	}
}
