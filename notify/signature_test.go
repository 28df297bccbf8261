package notify_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
)

func TestSign(t *testing.T) {
	// printf '%s' '1700000000.{"type":"operator_notification"}' |
	//   openssl dgst -sha256 -hmac 0123456789abcdef0123456789abcdef
	const want = "v1=bd49ffd93eba9566f6fefd85665ecd3815fdd39db8b78120b9646db28c41e782"
	if got := notify.Sign([]byte(testSecret), 1700000000, []byte(`{"type":"operator_notification"}`)); got != want {
		t.Errorf("Sign() = %s, want %s", got, want)
	}
}

// TestVerifyDelivery checks Verify against a request Deliver really sent.
func TestVerifyDelivery(t *testing.T) {
	c := newClock()
	rcv := serve(t, c, answer{status: 200})
	d := deliver(t, newWebhook(t, c, rcv.URL, nil), note())
	d.expect(t, wantReport{status: messages.DeliveryAcceptedByTransport, attempt: 1, httpStatus: 200, at: t0})
	d.result(t, messages.DeliveryAcceptedByTransport)
	req := rcv.requests()[0]
	ts, sig, body := req.header.Get(notify.HeaderTimestamp), req.header.Get(notify.HeaderSignature), req.body
	tampered := append([]byte(nil), body...)
	tampered[len(tampered)-2] ^= 1
	other := []byte("abcdefghijklmnopqrstuvwxyz012345")
	secret := []byte(testSecret)

	tests := []struct {
		name      string
		secret    []byte
		ts, sig   string
		body      []byte
		now       time.Time
		tolerance time.Duration
		want      error
	}{
		{name: "as sent", secret: secret, ts: ts, sig: sig, body: body, now: t0},
		{name: "at the tolerance", secret: secret, ts: ts, sig: sig, body: body, now: t0.Add(5 * time.Minute)},
		{name: "wider tolerance", secret: secret, ts: ts, sig: sig, body: body, now: t0.Add(time.Hour), tolerance: 2 * time.Hour},
		{name: "among other entries", secret: secret, ts: ts, sig: "v0=abc, v1=00ff," + sig, body: body, now: t0},
		{name: "wrong secret", secret: other, ts: ts, sig: sig, body: body, now: t0, want: notify.ErrSignatureMismatch},
		{name: "tampered body", secret: secret, ts: ts, sig: sig, body: tampered, now: t0, want: notify.ErrSignatureMismatch},
		{name: "tampered timestamp", secret: secret, ts: fmt.Sprint(t0.Unix() + 1), sig: sig, body: body, now: t0, want: notify.ErrSignatureMismatch},
		{name: "not hex", secret: secret, ts: ts, sig: "v1=zz", body: body, now: t0, want: notify.ErrSignatureMismatch},
		{name: "stale", secret: secret, ts: ts, sig: sig, body: body, now: t0.Add(5*time.Minute + time.Second), want: notify.ErrStaleTimestamp},
		{name: "future", secret: secret, ts: ts, sig: sig, body: body, now: t0.Add(-6 * time.Minute), want: notify.ErrStaleTimestamp},
		{name: "no timestamp", secret: secret, ts: "", sig: sig, body: body, now: t0, want: notify.ErrMalformedHeader},
		{name: "timestamp not a number", secret: secret, ts: "yesterday", sig: sig, body: body, now: t0, want: notify.ErrMalformedHeader},
		{name: "no signature", secret: secret, ts: ts, sig: "", body: body, now: t0, want: notify.ErrMalformedHeader},
		{name: "unknown scheme only", secret: secret, ts: ts, sig: "v2=" + sig[3:], body: body, now: t0, want: notify.ErrMalformedHeader},
		{name: "short secret", secret: secret[:16], ts: ts, sig: sig, body: body, now: t0, want: notify.ErrInvalidConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := notify.Verify(tt.secret, tt.ts, tt.sig, tt.body, tt.now, tt.tolerance)
			if tt.want == nil && err != nil || !errors.Is(err, tt.want) {
				t.Errorf("Verify() = %v, want %v", err, tt.want)
			}
		})
	}
}

// FuzzVerify checks that Verify survives any headers and body, and that
// whatever Sign signs, Verify accepts.
func FuzzVerify(f *testing.F) {
	f.Add(int64(1700000000), "1700000000", "v1=00", []byte(`{"type":"operator_notification"}`))
	f.Add(int64(0), " -1 ", "v0=x,,v1=,=", []byte{})
	f.Add(int64(-62135596800), "9223372036854775807", "v1=zz", []byte("\xff"))
	secret := []byte(testSecret)
	f.Fuzz(func(t *testing.T, ts int64, tsHeader, sigHeader string, body []byte) {
		_ = notify.Verify(secret, tsHeader, sigHeader, body, t0, time.Minute)
		now := time.Unix(ts, 0)
		if err := notify.Verify(secret, fmt.Sprint(ts), notify.Sign(secret, ts, body), body, now, time.Minute); err != nil {
			t.Errorf("Verify(Sign(%d, %q)) = %v", ts, body, err)
		}
	})
}
