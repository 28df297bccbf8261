package control

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestLocalRefusesRemoteCallers: a caller that is not on loopback is
// refused in local mode even with a loopback Host.
func TestLocalRefusesRemoteCallers(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	h := guardTCP(TCPAuth{Access: AccessLocal}, ok)
	req := httptest.NewRequest("GET", "http://127.0.0.1/agents/list", nil)
	req.RemoteAddr = "192.0.2.7:41000"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("remote caller = %d, want 403", rec.Code)
	}
}

// TestUnixGuardRefusesForeignUID: a peer uid other than ours or root's is
// refused.
func TestUnixGuardRefusesForeignUID(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	h := guardUnix(ok)
	for uid, want := range map[int]int{12345: http.StatusForbidden, 0: http.StatusOK} {
		req := httptest.NewRequest("GET", "/agents/list", nil)
		req = req.WithContext(context.WithValue(req.Context(), peerUIDKey{}, uid))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("uid %d = %d, want %d", uid, rec.Code, want)
		}
	}
}
