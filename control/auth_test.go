package control_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

const testToken = "0123456789abcdef0123456789abcdef-canary"

// serveTCP serves f's server on a loopback TCP port with auth.
func serveTCP(t *testing.T, f *fixture, auth control.TCPAuth) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.srv.ServeTCP(l, auth) }()
	t.Cleanup(func() {
		_ = f.srv.Close(context.Background())
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("ServeTCP = %v", err)
		}
	})
	return "http://" + l.Addr().String()
}

func tcpDo(t *testing.T, method, url string, header ...string) *http.Response {
	t.Helper()
	var body *strings.Reader
	if method == http.MethodPost {
		body = strings.NewReader(`{}`)
	} else {
		body = strings.NewReader("")
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestTCPAuthorizationMatrix: with a token configured, every route answers
// 401 without it, with a wrong one, or with it in the query.
func TestTCPAuthorizationMatrix(t *testing.T) {
	f := newFixture(t)
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessTunnel, Token: testToken})
	routes := f.srv.Routes()
	if len(routes) < 15 {
		t.Fatalf("only %d routes listed", len(routes))
	}
	for _, rt := range routes {
		if rt.Pattern == "/control/runtime/shutdown" {
			continue // checked last: a success would stop nothing here but is not idempotent to test
		}
		path := strings.ReplaceAll(strings.ReplaceAll(rt.Pattern, "{id}", "main"), "{token}", "not-a-token")
		if strings.HasPrefix(path, "/triggers/") || strings.HasPrefix(path, "/ingress/") {
			// Public by design (the path is the capability; ingress is
			// untrusted input): no token needed, and without a valid
			// capability or with ingress off they answer 404.
			if resp := tcpDo(t, rt.Method, base+path); resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s without a capability = %d, want 404", rt.Method, path, resp.StatusCode)
			}
			if resp := tcpDo(t, rt.Method, base+path+"?token="+testToken); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s with the token in the query = %d, want 401", rt.Method, path, resp.StatusCode)
			}
			continue
		}
		for name, hdr := range map[string][]string{
			"no token":       nil,
			"wrong token":    {"Authorization", "Bearer " + strings.Repeat("x", len(testToken))},
			"not bearer":     {"Authorization", "Basic " + testToken},
			"token in query": {"Authorization", "Bearer " + testToken},
		} {
			url := base + path
			if name == "token in query" {
				url += "?token=" + testToken
			}
			if resp := tcpDo(t, rt.Method, url, hdr...); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s with %s = %d, want 401", rt.Method, path, name, resp.StatusCode)
			}
		}
		if rt.Method == http.MethodGet {
			want := http.StatusOK
			if strings.Contains(path, "{name}") {
				want = http.StatusNotFound // the fixture runtime has no MCP server of that name
			}
			if strings.Contains(path, "/memory/") {
				want = http.StatusBadRequest // the memory routes need ?q= or ?ref=
			}
			if resp := tcpDo(t, rt.Method, base+path, "Authorization", "Bearer "+testToken); resp.StatusCode != want {
				t.Errorf("GET %s with the token = %d, want %d", path, resp.StatusCode, want)
			}
		}
		f.h.Clock.Advance(control.FailEvery * control.FailBurst) // the wrong tokens' allowance refills: 401s, not 429s
	}
	if resp := tcpDo(t, http.MethodPost, base+"/control/runtime/shutdown"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("shutdown without token = %d", resp.StatusCode)
	}
	select {
	case <-f.shutdown:
		t.Fatal("an unauthenticated request shut the runtime down")
	default:
	}
}

// TestTCPLocalMode: local mode serves loopback callers that bring the
// token and address it as loopback, and refuses rebinding tricks.
func TestTCPLocalMode(t *testing.T) {
	f := newFixture(t)
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessLocal, Token: testToken})
	auth := []string{"Authorization", "Bearer " + testToken}
	if resp := tcpDo(t, "GET", base+"/agents/list", auth...); resp.StatusCode != http.StatusOK {
		t.Fatalf("loopback GET = %d", resp.StatusCode)
	}
	if resp := tcpDo(t, "GET", base+"/agents/list"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("loopback GET without the token = %d, want 401: every local user reaches a loopback port", resp.StatusCode)
	}
	for name, hdr := range map[string][]string{
		"foreign Host":   {"Host", "evil.example:80"},
		"foreign Origin": {"Origin", "https://evil.example"},
		"null Origin":    {"Origin", "null"},
	} {
		if resp := tcpDo(t, "GET", base+"/agents/list", append(hdr, auth...)...); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s = %d, want 403", name, resp.StatusCode)
		}
	}
	if resp := tcpDo(t, "GET", base+"/agents/list", append([]string{"Origin", "http://localhost:3000"}, auth...)...); resp.StatusCode != http.StatusOK {
		t.Errorf("loopback Origin = %d, want 200", resp.StatusCode)
	}
}

// TestServeTCPRefusesNoToken: a TCP listener without a token is not
// served, whatever the access mode.
func TestServeTCPRefusesNoToken(t *testing.T) {
	f := newFixture(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := f.srv.ServeTCP(l, control.TCPAuth{Access: control.AccessLocal}); err == nil || !strings.Contains(err.Error(), "needs a control token") {
		t.Fatalf("ServeTCP without a token = %v, want a refusal naming the token", err)
	}
}

func TestCheckListen(t *testing.T) {
	tests := []struct {
		auth    control.TCPAuth
		addr    string
		wantErr string
	}{
		{control.TCPAuth{Access: control.AccessLocal, Token: testToken}, "127.0.0.1:7878", ""},
		{control.TCPAuth{Access: control.AccessLocal, Token: testToken}, "[::1]:7878", ""},
		{control.TCPAuth{Access: control.AccessLocal}, "127.0.0.1:7878", "needs a control token"},
		{control.TCPAuth{Access: control.AccessLocal}, "0.0.0.0:7878", "loopback only"},
		{control.TCPAuth{Access: control.AccessLAN}, "0.0.0.0:7878", "needs a control token"},
		{control.TCPAuth{Access: control.AccessTunnel}, "127.0.0.1:7878", "needs a control token"},
		{control.TCPAuth{Access: control.AccessLAN, Token: "short"}, "0.0.0.0:7878", "at least 32"},
		{control.TCPAuth{Access: control.AccessTailnet, Token: testToken}, "100.64.0.1:7878", ""},
		{control.TCPAuth{Access: control.AccessLocal, Token: testToken}, "7878", "host:port"},
	}
	for _, tt := range tests {
		err := tt.auth.CheckListen(tt.addr)
		if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("CheckListen(%+v, %s) = %v, want %q", tt.auth, tt.addr, err, tt.wantErr)
		}
	}
	if _, err := control.ParseAccess("public"); err == nil {
		t.Error("ParseAccess(public) = nil error")
	}
}
