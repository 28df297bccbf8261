package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClientOverURL: every client command reaches a runtime's TCP listener
// with --url and --url-token-file from a home that has no runtime, and
// prints what the same command prints over the control socket. Bad
// connection flags are usage errors that reach nothing, and a wrong token
// is the runtime's refusal.
func TestClientOverURL(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	tokenFile := filepath.Join(t.TempDir(), "token")
	token := strings.Repeat("5e", 20)
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"steps": [{"text": "Done over TCP."}]}`)
	d := startRun(t, home, "--model", "scripted", "--script", script, "--listen", "127.0.0.1:0", "--token-file", tokenFile)
	code, out, _ := client(t, home, "--json", "daemon", "status")
	var st daemonStatus
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.HTTPAddr == "" {
		t.Fatalf("daemon status = %d %s", code, out)
	}
	elsewhere := filepath.Join(t.TempDir(), "no-runtime-here")
	remote := func(args ...string) (int, string, string) {
		return client(t, elsewhere, append([]string{"--url", "http://" + st.HTTPAddr, "--url-token-file", tokenFile}, args...)...)
	}

	if code, out, errOut := remote("prompt", "--wait", "--message-id", "url-1", "hello over TCP"); code != 0 || strings.TrimSpace(out) != "Done over TCP." {
		t.Fatalf("prompt --wait over --url = %d %q %q", code, out, errOut)
	}
	if code, out, _ := remote("prompt", "--message-id", "url-1", "hello over TCP"); code != 0 || !strings.Contains(out, "already admitted url-1") {
		t.Fatalf("the same prompt again over --url = %d %q, want already admitted", code, out)
	}
	for _, args := range [][]string{
		{"status"},
		{"--json", "agents", "list"},
		{"tail", "--limit", "5"},
		{"--json", "suspensions", "list"},
		{"--json", "work-items", "list", "main"},
		{"briefs"},
	} {
		code, viaSocket, errOut := client(t, home, args...)
		if code != 0 {
			t.Fatalf("%v over the socket = %d %q", args, code, errOut)
		}
		code, viaURL, errOut := remote(args...)
		if code != 0 || viaURL != viaSocket {
			t.Fatalf("%v over --url = %d %q\n%s\nover the socket:\n%s", args, code, errOut, viaURL, viaSocket)
		}
	}

	wrongFile := filepath.Join(t.TempDir(), "wrong")
	if err := os.WriteFile(wrongFile, []byte(strings.Repeat("x", 40)), 0o600); err != nil {
		t.Fatal(err)
	}
	openFile := filepath.Join(t.TempDir(), "open")
	if err := os.WriteFile(openFile, []byte(token), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := "http://" + st.HTTPAddr
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no token file", []string{"--url", addr, "prompt", "x"}, exitUsage, "needs --url-token-file"},
		{"token file without url", []string{"--url-token-file", tokenFile, "prompt", "x"}, exitUsage, "without --url"},
		{"token file open to others", []string{"--url", addr, "--url-token-file", openFile, "prompt", "x"}, exitUsage, "chmod 600"},
		{"address without scheme", []string{"--url", st.HTTPAddr, "--url-token-file", tokenFile, "prompt", "x"}, exitUsage, "want http://HOST:PORT"},
		{"token in the URL", []string{"--url", addr + "/?token=" + token, "--url-token-file", tokenFile, "prompt", "x"}, exitUsage, "never in the URL"},
		{"wrong token", []string{"--url", addr, "--url-token-file", wrongFile, "prompt", "x"}, exitFailure, "missing or wrong control token"},
		{"nothing listening", []string{"--url", "http://127.0.0.1:1", "--url-token-file", tokenFile, "status"}, exitDown, "no runtime is running at http://127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out, errOut := client(t, elsewhere, tc.args...); code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Fatalf("%v = %d %q %q, want %d saying %q", tc.args, code, out, errOut, tc.code, tc.want)
			}
		})
	}
	// None of the refused prompts was admitted.
	if code, out, _ := client(t, home, "--json", "tail", "--limit", "1000"); code != 0 || strings.Count(out, `"kind":"message_admitted"`) != 1 {
		t.Fatalf("admissions after the refused prompts:\n%s", out)
	}
	d.stop()
}
