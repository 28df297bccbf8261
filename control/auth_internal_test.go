package control

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"
)

// TestLocalRefusesRemoteCallers: a caller that is not on loopback is
// refused in local mode even with a loopback Host.
func TestLocalRefusesRemoteCallers(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	g := &gate{callers: newCallers(""), failures: newFailures(clockwork.NewFakeClock()), log: zerolog.Nop()}
	h := g.tcp(TCPAuth{Access: AccessLocal, Token: "0123456789abcdef0123456789abcdef"}, ok)
	req := httptest.NewRequest("GET", "http://127.0.0.1/agents/list", nil)
	req.RemoteAddr = "192.0.2.7:41000"
	req.Header.Set("Authorization", "Bearer 0123456789abcdef0123456789abcdef")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("remote caller = %d, want 403", rec.Code)
	}
}

// withCaller returns req as if it came on a connection whose caller was
// identified as id.
func withCaller(req *http.Request, id identified) *http.Request {
	cc := &connCaller{}
	cc.once.Do(func() { cc.id = id })
	return req.WithContext(context.WithValue(req.Context(), connCallerKey{}, cc))
}

// TestUnixGuardRefusesForeignUID: a peer uid other than ours or root's is
// refused.
func TestUnixGuardRefusesForeignUID(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	g := &gate{callers: newCallers(""), log: zerolog.Nop()}
	h := g.unix(ok)
	for uid, want := range map[int]int{12345: http.StatusForbidden, 0: http.StatusOK} {
		req := withCaller(httptest.NewRequest("GET", "/agents/list", nil), identified{peer: peer{known: true, uid: uid}})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("uid %d = %d, want %d", uid, rec.Code, want)
		}
	}
}

// TestWrongTokensLimitedPerPeer: one remote address past its wrong tokens
// does not lock out another.
func TestWrongTokensLimitedPerPeer(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	g := &gate{callers: newCallers(""), failures: newFailures(clockwork.NewFakeClock()), log: zerolog.Nop()}
	h := g.tcp(TCPAuth{Access: AccessLAN, Token: token}, ok)
	do := func(addr, tok string) int {
		req := httptest.NewRequest("GET", "http://10.0.0.1/agents/list", nil)
		req.RemoteAddr = addr
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for range FailBurst + 1 {
		do("192.0.2.7:41000", "wrong")
	}
	if got := do("192.0.2.7:41001", token); got != http.StatusTooManyRequests {
		t.Fatalf("the guesser, another port = %d, want 429", got)
	}
	if got := do("192.0.2.8:41000", token); got != http.StatusOK {
		t.Fatalf("another peer = %d, want 200", got)
	}
}
