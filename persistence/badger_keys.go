package persistence

import "encoding/binary"

// Key layout. One byte of kind, the stream name, a NUL separator (stream
// names never contain control bytes), then a big-endian sequence number so
// that keys sort by sequence within a stream.
//
//	'e' stream 0x00 seq   event record
//	'h' stream            highest sequence number ever assigned (8 bytes)
//	's' stream 0x00 seq   snapshot record
//	'q' stream            quarantine record (JSON)
//	'x' stream 0x00 seq   a corrupt event record moved aside, kept for forensics
const (
	kindEvent      = 'e'
	kindHighest    = 'h'
	kindSnapshot   = 's'
	kindQuarantine = 'q'
	kindDropped    = 'x'
)

func streamPrefix(kind byte, stream string) []byte {
	k := make([]byte, 0, len(stream)+10)
	k = append(k, kind)
	k = append(k, stream...)
	return append(k, 0)
}

func seqKey(kind byte, stream string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(streamPrefix(kind, stream), seq)
}

func eventKey(stream string, seq uint64) []byte    { return seqKey(kindEvent, stream, seq) }
func snapshotKey(stream string, seq uint64) []byte { return seqKey(kindSnapshot, stream, seq) }
func droppedKey(stream string, seq uint64) []byte  { return seqKey(kindDropped, stream, seq) }

func highestKey(stream string) []byte    { return append([]byte{kindHighest}, stream...) }
func quarantineKey(stream string) []byte { return append([]byte{kindQuarantine}, stream...) }

// seqOf returns the sequence number at the end of a seqKey.
func seqOf(key []byte) uint64 {
	if len(key) < 8 {
		return 0
	}
	return binary.BigEndian.Uint64(key[len(key)-8:])
}

func encodeSeq(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }
