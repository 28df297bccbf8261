package control_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// curlPath is curl, or skips the test: the callers here are real processes.
func curlPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	return p
}

// curlArgs are the arguments of one request whose answer curl prints as
// "<status> <body>".
func curlArgs(method, url string, extra ...string) []string {
	args := []string{"-s", "-o", "-", "-w", " %{http_code}", "-X", method, "-H", "Content-Type: application/json"}
	if method == http.MethodPost || method == http.MethodDelete {
		args = append(args, "--data", "{}")
	}
	return append(append(args, extra...), url)
}

// splitCurl splits curl's "<body> <status>" output.
func splitCurl(t *testing.T, out string) (int, string) {
	t.Helper()
	i := strings.LastIndexByte(out, ' ')
	code, err := strconv.Atoi(out[i+1:])
	if i < 0 || err != nil {
		t.Fatalf("curl printed %q", out)
	}
	return code, out[:i]
}

// routePath fills a route pattern's wildcards.
func routePath(pattern string) string {
	return strings.NewReplacer("{id}", "main", "{suspension_id}", "susp_x", "{token}", "not-a-token").Replace(pattern)
}

// TestToolProcessesRefusedOnTheSocket: a process this runtime started (a
// real curl, child of the process serving the socket) gets 403
// tool_process on every route but the public ones, and changes nothing;
// the runtime itself (this process's client) is still served.
func TestToolProcessesRefusedOnTheSocket(t *testing.T) {
	curl := curlPath(t)
	f := newFixture(t)
	ctx := context.Background()
	before, err := f.c.State(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range f.srv.Routes() {
		path := routePath(rt.Pattern)
		out, err := exec.Command(curl, curlArgs(rt.Method, "http://holon"+path, "--unix-socket", f.sock)...).Output()
		if err != nil {
			t.Fatalf("curl %s %s: %v", rt.Method, path, err)
		}
		code, body := splitCurl(t, string(out))
		if strings.HasPrefix(path, "/triggers/") || strings.HasPrefix(path, "/ingress/") {
			if code == http.StatusForbidden {
				t.Errorf("%s %s from a tool process = 403, want the public route's own answer", rt.Method, path)
			}
			continue
		}
		var e struct{ Error control.Error }
		if code != http.StatusForbidden || json.Unmarshal([]byte(body), &e) != nil || e.Error.Kind != control.KindToolProcess ||
			!strings.Contains(e.Error.Message, "started by this runtime") || e.Error.Hint == "" {
			t.Errorf("%s %s from a tool process = %d %s, want 403 %s saying why", rt.Method, path, code, body, control.KindToolProcess)
		}
	}
	select {
	case <-f.shutdown:
		t.Fatal("a tool process shut the runtime down")
	default:
	}
	after, err := f.c.State(ctx, "main")
	if err != nil {
		t.Fatalf("the runtime's own client after the refusals: %v", err)
	}
	if after.Agent.Status != before.Agent.Status || after.LastEventSeq != before.LastEventSeq {
		t.Fatalf("the agent changed under refused requests: %+v -> %+v", before, after)
	}
}

// TestEscapedToolProcessRefusedByMarker: a command that left the
// runtime's process tree (its parent gone, re-parented away from the
// runtime) is still refused when it carries the runtime's instance
// marker, and is served without it.
func TestEscapedToolProcessRefusedByMarker(t *testing.T) {
	curl := curlPath(t)
	const instance = "instance-under-test"
	f := newFixtureWith(t, func(c *control.Config) { c.Instance = instance })
	for name, tt := range map[string]struct {
		env  []string
		want int
	}{
		"with the marker":    {[]string{control.InstanceEnv + "=" + instance}, http.StatusForbidden},
		"with another value": {[]string{control.InstanceEnv + "=another-runtime"}, http.StatusOK},
		"without it":         {nil, http.StatusOK},
	} {
		t.Run(name, func(t *testing.T) {
			if got := escapedCurl(t, curl, f.sock, tt.env); got != tt.want {
				t.Fatalf("GET /agents/list = %d, want %d", got, tt.want)
			}
		})
	}
}

// escapedCurl runs curl against sock from a process whose parent exits
// (and is reaped) first, so it is no longer this process's descendant;
// it returns the status.
func escapedCurl(t *testing.T, curl, sock string, env []string) int {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "status")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The inner shell waits until its parent is gone, then calls.
	inner := `while kill -0 "$P" 2>/dev/null; do sleep 0.01; done; ` +
		`"$CURL" -m 20 -s -o /dev/null -w "%{http_code}" --unix-socket "$SOCK" http://holon/agents/list > "$FIFO"`
	sh := exec.Command("sh", "-c", `P=$$ sh -c "$INNER" &`)
	sh.Env = append([]string{"PATH=" + os.Getenv("PATH"), "CURL=" + curl, "SOCK=" + sock, "FIFO=" + fifo, "INNER=" + inner}, env...)
	if err := sh.Run(); err != nil { // reaps the parent: the inner shell goes on alone
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo) // blocks until the escaped curl writes
		got <- string(b)
	}()
	select {
	case s := <-got:
		code, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("escaped curl printed %q", s)
		}
		return code
	case <-time.After(30 * time.Second): // a failure bound only
		t.Fatal("the escaped curl never answered")
		return 0
	}
}

// TestToolProcessesRefusedOnTCP: over TCP a tool process is refused even
// with the right token, once the kernel tells which local process holds
// the client's end; the public routes stay public.
func TestToolProcessesRefusedOnTCP(t *testing.T) {
	curl := curlPath(t)
	f := newFixture(t)
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessLocal, Token: testToken})
	for _, rt := range f.srv.Routes() {
		path := routePath(rt.Pattern)
		out, err := exec.Command(curl, curlArgs(rt.Method, base+path, "-H", "Authorization: Bearer "+testToken)...).Output()
		if err != nil {
			t.Fatalf("curl %s %s: %v", rt.Method, path, err)
		}
		code, body := splitCurl(t, string(out))
		public := strings.HasPrefix(path, "/triggers/") || strings.HasPrefix(path, "/ingress/")
		if public != (code != http.StatusForbidden) || (!public && !strings.Contains(body, control.KindToolProcess)) {
			t.Errorf("%s %s over TCP from a tool process with the token = %d %s", rt.Method, path, code, body)
		}
	}
	select {
	case <-f.shutdown:
		t.Fatal("a tool process shut the runtime down over TCP")
	default:
	}
	if resp := tcpDo(t, "GET", base+"/agents/list", "Authorization", "Bearer "+testToken); resp.StatusCode != http.StatusOK {
		t.Fatalf("the runtime's own client over TCP = %d, want 200", resp.StatusCode)
	}
}
