package guard_test

import (
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/remote/guard"
)

// stopper records the stops asked of it; its graceful stop panics as
// upstream's does when a stream closes meanwhile, or blocks until a forced
// stop, as with a peer that holds its stream.
type stopper struct {
	mu     sync.Mutex
	calls  []bool
	panics bool
	forced chan struct{}
}

func (s *stopper) Shutdown(graceful bool) {
	s.mu.Lock()
	s.calls = append(s.calls, graceful)
	s.mu.Unlock()
	switch {
	case graceful && s.panics:
		panic("send on closed channel")
	case graceful:
		<-s.forced
	default:
		close(s.forced)
	}
}

// TestShutdown: a graceful stop that panics is recovered, returned and
// followed by a forced stop; one that does not end in time is forced.
func TestShutdown(t *testing.T) {
	for _, tt := range []struct {
		name   string
		panics bool
		grace  time.Duration
	}{
		{"graceful stop panics", true, time.Hour},
		{"graceful stop hangs", false, time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &stopper{panics: tt.panics, forced: make(chan struct{})}
			got := guard.Shutdown(s, tt.grace)
			if (got != nil) != tt.panics {
				t.Errorf("Shutdown = %v, want the panic: %v", got, tt.panics)
			}
			if len(s.calls) != 2 || !s.calls[0] || s.calls[1] {
				t.Errorf("stops = %v, want graceful then forced", s.calls)
			}
		})
	}
}
