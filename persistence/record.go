package persistence

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Record layout, version 1 (both journal events and snapshots):
//
//	[0]     format version (recordV1)
//	[1:5]   CRC-32C (Castagnoli) of bytes [5:]
//	[5:13]  sequence number, big endian (must equal the key's)
//	event:    [13:] event body (see encodeEventBody)
//	snapshot: [13:21] timestamp, Unix seconds; [21:25] its nanoseconds;
//	          [25:] snapshot data
//
// The checksum and the embedded sequence number let us detect corruption
// whatever the storage engine does (see research §2.5).
const (
	recordV1        = 0x01
	recordHeaderLen = 13
	snapshotTimeLen = 12
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrUnsupportedRecord is wrapped when a record is intact but written by a
// newer build (unknown format, event type or version). Such records are never
// dropped as corruption.
var ErrUnsupportedRecord = errors.New("persistence: record from a newer format")

// encodeEventBody validates ev and returns its record body; sealRecord later
// adds the header.
//
// Event body layout (record format 1), no JSON parsing needed to read it:
//
//	uvarint len, id | uvarint len, agent_id | uvarint len, type
//	uvarint version | varint at seconds | uvarint at nanoseconds (UTC)
//	the payload JSON, to the end
func encodeEventBody(stream string, ev messages.Event) ([]byte, error) {
	rec, err := encodeEventRecord(stream, ev)
	if err != nil {
		return nil, err
	}
	return rec[recordHeaderLen:], nil
}

// encodeEventRecord validates ev and returns its record with the header
// left blank, for sealRecordInPlace to fill once the seq is known: one
// allocation and one copy of the payload per event. Encoding apart from
// sealing lets callers pay for it in their own goroutine while the single
// writer only seals.
func encodeEventRecord(stream string, ev messages.Event) ([]byte, error) {
	if err := checkEvent(stream, ev); err != nil {
		return nil, err
	}
	return appendEventRecord(make([]byte, 0, maxRecordLen(ev)), ev), nil
}

// checkEvent reports why ev cannot be appended to stream.
func checkEvent(stream string, ev messages.Event) error {
	if ev.AgentID != stream {
		return fmt.Errorf("%w: event %s: agent_id %q does not match stream %q", messages.ErrInvalidEvent, ev.ID, ev.AgentID, stream)
	}
	ev.Seq = 0
	return ev.Validate()
}

// maxRecordLen bounds the length of ev's record.
func maxRecordLen(ev messages.Event) int {
	return recordHeaderLen + 3*binary.MaxVarintLen64 + len(ev.ID) + len(ev.AgentID) + len(ev.Type) + 24 + len(ev.Payload)
}

// appendEventRecord appends ev's record, its header blank, to b.
func appendEventRecord(b []byte, ev messages.Event) []byte {
	b = append(b, make([]byte, recordHeaderLen)...)
	b = appendString(b, ev.ID)
	b = appendString(b, ev.AgentID)
	b = appendString(b, string(ev.Type))
	b = binary.AppendUvarint(b, uint64(ev.Version))
	b = binary.AppendVarint(b, ev.At.Unix())
	b = binary.AppendUvarint(b, uint64(ev.At.Nanosecond()))
	return append(b, ev.Payload...)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// sealRecord returns header(seq) + body with the checksum filled in.
func sealRecord(seq uint64, body []byte) []byte {
	rec := make([]byte, recordHeaderLen+len(body))
	copy(rec[recordHeaderLen:], body)
	return sealRecordInPlace(seq, rec)
}

// sealRecordInPlace fills the header of rec, a record whose body follows
// recordHeaderLen bytes, for seq and returns rec. Sealing again for
// another seq rewrites the header: only while no write holds rec.
func sealRecordInPlace(seq uint64, rec []byte) []byte {
	rec[0] = recordV1
	binary.BigEndian.PutUint64(rec[5:13], seq)
	binary.BigEndian.PutUint32(rec[1:5], crc32.Checksum(rec[5:], castagnoli))
	return rec
}

// openRecord checks a record's format, checksum and sequence number and
// returns its body (what follows the header).
func openRecord(rec []byte, wantSeq uint64) ([]byte, error) {
	if len(rec) < recordHeaderLen {
		return nil, fmt.Errorf("%w: %d bytes is shorter than the header", ErrCorrupt, len(rec))
	}
	if rec[0] != recordV1 {
		if rec[0] > recordV1 && rec[0] < 0x10 {
			return nil, fmt.Errorf("%w: format %d", ErrUnsupportedRecord, rec[0])
		}
		return nil, fmt.Errorf("%w: unknown format byte 0x%02x", ErrCorrupt, rec[0])
	}
	if got, want := crc32.Checksum(rec[5:], castagnoli), binary.BigEndian.Uint32(rec[1:5]); got != want {
		return nil, fmt.Errorf("%w: checksum 0x%08x, want 0x%08x", ErrCorrupt, got, want)
	}
	if seq := binary.BigEndian.Uint64(rec[5:13]); seq != wantSeq {
		return nil, fmt.Errorf("%w: record holds seq %d under key seq %d", ErrCorrupt, seq, wantSeq)
	}
	return rec[recordHeaderLen:], nil
}

// DecodeRecord decodes one journal record stored under seq. Errors wrap
// ErrCorrupt (damaged bytes) or ErrUnsupportedRecord (intact, but written by
// a newer build). The returned event shares no memory with rec.
func DecodeRecord(rec []byte, seq uint64) (messages.Event, error) {
	return decodeRecord(rec, seq, "")
}

// decodeRecord is DecodeRecord of a record read from stream: an agent id
// equal to stream, as every event of a stream has, is stream's string and
// a known event type the registry's, not new copies of them, so reading an
// event allocates its id and its payload only.
func decodeRecord(rec []byte, seq uint64, stream string) (messages.Event, error) {
	body, err := openRecord(rec, seq)
	if err != nil {
		return messages.Event{}, err
	}
	d := bodyDecoder{b: body}
	ev := messages.Event{Seq: seq, ID: d.str()}
	if b := d.field(); string(b) == stream {
		ev.AgentID = stream
	} else {
		ev.AgentID = string(b)
	}
	typ := d.field()
	t, ok := knownTypes[string(typ)]
	if !ok {
		t = messages.EventType(typ)
	}
	ev.Type = t
	version := d.uvarint()
	secs, nanos := d.varint(), d.uvarint()
	if d.err != nil {
		return messages.Event{}, fmt.Errorf("%w: event body: %v", ErrCorrupt, d.err)
	}
	if version > math.MaxUint32 || nanos >= 1e9 || ev.ID == "" || ev.AgentID == "" || len(d.b) == 0 {
		return messages.Event{}, fmt.Errorf("%w: event body fields out of range", ErrCorrupt)
	}
	ev.Version = uint32(version)
	if !ev.Type.Supports(ev.Version) {
		return messages.Event{}, fmt.Errorf("%w: event type %q version %d", ErrUnsupportedRecord, ev.Type, ev.Version)
	}
	ev.At = time.Unix(secs, int64(nanos)).UTC()
	ev.Payload = json.RawMessage(bytes.Clone(d.b))
	return ev, nil
}

// bodyDecoder reads the event body's fields; the first error sticks.
type bodyDecoder struct {
	b   []byte
	err error
}

func (d *bodyDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errors.New("bad uvarint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *bodyDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errors.New("bad varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *bodyDecoder) str() string { return string(d.field()) }

// field returns the bytes of the next length-prefixed field, shared with
// the body.
func (d *bodyDecoder) field() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = fmt.Errorf("string of %d bytes overruns the body", n)
		return nil
	}
	f := d.b[:n:n]
	d.b = d.b[n:]
	return f
}

// knownTypes maps each event type's name to the registry's string of it.
var knownTypes = func() map[string]messages.EventType {
	m := map[string]messages.EventType{}
	for _, t := range messages.EventTypes() {
		m[string(t)] = t
	}
	return m
}()

func encodeSnapshot(s Snapshot) []byte {
	rec := make([]byte, recordHeaderLen+snapshotTimeLen+len(s.Data))
	body := rec[recordHeaderLen:]
	binary.BigEndian.PutUint64(body[:8], uint64(s.Timestamp.Unix()))
	binary.BigEndian.PutUint32(body[8:12], uint32(s.Timestamp.Nanosecond()))
	copy(body[snapshotTimeLen:], s.Data)
	return sealRecordInPlace(s.Seq, rec)
}

func decodeSnapshot(stream string, seq uint64, rec []byte) (Snapshot, error) {
	body, err := openRecord(rec, seq)
	if err != nil {
		return Snapshot{}, err
	}
	if len(body) < snapshotTimeLen {
		return Snapshot{}, fmt.Errorf("%w: snapshot without timestamp", ErrCorrupt)
	}
	nanos := binary.BigEndian.Uint32(body[8:12])
	if nanos >= 1e9 {
		return Snapshot{}, fmt.Errorf("%w: snapshot timestamp nanoseconds %d", ErrCorrupt, nanos)
	}
	ts := time.Unix(int64(binary.BigEndian.Uint64(body[:8])), int64(nanos)).UTC()
	return Snapshot{Stream: stream, Seq: seq, Timestamp: ts, Data: bytes.Clone(body[snapshotTimeLen:])}, nil
}
