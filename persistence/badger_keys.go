package persistence

import "encoding/binary"

// Key layout. Per-stream records are grouped by stream first, so a stream's
// newest events and its snapshots sit in neighbouring blocks and recovery
// (latest snapshot + tail) touches one small key range per stream. Stream
// names never contain control bytes, so a NUL ends them unambiguously;
// sequence numbers are big-endian so keys sort by seq.
//
//	'r' stream 0x00 'e' seq   event record
//	'r' stream 0x00 's' seq   snapshot record
//	'r' stream 0x00 'x' seq   a corrupt event record moved aside, for forensics
//	'h' stream                highest sequence number ever assigned (8 bytes);
//	                          also the list of streams
//	'q' stream                quarantine record (JSON)
//	'l' stream                highest seq deleted by retention (8 bytes):
//	                          events at or below it are missing by design
//	'v' stream                the stream's header (stream_header.go): a
//	                          cache the writer publishes, checked by seq
const (
	kindEvent      = 'e'
	kindSnapshot   = 's'
	kindDropped    = 'x'
	kindHighest    = 'h'
	kindQuarantine = 'q'
	kindLow        = 'l'
	kindHeader     = 'v'

	streamRecords = 'r'
)

// streamPrefix is the prefix of every key of one kind in one stream.
func streamPrefix(kind byte, stream string) []byte {
	return appendStreamPrefix(make([]byte, 0, seqKeyLen(stream)), kind, stream)
}

func appendStreamPrefix(b []byte, kind byte, stream string) []byte {
	b = append(b, streamRecords)
	b = append(b, stream...)
	return append(b, 0, kind)
}

// seqKeyLen is the length of stream's seqKeys.
func seqKeyLen(stream string) int { return len(stream) + 11 }

func seqKey(kind byte, stream string, seq uint64) []byte {
	return appendSeqKey(make([]byte, 0, seqKeyLen(stream)), kind, stream, seq)
}

func appendSeqKey(b []byte, kind byte, stream string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(appendStreamPrefix(b, kind, stream), seq)
}

func eventKey(stream string, seq uint64) []byte    { return seqKey(kindEvent, stream, seq) }
func snapshotKey(stream string, seq uint64) []byte { return seqKey(kindSnapshot, stream, seq) }
func droppedKey(stream string, seq uint64) []byte  { return seqKey(kindDropped, stream, seq) }

func highestKey(stream string) []byte {
	return appendHighestKey(make([]byte, 0, 1+len(stream)), stream)
}
func quarantineKey(stream string) []byte { return append([]byte{kindQuarantine}, stream...) }
func lowKey(stream string) []byte        { return append([]byte{kindLow}, stream...) }

func appendHighestKey(b []byte, stream string) []byte {
	return append(append(b, kindHighest), stream...)
}

// seqOf returns the sequence number at the end of a seqKey.
func seqOf(key []byte) uint64 {
	if len(key) < 8 {
		return 0
	}
	return binary.BigEndian.Uint64(key[len(key)-8:])
}

func encodeSeq(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }
