package control

import (
	"context"
	"net/http"
)

// Forwarder serves a request at another node when the agent it is about
// is placed there (a cluster node), writing the answer to w; it reports
// false when the request is this node's to serve.
type Forwarder func(w http.ResponseWriter, r *http.Request) bool

// localKey marks a request served by LocalHandler.
type localKey struct{}

// LocalHandler is the API's handler that serves every request here,
// never through Config.Forward: what a cluster node serves for the
// agents placed on it when other nodes forward their requests.
func (s *Server) LocalHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), localKey{}, true)))
	})
}

// forwarded reports whether Config.Forward served r elsewhere.
func (s *Server) forwarded(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.Forward == nil || r.Context().Value(localKey{}) != nil {
		return false
	}
	if isTriggerDelivery(r) {
		return s.forwardTrigger(w, r)
	}
	return s.cfg.Forward(w, r)
}

// WriteError answers e as every route answers its errors, for a
// Forwarder that cannot reach the agent's node.
func WriteError(w http.ResponseWriter, e *Error) { writeError(w, e) }

// ForwardedHeaders are the request headers the API reads besides the body:
// a Forwarder serving a request at another node carries these, so the
// request served there is the one the caller sent (a webhook's delivery
// id, say, which makes a repeated delivery admitted once).
func ForwardedHeaders() []string {
	return append([]string{"Content-Type", "Accept", "Last-Event-ID"}, deliveryHeaders...)
}
