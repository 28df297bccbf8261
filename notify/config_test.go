package notify_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
)

func TestDefaultConfig(t *testing.T) {
	c := notify.DefaultConfig()
	if c.MaxAttempts != 5 || c.BaseBackoff != time.Second || c.MaxBackoff != time.Minute || c.Timeout != 10*time.Second {
		t.Errorf("DefaultConfig() = %+v, want 5 attempts, backoff 1s to 1m, timeout 10s", c)
	}
}

func TestNewRejects(t *testing.T) {
	secret := []byte(testSecret)
	tests := []struct {
		name    string
		cfg     notify.Config
		wantHas []string
	}{
		{"empty URL", notify.Config{Secret: secret}, []string{"webhook URL is empty", "https://"}},
		{"relative URL", notify.Config{URL: "/hook", Secret: secret}, []string{`scheme "" is not http or https`}},
		{"other scheme", notify.Config{URL: "ftp://user:hunter2@example.com/x", Secret: secret}, []string{`scheme "ftp"`, "https://"}},
		{"no host", notify.Config{URL: "https:///hook", Secret: secret}, []string{"has no host"}},
		{"unparsable", notify.Config{URL: "https://hunter2@ex ample.com/%zz", Secret: secret}, []string{"does not parse"}},
		{"no secret", notify.Config{URL: "https://example.com/hook"}, []string{"secret is 0 bytes", "openssl rand -hex 32"}},
		{"short secret", notify.Config{URL: "https://example.com/hook", Secret: secret[:31]}, []string{"secret is 31 bytes, need at least 32"}},
		{"negative attempts", notify.Config{URL: "https://example.com/hook", Secret: secret, MaxAttempts: -1}, []string{"max attempts -1"}},
		{"max below base", notify.Config{URL: "https://example.com/hook", Secret: secret, BaseBackoff: time.Minute, MaxBackoff: time.Second}, []string{"backoff base 1m0s max 1s"}},
		{"negative base", notify.Config{URL: "https://example.com/hook", Secret: secret, BaseBackoff: -time.Second}, []string{"backoff base -1s"}},
		{"negative timeout", notify.Config{URL: "https://example.com/hook", Secret: secret, Timeout: -time.Second}, []string{"attempt timeout -1s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := notify.New(tt.cfg)
			if !errors.Is(err, notify.ErrInvalidConfig) || w != nil {
				t.Fatalf("New() = %v, %v; want nil, ErrInvalidConfig", w, err)
			}
			for _, s := range tt.wantHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("New() error %q, want it to contain %q", err, s)
				}
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), testSecret[:31]) {
				t.Errorf("New() error %q quotes the URL or the secret", err)
			}
		})
	}
}

func TestNewAccepts(t *testing.T) {
	for _, url := range []string{"http://127.0.0.1:8080/hook", "https://ops.example.com/holon?team=a", "HTTPS://example.com"} {
		if _, err := notify.New(notify.Config{URL: url, Secret: []byte(testSecret)}); err != nil {
			t.Errorf("New(%q) = %v, want nil", url, err)
		}
	}
}

func TestNewKeepsItsOwnCopies(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: 200})
	client := &http.Client{}
	secret := []byte(testSecret)
	w := newWebhook(t, c, rcv.URL, func(cfg *notify.Config) { cfg.Client, cfg.Secret = client, secret })
	secret[0] = 'X' // the caller reuses its buffer

	d := deliver(t, w, note())
	d.expect(t, wantReport{status: messages.DeliveryAcceptedByTransport, attempt: 1, httpStatus: 200, at: t0})
	d.result(t, messages.DeliveryAcceptedByTransport)
	checkRequests(t, rcv.requests(), t0) // verified with the original secret
	if client.CheckRedirect != nil {
		t.Error("New changed the caller's client's redirect policy")
	}
}
