package control

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/time/rate"
)

// Wrong control tokens are limited per peer: FailBurst of them in a row,
// then one more every FailEvery. Past that the peer gets 429 with
// Retry-After until its allowance refills, whatever token it sends, so a
// guesser learns nothing more.
const (
	FailBurst = 10
	FailEvery = 6 * time.Second
	// maxFailPeers bounds the peers remembered; peers whose allowance is
	// whole again are forgotten first.
	maxFailPeers = 4096
)

// failures counts the wrong tokens of each peer.
type failures struct {
	clock clockwork.Clock

	mu  sync.Mutex
	per map[string]*rate.Limiter // guarded by mu
}

func newFailures(clock clockwork.Clock) *failures {
	return &failures{clock: clock, per: map[string]*rate.Limiter{}}
}

// wait is how long peer must wait before its next attempt; 0 when it may
// try now.
func (f *failures) wait(peer string) time.Duration {
	now := f.clock.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	lim := f.per[peer]
	if lim == nil {
		return 0
	}
	if t := lim.TokensAt(now); t < 1 {
		return time.Duration((1 - t) * float64(FailEvery))
	}
	return 0
}

// fail records a wrong token from peer.
func (f *failures) fail(peer string) {
	now := f.clock.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	lim := f.per[peer]
	if lim == nil {
		if len(f.per) >= maxFailPeers {
			f.forgetWhole(now)
		}
		lim = rate.NewLimiter(rate.Every(FailEvery), FailBurst)
		f.per[peer] = lim
	}
	lim.AllowN(now, 1)
}

// forgetWhole drops the peers whose allowance has refilled. f.mu is held.
func (f *failures) forgetWhole(now time.Time) {
	for k, lim := range f.per {
		if lim.TokensAt(now) >= FailBurst {
			delete(f.per, k)
		}
	}
}

// failKey names r's peer for the limit: the local user when the kernel
// told it (so one local user cannot lock out another), else the remote
// address.
func failKey(r *http.Request) string {
	if p := callerOf(r).peer; p.known {
		return "uid:" + strconv.Itoa(p.uid)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// tooManyFailures is the 429 of a peer that must wait d.
func tooManyFailures(w http.ResponseWriter, peer string, d time.Duration) {
	secs := int(math.Ceil(d.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	writeError(w, errorf(http.StatusTooManyRequests, KindBackpressure,
		"wait "+strconv.Itoa(secs)+"s (Retry-After), then send the right token: Authorization: Bearer <control token>",
		"too many wrong control tokens from %s", peer))
}
