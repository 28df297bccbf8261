package notify

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/jonboulle/clockwork"
)

// MinSecretLen is the shortest signing secret New and Verify accept, in
// bytes.
const MinSecretLen = 32

// Config configures a Webhook. A zero field takes its DefaultConfig value.
type Config struct {
	// URL is the receiver's endpoint: an absolute http or https URL. It may
	// carry credentials (user info, a secret path); they never appear in
	// reports.
	URL string
	// Secret keys the HMAC-SHA256 signature of every request; at least
	// MinSecretLen bytes. Generate one with `openssl rand -hex 32`.
	Secret []byte
	// Client sends the requests; nil means a client on
	// http.DefaultTransport. Its redirect policy is replaced: redirects are
	// never followed, and a 3xx response fails the delivery.
	Client *http.Client
	// Clock times backoff waits and attempt timeouts, and stamps sent_at,
	// the signature timestamp and reports; nil means the real clock.
	Clock clockwork.Clock
	// MaxAttempts is how many requests one delivery makes at most (5).
	MaxAttempts int
	// BaseBackoff is the ceiling of the wait before the first retry; each
	// further retry doubles it (1s).
	BaseBackoff time.Duration
	// MaxBackoff caps the ceiling of a wait, and any Retry-After (60s).
	MaxBackoff time.Duration
	// Timeout bounds one attempt, from sending the request to draining the
	// response (10s).
	Timeout time.Duration
}

// DefaultConfig returns the default retry policy and timeout: 5 attempts,
// backoff ceilings doubling from 1s to at most 60s, 10s per attempt. URL
// and Secret have no default.
func DefaultConfig() Config {
	return Config{MaxAttempts: 5, BaseBackoff: time.Second, MaxBackoff: time.Minute, Timeout: 10 * time.Second}
}

// withDefaults fills the zero fields from DefaultConfig and the real
// clock.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.MaxAttempts == 0 {
		c.MaxAttempts = d.MaxAttempts
	}
	if c.BaseBackoff == 0 {
		c.BaseBackoff = d.BaseBackoff
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = max(d.MaxBackoff, c.BaseBackoff)
	}
	if c.Timeout == 0 {
		c.Timeout = d.Timeout
	}
	if c.Clock == nil {
		c.Clock = clockwork.NewRealClock()
	}
	return c
}

// Validate reports a config New would refuse, saying what to set. Zero
// fields count as their defaults.
func (c Config) Validate() error {
	c = c.withDefaults()
	if err := validateURL(c.URL); err != nil {
		return err
	}
	switch {
	case len(c.Secret) < MinSecretLen:
		return fmt.Errorf("webhook secret is %d bytes, need at least %d (generate one with `openssl rand -hex 32`): %w",
			len(c.Secret), MinSecretLen, ErrInvalidConfig)
	case c.MaxAttempts < 1:
		return fmt.Errorf("max attempts %d is negative: %w", c.MaxAttempts, ErrInvalidConfig)
	case c.BaseBackoff < 0 || c.MaxBackoff < c.BaseBackoff:
		return fmt.Errorf("backoff base %v max %v: want 0 < base <= max: %w", c.BaseBackoff, c.MaxBackoff, ErrInvalidConfig)
	case c.Timeout < 0:
		return fmt.Errorf("attempt timeout %v is negative: %w", c.Timeout, ErrInvalidConfig)
	}
	return nil
}

// urlHint is how every URL error ends: what to set.
const urlHint = "set the webhook URL to an absolute http:// or https:// URL, such as https://ops.example.com/holon"

// validateURL checks that raw is an absolute http(s) URL with a host. Its
// errors never quote raw: it may hold credentials.
func validateURL(raw string) error {
	if raw == "" {
		return fmt.Errorf("webhook URL is empty: %s: %w", urlHint, ErrInvalidConfig)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("webhook URL does not parse: %s: %w", urlHint, ErrInvalidConfig)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("webhook URL scheme %q is not http or https: %s: %w", u.Scheme, urlHint, ErrInvalidConfig)
	case u.Host == "":
		return fmt.Errorf("webhook URL has no host: %s: %w", urlHint, ErrInvalidConfig)
	}
	return nil
}
