package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
)

// webhookReceiver serves a webhook that verifies each delivery with
// secret and passes its intent on.
func webhookReceiver(t *testing.T, secret []byte) (*httptest.Server, <-chan notify.Intent) {
	t.Helper()
	got := make(chan notify.Intent, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := notify.Verify(secret, r.Header.Get(notify.HeaderTimestamp), r.Header.Get(notify.HeaderSignature), body,
			time.Now(), notify.DefaultTolerance); err != nil {
			t.Errorf("delivery does not verify: %v", err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var in notify.Intent
		if err := json.Unmarshal(body, &in); err != nil {
			t.Errorf("delivery body %q: %v", body, err)
		}
		got <- in
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// TestRunNotifiesWebhookOfQuestion: a runtime started with a webhook
// posts the operator notification of a model's question, signed; the
// receiver verifies it with notify.Verify.
func TestRunNotifiesWebhookOfQuestion(t *testing.T) {
	t.Parallel()
	secret := []byte(strings.Repeat("k", 40))
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, append(secret, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, got := webhookReceiver(t, secret)

	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Asking.", "tool_calls": [{"name": "RequestOperatorInput",
		"arguments": {"question": "Deploy to production?", "response_type": "confirm"}}]}, {"text": "Deploying."}]}`)
	if code, _, errOut := client(t, home, "run", "--model", "scripted", "--script", script, "--notify-webhook", srv.URL); code != exitUsage ||
		!strings.Contains(errOut, "--notify-secret-file") {
		t.Fatalf("run --notify-webhook without a secret = %d %q", code, errOut)
	}
	d := startRun(t, home, "--model", "scripted", "--script", script, "--notify-webhook", srv.URL, "--notify-secret-file", secretFile)
	if code, out, errOut := client(t, home, "prompt", "Deploy when I say so."); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	select {
	case in := <-got:
		n := in.Notification
		if in.Type != notify.IntentType || in.DeliveryID != n.NotificationID || n.Reason != messages.NotifySuspensionRequested ||
			n.Summary != "Deploy to production?" || n.SuspensionID == "" {
			t.Fatalf("intent = %+v", in)
		}
	case <-time.After(e2eWait):
		t.Fatalf("no webhook delivery:\n%s", d.output())
	}
	d.stop()
}

// TestDaemonStartForwardsNotifyWebhook: daemon start hands the webhook
// flags to the background runtime, which then notifies; a start without
// them is a different configuration, not "already running".
func TestDaemonStartForwardsNotifyWebhook(t *testing.T) {
	t.Parallel()
	secret := []byte(strings.Repeat("d", 40))
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, secret, 0o600); err != nil {
		t.Fatal(err)
	}
	srv, got := webhookReceiver(t, secret)
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Asking.", "tool_calls": [{"name": "RequestOperatorInput",
		"arguments": {"question": "Ship it?", "response_type": "confirm"}}]}, {"text": "Shipped."}]}`)
	flags := []string{"--model", "scripted", "--script", script}
	t.Cleanup(func() { client(t, home, "daemon", "stop", "--timeout", "5s") })
	args := append([]string{"daemon", "start", "--notify-webhook", srv.URL, "--notify-secret-file", secretFile}, flags...)
	if code, out, errOut := client(t, home, args...); code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("daemon start = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := client(t, home, append([]string{"daemon", "start"}, flags...)...); code != exitFailure || !strings.Contains(errOut, "different configuration") {
		t.Fatalf("daemon start without the webhook = %d %q, want a different configuration", code, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "Ship when I say so."); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	select {
	case in := <-got:
		if in.Notification.Summary != "Ship it?" {
			t.Fatalf("intent = %+v", in)
		}
	case <-time.After(e2eWait):
		_, logs, _ := client(t, home, "daemon", "logs")
		t.Fatalf("no webhook delivery from the daemon:\n%s", logs)
	}
}
