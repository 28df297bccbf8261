package secrets

import (
	"bytes"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Redacted replaces a secret value wherever a sink would write it.
const Redacted = "[redacted]"

// MinLen is the shortest value a Registry redacts: shorter values would
// mangle ordinary text and are no credential anyway.
const MinLen = 8

// Registry is the set of secret values to redact. The zero value is an
// empty registry ready for use; a nil *Registry redacts nothing.
type Registry struct {
	mu     sync.RWMutex
	values []string          // guarded by mu; longest first, so a value containing another goes whole
	r      *strings.Replacer // guarded by mu; nil when values is empty
}

// NewRegistry returns a registry holding values.
func NewRegistry(values ...string) *Registry {
	r := &Registry{}
	r.Add(values...)
	return r
}

// Add registers values; empty ones, ones shorter than MinLen and ones
// already known are ignored.
func (r *Registry) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for _, v := range values {
		v = strings.TrimSpace(v)
		if len(v) < MinLen || slices.Contains(r.values, v) {
			continue
		}
		r.values, changed = append(r.values, v), true
	}
	if !changed {
		return
	}
	slices.SortFunc(r.values, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(r.values))
	for _, v := range r.values {
		pairs = append(pairs, v, Redacted)
	}
	r.r = strings.NewReplacer(pairs...)
}

// AddURL registers the credentials a URL carries: its user info password
// and every query value (an API key given as ?key=…).
func (r *Registry) AddURL(raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if p, ok := u.User.Password(); ok {
		r.Add(p)
	}
	for _, vs := range u.Query() {
		r.Add(vs...)
	}
}

// Len is how many values are registered.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.values)
}

// Redact returns s with every registered value replaced by Redacted.
func (r *Registry) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	rep := r.r
	r.mu.RUnlock()
	if rep == nil {
		return s
	}
	return rep.Replace(s)
}

// RedactBytes is Redact for bytes; b is returned unchanged (not copied)
// when it holds no secret. Redacting valid JSON keeps it valid: a secret
// is replaced only where it appears verbatim, inside a string.
func (r *Registry) RedactBytes(b []byte) []byte {
	if r == nil || !r.contains(b) {
		return b
	}
	return []byte(r.Redact(string(b)))
}

func (r *Registry) contains(b []byte) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, v := range r.values {
		if bytes.Contains(b, []byte(v)) {
			return true
		}
	}
	return false
}

// Writer returns w with every write redacted. A write is redacted whole,
// so a secret split across two writes is not found: wrap writers that
// write whole records, like a logger's.
func (r *Registry) Writer(w io.Writer) io.Writer { return redactWriter{r: r, w: w} }

type redactWriter struct {
	r *Registry
	w io.Writer
}

// Write reports len(p) written when the redacted bytes were all written.
func (rw redactWriter) Write(p []byte) (int, error) {
	if _, err := rw.w.Write(rw.r.RedactBytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
