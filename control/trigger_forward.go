package control

import (
	"context"
	"net/http"
	"strings"
)

// publicAdmitted marks a trigger delivery the public rate limit already
// admitted at this node (forwardTrigger), so deliverTrigger does not
// count it twice.
type publicAdmitted struct{}

// isTriggerDelivery reports whether r is POST /triggers/{token}.
func isTriggerDelivery(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.URL.Path, "/triggers/")
	return ok && r.Method == http.MethodPost && token != "" && !strings.Contains(token, "/")
}

// forwardTrigger serves a trigger delivery of a cluster node: its token
// names the agent only through the trigger store, which Config.Forward
// reads, so the public rate limit is taken here first, before any store
// is asked about an unauthenticated token. The delivery is then served
// at the agent's node, or here.
func (s *Server) forwardTrigger(w http.ResponseWriter, r *http.Request) bool {
	if !s.public.global.Allow() {
		writeError(w, errorf(http.StatusTooManyRequests, KindBackpressure, "slow down", "too many requests"))
		return true
	}
	r = r.WithContext(context.WithValue(r.Context(), publicAdmitted{}, true))
	if !s.cfg.Forward(w, r) {
		s.mux.ServeHTTP(w, r)
	}
	return true
}

// publicAllowed takes the public rate limit's token for r, unless
// forwardTrigger took it.
func (s *Server) publicAllowed(r *http.Request) bool {
	return r.Context().Value(publicAdmitted{}) != nil || s.public.global.Allow()
}
