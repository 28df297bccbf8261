package persistence

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
)

// TornWAL is a tail of one of the engine's write-ahead log files that was
// not a whole transaction: the engine drops it when it opens, silently.
// After a crash it is normally a write that was cut and never acknowledged;
// it may also be damage to the file.
type TornWAL struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Bytes  int64  `json:"bytes"`
}

// The engine's WAL (.mem) format, as Badger v4 writes it without
// encryption: a 20-byte file header (key id, IV), then entries of a
// header (meta, user meta, uvarint key length, value length, expiry), the
// key (ending in the 8-byte commit timestamp), the value and a CRC-32C of
// all three. Entries of a transaction carry walTxn; a walFinTxn entry,
// whose value is the commit timestamp in decimal, ends it. The file is
// preallocated and zero-filled: a zero key length ends the log.
const (
	walFileHeader = 20
	walTxn        = 1 << 6
	walFinTxn     = 1 << 7
)

// findTornWAL reads every WAL file of dir, before the engine opens them,
// and reports those with bytes other than zeros after their last whole
// transaction.
func findTornWAL(dir string) ([]TornWAL, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.mem"))
	if err != nil {
		return nil, err
	}
	var out []TornWAL
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read WAL %s: %w", filepath.Base(name), err)
		}
		end := walValidEnd(b)
		if n := nonZeroTail(b[end:]); n > 0 {
			out = append(out, TornWAL{File: filepath.Base(name), Offset: int64(end), Bytes: int64(n)})
		}
	}
	return out, nil
}

// walValidEnd is the offset after the last whole transaction in b, where
// the engine's replay stops and truncates.
func walValidEnd(b []byte) int {
	if len(b) < walFileHeader {
		return len(b)
	}
	off, valid := walFileHeader, walFileHeader
	var txnTs uint64
	for {
		meta, key, value, n, ok := walEntry(b[off:])
		if !ok || len(key) == 0 {
			return valid
		}
		off += n
		switch {
		case meta&walTxn != 0:
			ts := walTs(key)
			if txnTs != 0 && ts != txnTs {
				return valid
			}
			txnTs = ts
		case meta&walFinTxn != 0:
			ts, err := strconv.ParseUint(string(value), 10, 64)
			if err != nil || ts != txnTs {
				return valid
			}
			txnTs, valid = 0, off
		default:
			if txnTs != 0 {
				return valid
			}
			valid = off
		}
	}
}

// walEntry decodes the entry at the start of b and its length.
func walEntry(b []byte) (meta byte, key, value []byte, n int, ok bool) {
	if len(b) < 2 {
		return 0, nil, nil, 0, false
	}
	meta, n = b[0], 2
	var lens [3]uint64
	for i := range lens {
		v, c := binary.Uvarint(b[n:])
		if c <= 0 {
			return 0, nil, nil, 0, false
		}
		lens[i], n = v, n+c
	}
	klen, vlen := lens[0], lens[1]
	if klen > 1<<16 || vlen > uint64(len(b)) || uint64(n)+klen+vlen+4 > uint64(len(b)) {
		return 0, nil, nil, 0, false
	}
	end := n + int(klen) + int(vlen)
	if crc32.Checksum(b[:end], castagnoli) != binary.BigEndian.Uint32(b[end:end+4]) {
		return 0, nil, nil, 0, false
	}
	return meta, b[n : n+int(klen)], b[n+int(klen) : end], end + 4, true
}

// walTs is the commit timestamp at the end of an engine key.
func walTs(key []byte) uint64 {
	if len(key) < 8 {
		return 0
	}
	return ^binary.BigEndian.Uint64(key[len(key)-8:])
}

// nonZeroTail is the length of b up to its last non-zero byte.
func nonZeroTail(b []byte) int {
	return len(bytes.TrimRight(b, "\x00"))
}
