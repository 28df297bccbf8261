package agentstate

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sync"
)

// CutRunes returns the first n runes of s and whether that is all of s.
func CutRunes(s string, n int) (string, bool) {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], false
		}
		i++
	}
	return s, true
}

// Digest returns the first 24 hex digits of the SHA-256 of parts, each
// ended by a NUL byte, so ("ab", "c") and ("a", "bc") differ.
func Digest(parts ...string) string {
	d := digesters.Get().(*digester)
	defer digesters.Put(d)
	d.h.Reset()
	for _, p := range parts {
		d.write(p)
		d.buf[0] = 0
		d.h.Write(d.buf[:1])
	}
	var out [24]byte
	hex.Encode(out[:], d.h.Sum(d.sum[:0])[:12])
	return string(out[:]) // the only allocation
}

// digester is a SHA-256 and the buffer Digest passes the parts' bytes to
// it through: a string handed to a hash.Hash as []byte would be copied to
// the heap, part by part.
type digester struct {
	h   hash.Hash
	buf [256]byte
	sum [sha256.Size]byte
}

var digesters = sync.Pool{New: func() any { return &digester{h: sha256.New()} }}

// write hashes s, through d.buf.
func (d *digester) write(s string) {
	for len(s) > 0 {
		n := copy(d.buf[:], s)
		d.h.Write(d.buf[:n])
		s = s[n:]
	}
}

// truncate returns s cut to its first n bytes, with "…" appended when
// anything was cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
