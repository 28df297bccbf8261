package control_test

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
)

// lockedBuffer is a log sink the server's goroutines and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestWrongTokensAreRateLimited: after FailBurst wrong tokens a peer gets
// 429 with Retry-After, even with the right token, until its allowance
// refills; every wrong token is logged, the token never.
func TestWrongTokensAreRateLimited(t *testing.T) {
	var logs lockedBuffer
	f := newFixtureWith(t, func(c *control.Config) { c.Log = zerolog.New(&logs) })
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessLocal, Token: testToken})
	wrong := "Bearer " + strings.Repeat("x", len(testToken))
	for i := range control.FailBurst {
		if resp := tcpDo(t, "GET", base+"/agents/list", "Authorization", wrong); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong token %d = %d, want 401", i+1, resp.StatusCode)
		}
	}
	if resp := tcpDo(t, "GET", base+"/agents/list"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("after %d wrong tokens, a request without one = %d, want 429", control.FailBurst, resp.StatusCode)
	}
	resp := tcpDo(t, "GET", base+"/agents/list", "Authorization", "Bearer "+testToken)
	wait, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != http.StatusTooManyRequests || err != nil || wait != int(control.FailEvery.Seconds()) {
		t.Fatalf("the right token while limited = %d, Retry-After %q; want 429 after %v", resp.StatusCode, resp.Header.Get("Retry-After"), control.FailEvery)
	}
	if resp := tcpDo(t, "POST", base+"/triggers/not-a-token"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a public route while limited = %d, want its own 404", resp.StatusCode)
	}
	f.h.Clock.Advance(control.FailEvery)
	if resp := tcpDo(t, "GET", base+"/agents/list", "Authorization", "Bearer "+testToken); resp.StatusCode != http.StatusOK {
		t.Fatalf("the right token after Retry-After = %d, want 200", resp.StatusCode)
	}
	if resp := tcpDo(t, "GET", base+"/agents/list", "Authorization", wrong); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong token with one attempt refilled = %d, want 401", resp.StatusCode)
	}
	if resp := tcpDo(t, "GET", base+"/agents/list", "Authorization", wrong); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the next wrong token = %d, want 429 again", resp.StatusCode)
	}
	out := logs.String()
	if n := strings.Count(out, "missing or wrong token"); n != control.FailBurst+1 {
		t.Errorf("%d wrong-token log lines, want %d:\n%s", n, control.FailBurst+1, out)
	}
	if !strings.Contains(out, "too many wrong tokens") || !strings.Contains(out, `"peer":"uid:`) {
		t.Errorf("the refusals are not logged with the peer:\n%s", out)
	}
	if strings.Contains(out, testToken) || strings.Contains(out, strings.Repeat("x", len(testToken))) {
		t.Error("a token reached the log")
	}
}
