package control

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rs/zerolog"
)

// TestLocalRefusesRemoteCallers: a caller that is not on loopback is
// refused in local mode even with a loopback Host.
func TestLocalRefusesRemoteCallers(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	g := &gate{callers: newCallers(""), log: zerolog.Nop()}
	h := g.tcp(TCPAuth{Access: AccessLocal}, ok)
	req := httptest.NewRequest("GET", "http://127.0.0.1/agents/list", nil)
	req.RemoteAddr = "192.0.2.7:41000"
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
