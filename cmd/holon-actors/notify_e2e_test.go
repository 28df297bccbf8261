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

// TestRunNotifiesWebhookOfQuestion: a runtime started with a webhook
// posts the operator notification of a model's question, signed; the
// receiver verifies it with notify.Verify.
func TestRunNotifiesWebhookOfQuestion(t *testing.T) {
	secret := []byte(strings.Repeat("k", 40))
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, append(secret, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
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
	defer srv.Close()

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
