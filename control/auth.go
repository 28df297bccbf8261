package control

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"github.com/rs/zerolog"
)

// Access is how the TCP listener may be reached (runtime-spec "daemon"
// access options).
type Access string

// The access modes.
const (
	// AccessLocal binds to loopback and serves loopback callers only.
	AccessLocal Access = "local"
	// AccessTunnel binds to loopback for a tunnel (ssh -L, cloudflared …)
	// that forwards remote callers: a token is required.
	AccessTunnel Access = "tunnel"
	// AccessLAN and AccessTailnet bind to a reachable address: a token is
	// required.
	AccessLAN     Access = "lan"
	AccessTailnet Access = "tailnet"
)

// ParseAccess checks an access mode.
func ParseAccess(s string) (Access, error) {
	switch a := Access(s); a {
	case AccessLocal, AccessTunnel, AccessLAN, AccessTailnet:
		return a, nil
	}
	return "", fmt.Errorf("access %q: want local, tunnel, lan or tailnet", s)
}

// MinTokenLen is the shortest control token accepted: 32 characters.
const MinTokenLen = 32

// TCPAuth configures the TCP listener's checks.
type TCPAuth struct {
	Access Access
	// Token must come in "Authorization: Bearer <token>" on every
	// request but the public ones. Required by every mode: a listener on
	// loopback is still open to every local user.
	Token string
}

// CheckListen validates a TCP listen address against the access mode and
// token before anything is bound: every mode needs a token, local must
// bind loopback.
func (a TCPAuth) CheckListen(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: want host:port", addr)
	}
	loop := isLoopbackHost(host)
	switch {
	case a.Access == AccessLocal && !loop:
		return fmt.Errorf("access local binds loopback only, not %q: use --access lan or tailnet with a token", host)
	case a.Token == "":
		return fmt.Errorf("the TCP listener (access %s) needs a control token, even on loopback where every local user reaches it: pass --token-file (or HOLON_CONTROL_TOKEN), or let run generate one", a.Access)
	case a.Token != "" && len(a.Token) < MinTokenLen:
		return fmt.Errorf("the control token is %d characters, want at least %d (e.g. openssl rand -hex 32)", len(a.Token), MinTokenLen)
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// gate is the checks in front of the API: who the caller is, and on
// TCP the token.
type gate struct {
	callers  callers
	failures *failures // wrong TCP tokens per peer
	log      zerolog.Logger
}

// refuseToolProcess answers 403, and reports true, when r comes from one
// of the runtime's tool processes and is not for a public route.
func (g *gate) refuseToolProcess(w http.ResponseWriter, r *http.Request) bool {
	if isPublic(r.URL.Path) {
		return false
	}
	c := callerOf(r)
	if c.tool == "" {
		return false
	}
	g.log.Warn().Ints("peer_pids", c.peer.pids).Str("method", r.Method).Str("path", r.URL.Path).
		Msg("control request from a tool process refused")
	writeError(w, toolProcessError(c.tool))
	return true
}

// tcp wraps h with the TCP listener's checks, in order: the token is never
// accepted in the query; public routes pass; the runtime's own tool
// processes are refused; a peer past its wrong tokens waits (429); the
// token is required in the Authorization header and compared in constant time; in local mode
// callers, Host and Origin must be loopback.
func (g *gate) tcp(a TCPAuth, h http.Handler) http.Handler {
	want := sha256.Sum256([]byte(a.Token)) // ServeTCP refuses an empty token
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Has("token") || q.Has("access_token") {
			writeError(w, errorf(http.StatusUnauthorized, KindUnauthorized, "send the token in the Authorization: Bearer header, never in the URL",
				"a token in the query is refused"))
			return
		}
		if isPublic(r.URL.Path) {
			h.ServeHTTP(w, r) // capability in the path, or public ingress: rate-limited, never operator authority
			return
		}
		if g.refuseToolProcess(w, r) {
			return
		}
		peer := failKey(r)
		if d := g.failures.wait(peer); d > 0 {
			g.log.Warn().Str("peer", peer).Str("path", r.URL.Path).Dur("retry_after", d).Msg("control request refused: too many wrong tokens")
			tooManyFailures(w, peer, d)
			return
		}
		if !bearerOK(r, want) {
			g.failures.fail(peer)
			g.log.Warn().Str("peer", peer).Str("remote_addr", r.RemoteAddr).Str("method", r.Method).Str("path", r.URL.Path).
				Msg("control request with a missing or wrong token")
			w.Header().Set("WWW-Authenticate", `Bearer realm="holon-actors"`)
			writeError(w, errorf(http.StatusUnauthorized, KindUnauthorized, "send Authorization: Bearer <control token>",
				"missing or wrong control token"))
			return
		}
		if a.Access == AccessLocal {
			if e := checkLocal(r); e != nil {
				writeError(w, e)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// bearerOK compares the request's bearer token with want in constant time.
func bearerOK(r *http.Request, want [32]byte) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}

// checkLocal refuses non-loopback callers and, against DNS rebinding, a
// Host or Origin that is not loopback.
func checkLocal(r *http.Request) *Error {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil || !isLoopbackHost(host) {
		return errorf(http.StatusForbidden, KindUnauthorized, "use --access lan or tailnet with a token for remote callers",
			"caller %s is not on loopback", r.RemoteAddr)
	}
	reqHost := r.Host
	if h, _, err := net.SplitHostPort(reqHost); err == nil {
		reqHost = h
	}
	if !isLoopbackHost(reqHost) {
		return errorf(http.StatusForbidden, KindUnauthorized, "address the runtime as localhost or 127.0.0.1",
			"Host %q is not loopback", r.Host)
	}
	if o := r.Header.Get("Origin"); o != "" {
		rest, ok := strings.CutPrefix(o, "http://")
		if !ok {
			rest, ok = strings.CutPrefix(o, "https://")
		}
		h := rest
		if hh, _, err := net.SplitHostPort(rest); err == nil {
			h = hh
		}
		if !ok || !isLoopbackHost(h) {
			return errorf(http.StatusForbidden, KindUnauthorized, "browser pages from other origins may not call the control API",
				"Origin %q is not loopback", o)
		}
	}
	return nil
}

// unix wraps h with the socket's checks: callers whose uid is neither
// ours nor root's are refused (the socket's 0600 mode already keeps them
// out; this is the second fence), and so are the runtime's own tool
// processes on every route but the public ones. Where the platform does
// not tell the peer, the file mode is the only fence.
func (g *gate) unix(h http.Handler) http.Handler {
	self := os.Getuid()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := callerOf(r).peer
		if p.known && p.uid != self && p.uid != 0 {
			writeError(w, errorf(http.StatusForbidden, KindUnauthorized, "run the client as the user that runs the runtime",
				"caller uid %d may not use this runtime's socket", p.uid))
			return
		}
		if g.refuseToolProcess(w, r) {
			return
		}
		h.ServeHTTP(w, r)
	})
}
