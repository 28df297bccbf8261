package control_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestTCPClient: a TCP client sends its token on every call, the event
// stream included; a wrong token is refused with 401.
func TestTCPClient(t *testing.T) {
	f := newFixture(t)
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessLocal, Token: testToken})
	ctx := context.Background()
	for _, addr := range []string{base, strings.TrimPrefix(base, "http://")} {
		c := control.NewTCPClient(addr, testToken)
		if _, err := c.RuntimeStatus(ctx); err != nil {
			t.Fatalf("RuntimeStatus over %s = %v", addr, err)
		}
		if _, err := c.LastEvents(ctx, "main", 1); err != nil {
			t.Fatalf("LastEvents over %s = %v", addr, err)
		}
		seen := false
		if _, err := c.Follow(ctx, "main", 0, func(control.StreamEvent) error { seen = true; return control.ErrStop }); err != nil || !seen {
			t.Fatalf("Follow over %s = %v (an event: %v)", addr, err, seen)
		}
		c.Close()
	}
	bad := control.NewTCPClient(base, "not-the-token-0123456789abcdef0123")
	defer bad.Close()
	_, err := bad.RuntimeStatus(ctx)
	apiError(t, err, http.StatusUnauthorized, control.KindUnauthorized)
}
