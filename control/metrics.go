package control

import (
	"io"
	"net/http"
)

// MetricsContentType is the media type of GET /metrics: the Prometheus
// text exposition format.
const MetricsContentType = "text/plain; version=0.0.4; charset=utf-8"

// metrics serves the runtime's metrics (Config.Metrics); a server without
// them serves an exposition with no series, only a comment saying so. It
// is an operator route like the others: token on TCP, refused to the
// runtime's own tool processes, which have no use for it.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Metrics == nil {
		w.Header().Set("Content-Type", MetricsContentType)
		_, _ = io.WriteString(w, "# this server has no metrics: holon-actors run serves them\n")
		return
	}
	s.cfg.Metrics.ServeHTTP(w, r)
}

// OpenStreams is how many event streams (SSE) the server serves now.
func (s *Server) OpenStreams() int {
	s.streams.mu.Lock()
	defer s.streams.mu.Unlock()
	return s.streams.open
}
