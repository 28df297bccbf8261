package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The request headers of a delivery.
const (
	// HeaderTimestamp carries the signing time in unix seconds.
	HeaderTimestamp = "X-Holon-Timestamp"
	// HeaderSignature carries "v1=" and the hex HMAC-SHA256 of
	// timestamp + "." + body.
	HeaderSignature = "X-Holon-Signature"
	// HeaderDelivery carries the delivery ID, the same on every attempt.
	HeaderDelivery = "X-Holon-Delivery"
)

// signatureScheme names the signature version in HeaderSignature.
const signatureScheme = "v1"

// DefaultTolerance is how far a timestamp may be from the receiver's clock
// when Verify is given no tolerance.
const DefaultTolerance = 5 * time.Minute

// Sign returns the HeaderSignature value for body signed at ts (unix
// seconds): "v1=" and the hex HMAC-SHA256 under secret of the decimal ts,
// a dot, and body.
func Sign(secret []byte, ts int64, body []byte) string {
	return signatureScheme + "=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret []byte, ts int64, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(strconv.AppendInt(nil, ts, 10))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a delivery as its receiver got it: the HeaderTimestamp and
// HeaderSignature values and the raw body, against the shared secret and
// the receiver's clock. It returns nil when some v1 entry of the
// comma-separated signature header matches (compared in constant time)
// and the timestamp is within tolerance of now (DefaultTolerance when
// tolerance <= 0). Otherwise the error wraps ErrMalformedHeader,
// ErrSignatureMismatch, ErrStaleTimestamp, or ErrInvalidConfig for a
// secret shorter than MinSecretLen.
func Verify(secret []byte, tsHeader, sigHeader string, body []byte, now time.Time, tolerance time.Duration) error {
	if len(secret) < MinSecretLen {
		return fmt.Errorf("verify: secret is %d bytes, need at least %d: %w", len(secret), MinSecretLen, ErrInvalidConfig)
	}
	ts, err := strconv.ParseInt(strings.TrimSpace(tsHeader), 10, 64)
	if err != nil {
		return fmt.Errorf("%s %q is not unix seconds: %w", HeaderTimestamp, excerpt(tsHeader, 32), ErrMalformedHeader)
	}
	if err := verifyMAC(mac(secret, ts, body), sigHeader); err != nil {
		return err
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	switch age := now.Sub(time.Unix(ts, 0)); {
	case age > tolerance:
		return fmt.Errorf("timestamp is %v old, tolerance %v: %w", age, tolerance, ErrStaleTimestamp)
	case age < -tolerance:
		return fmt.Errorf("timestamp is %v in the future, tolerance %v: %w", -age, tolerance, ErrStaleTimestamp)
	}
	return nil
}

// verifyMAC checks that some v1 entry of sigHeader is want.
func verifyMAC(want []byte, sigHeader string) error {
	found := false
	for entry := range strings.SplitSeq(sigHeader, ",") {
		scheme, sig, ok := strings.Cut(strings.TrimSpace(entry), "=")
		if !ok || scheme != signatureScheme {
			continue
		}
		found = true
		if got, err := hex.DecodeString(sig); err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	if !found {
		return fmt.Errorf("%s has no %s= signature: %w", HeaderSignature, signatureScheme, ErrMalformedHeader)
	}
	return fmt.Errorf("%s does not match the timestamp and body: %w", HeaderSignature, ErrSignatureMismatch)
}
