package control

import (
	"net/http"
	"strings"
)

// NewTCPClient returns a client for the control API on TCP at addr
// (HOST:PORT, or an http:// base URL) that sends token as its bearer
// token on every request.
func NewTCPClient(addr, token string) *Client {
	base := addr
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		base = "http://" + base
	}
	tr := &bearer{token: token, next: http.DefaultTransport.(*http.Transport).Clone()}
	return &Client{http: &http.Client{Transport: tr}, base: strings.TrimSuffix(base, "/"), target: addr}
}

// bearer adds the Authorization header to each request.
type bearer struct {
	token string
	next  *http.Transport
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// CloseIdleConnections lets Client.Close release the connections.
func (b *bearer) CloseIdleConnections() { b.next.CloseIdleConnections() }
