package guard

import "time"

// Remote is what Shutdown stops: *remote.Remote.
type Remote interface{ Shutdown(graceful bool) }

// Shutdown stops r gracefully, and at once after grace (a peer holding its
// stream open would otherwise hold the graceful stop for remote's own
// 10 s). It survives an upstream race: remote's endpoint manager sends its
// disconnect on the channel of every stream it knows, and a stream that
// closes at that moment has already closed its channel, so the graceful
// stop panics ("send on closed channel") in this goroutine. That panic is
// recovered and returned (nil when there was none), and the server is then
// stopped at once.
func Shutdown(r Remote, grace time.Duration) (recovered any) {
	done := make(chan any, 1) // the graceful stop's end: its panic, or nil
	go func() {
		defer func() { done <- recover() }()
		r.Shutdown(true)
	}()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case recovered = <-done:
		if recovered != nil {
			r.Shutdown(false)
		}
	case <-t.C:
		r.Shutdown(false) // ends the graceful stop too
		recovered = <-done
	}
	return recovered
}
