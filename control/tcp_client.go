package control

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ErrBadURL is returned by NewTCPClient for a base URL it cannot use.
var ErrBadURL = errors.New("control URL")

// NewTCPClient returns a client for the control API a runtime serves on
// TCP (run --listen) at base, "http://HOST:PORT", sending token in the
// Authorization header of every request. The token never goes in the URL:
// a base with a query, user info or a path is refused, and so is an empty
// or short token.
func NewTCPClient(base, token string) (*Client, error) {
	u, err := url.Parse(base)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w %q: want http://HOST:PORT: %w", ErrBadURL, base, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%w %q: want http://HOST:PORT, the address run --listen serves", ErrBadURL, base)
	case u.Host == "":
		return nil, fmt.Errorf("%w %q: no host: want http://HOST:PORT", ErrBadURL, base)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("%w %q: give only http://HOST:PORT; the token goes in a file, never in the URL", ErrBadURL, base)
	case strings.Trim(u.Path, "/") != "":
		return nil, fmt.Errorf("%w %q: no path: the API's routes hang off the root, give http://HOST:PORT", ErrBadURL, base)
	case len(token) < MinTokenLen:
		return nil, fmt.Errorf("the control token is %d characters, want the runtime's token of at least %d", len(token), MinTokenLen)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	origin := u.Scheme + "://" + u.Host
	return &Client{http: &http.Client{Transport: bearer{token: token, next: tr}}, base: origin, target: origin}, nil
}

// bearer adds the control token to every request it carries.
type bearer struct {
	token string
	next  *http.Transport
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context()) // a RoundTripper must not modify its request
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// CloseIdleConnections lets Client.Close release the TCP connections.
func (b bearer) CloseIdleConnections() { b.next.CloseIdleConnections() }
