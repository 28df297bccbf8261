package messages

import (
	"crypto/rand"
	"sync"
	"time"
)

// crockford is Crockford's base32 alphabet: sortable in ASCII, no I, L, O, U.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// idClock makes ids from one process strictly increasing: within one
// millisecond the 80 random bits are incremented instead of redrawn.
var idClock struct {
	mu   sync.Mutex
	ms   uint64
	rand [10]byte
}

// NewID returns prefix + "_" + a 26-character ULID-style id (48-bit
// millisecond time then 80 random bits, Crockford base32). Ids sort by
// creation time as plain strings, and ids from one process are strictly
// increasing. With an empty prefix the id has no underscore. Safe for
// concurrent use.
func NewID(prefix string) string {
	ms, r := nextIDBits(uint64(time.Now().UnixMilli()))
	if prefix == "" {
		return encodeID(ms, r)
	}
	// One allocation, the string: the digits go after the prefix in a
	// buffer that stays on the stack for the prefixes in use (evt, msg...).
	var buf [64]byte
	b := append(append(buf[:0], prefix...), '_')
	return string(appendID(b, ms, r))
}

func nextIDBits(ms uint64) (uint64, [10]byte) {
	idClock.mu.Lock()
	defer idClock.mu.Unlock()
	if ms <= idClock.ms {
		ms = idClock.ms // the wall clock stepped back or stood still: stay monotonic
		if !increment(&idClock.rand) {
			ms++ // 80 bits exhausted within a millisecond: borrow the next one
		}
	} else {
		rand.Read(idClock.rand[:]) // never fails (crypto/rand, Go 1.24+)
	}
	idClock.ms = ms
	return ms, idClock.rand
}

// increment adds one to the big-endian b and reports false on overflow.
func increment(b *[10]byte) bool {
	for i := len(b) - 1; i >= 0; i-- {
		b[i]++
		if b[i] != 0 {
			return true
		}
	}
	return false
}

// encodeID renders 48 bits of ms and 80 bits of r as 26 base32 digits.
func encodeID(ms uint64, r [10]byte) string {
	var buf [26]byte
	return string(appendID(buf[:0], ms, r))
}

// appendID appends encodeID(ms, r) to b.
func appendID(b []byte, ms uint64, r [10]byte) []byte {
	var out [26]byte
	for i := 9; i >= 0; i-- { // 10 digits x 5 bits = 50 bits, top 2 always 0
		out[i] = crockford[ms&31]
		ms >>= 5
	}
	hi := uint64(r[0])<<32 | uint64(r[1])<<24 | uint64(r[2])<<16 | uint64(r[3])<<8 | uint64(r[4])
	lo := uint64(r[5])<<32 | uint64(r[6])<<24 | uint64(r[7])<<16 | uint64(r[8])<<8 | uint64(r[9])
	for i := 17; i >= 10; i-- { // 8 digits per 40 bits
		out[i] = crockford[hi&31]
		hi >>= 5
	}
	for i := 25; i >= 18; i-- {
		out[i] = crockford[lo&31]
		lo >>= 5
	}
	return append(b, out[:]...)
}
