package control_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestTCPClient: a client made with the runtime's token reads and admits
// over TCP exactly what the socket client does; a wrong token is the
// server's 401, and nothing answering is ErrNotRunning.
func TestTCPClient(t *testing.T) {
	f := newFixture(t)
	base := serveTCP(t, f, control.TCPAuth{Access: control.AccessLocal, Token: testToken})
	c, err := control.NewTCPClient(base+"/", testToken)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	res, err := c.Prompt(ctx, "main", control.PromptRequest{Text: "over tcp", MessageID: "tcp-1"})
	if err != nil || res.MessageID != "tcp-1" || res.EventSeq == 0 {
		t.Fatalf("Prompt over TCP = %+v, %v", res, err)
	}
	overTCP, err := c.Events(ctx, "main", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	overSocket, err := f.c.Events(ctx, "main", 0, len(overTCP.Events)) // the turn goes on meanwhile
	if err != nil {
		t.Fatal(err)
	}
	if len(overTCP.Events) == 0 || len(overTCP.Events) != len(overSocket.Events) ||
		overTCP.Events[len(overTCP.Events)-1].Provenance.EventID != overSocket.Events[len(overSocket.Events)-1].Provenance.EventID {
		t.Fatalf("events over TCP = %+v, over the socket = %+v", overTCP.Events, overSocket.Events)
	}

	wrong, err := control.NewTCPClient(base, strings.Repeat("w", 40))
	if err != nil {
		t.Fatal(err)
	}
	defer wrong.Close()
	var ae *control.Error
	if _, err := wrong.Agents(ctx); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Fatalf("Agents with a wrong token = %v, want 401", err)
	}

	gone, err := control.NewTCPClient("http://127.0.0.1:1", testToken)
	if err != nil {
		t.Fatal(err)
	}
	defer gone.Close()
	if _, err := gone.Agents(ctx); !errors.Is(err, control.ErrNotRunning) {
		t.Fatalf("Agents with nothing listening = %v, want ErrNotRunning", err)
	}
}

func TestNewTCPClientRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, base, token, want string
	}{
		{"unix path", "/run/control.sock", testToken, "want http://HOST:PORT"},
		{"no scheme", "127.0.0.1:7777", testToken, "want http://HOST:PORT"},
		{"no host", "http://", testToken, "no host"},
		{"token in query", "http://127.0.0.1:7777/?token=x", testToken, "never in the URL"},
		{"user info", "http://me:pw@127.0.0.1:7777", testToken, "never in the URL"},
		{"path", "http://127.0.0.1:7777/control", testToken, "no path"},
		{"short token", "http://127.0.0.1:7777", "short", "at least 32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := control.NewTCPClient(tc.base, tc.token); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("NewTCPClient(%q) = %v, want an error saying %q", tc.base, err, tc.want)
			}
		})
	}
}
