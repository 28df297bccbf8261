package persistence

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// An archive segment is one zstd stream (with its content checksum) of
// frames: seq (uvarint), record length (uvarint), the event's journal
// record exactly as it was stored (record.go: its own CRC, redacted). Its
// file is named "<from>-<to>.seg" with both seqs zero-padded to 20 digits,
// so names sort by range. Segments of one stream live in one directory,
// named by segmentDirName.
const (
	segmentExt = ".seg"
	segmentTmp = ".tmp"
	// segmentMagic opens every segment's decompressed contents.
	segmentMagic = "holon-archive-1\n"
)

// segmentRecord is one archived record.
type segmentRecord struct {
	seq    uint64
	record []byte
}

func segmentName(from, to uint64) string { return fmt.Sprintf("%020d-%020d%s", from, to, segmentExt) }

// parseSegmentName returns the range of a segment file name; ok is false
// for any other file.
func parseSegmentName(name string) (from, to uint64, ok bool) {
	base, found := strings.CutSuffix(name, segmentExt)
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(base, "-")
	if !found {
		return 0, 0, false
	}
	from, err1 := strconv.ParseUint(a, 10, 64)
	to, err2 := strconv.ParseUint(b, 10, 64)
	return from, to, err1 == nil && err2 == nil && from <= to && from > 0
}

// segmentDirName is a stream's archive directory name: bytes other than
// ASCII letters, digits, '_' and '-' are written %XX, so no stream name can
// climb out of the archive directory or collide with another.
func segmentDirName(stream string) string {
	var b strings.Builder
	for i := 0; i < len(stream); i++ {
		c := stream[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// writeSegment writes recs (ascending seqs within from..to) as dir's
// segment from..to: to a temporary file, synced, then renamed, and the
// directory synced, so the segment either exists whole or not at all.
func writeSegment(dir string, from, to uint64, recs []segmentRecord) (int64, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	final := filepath.Join(dir, segmentName(from, to))
	tmp := final + segmentTmp
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := encodeSegment(f, recs)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err == nil {
		err = syncPath(dir)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return 0, fmt.Errorf("write archive segment %s: %w", final, err)
	}
	return n, nil
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func encodeSegment(w io.Writer, recs []segmentRecord) (int64, error) {
	cw := &countingWriter{w: w}
	zw, err := zstd.NewWriter(cw, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(zw, 64<<10)
	_, _ = bw.WriteString(segmentMagic)
	var hdr [2 * binary.MaxVarintLen64]byte
	for _, r := range recs {
		n := binary.PutUvarint(hdr[:], r.seq)
		n += binary.PutUvarint(hdr[n:], uint64(len(r.record)))
		_, _ = bw.Write(hdr[:n])
		_, _ = bw.Write(r.record)
	}
	if err := bw.Flush(); err != nil {
		_ = zw.Close()
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return cw.n, nil
}

// readSegment decodes the segment file at path, whose name says it holds
// from..to, calling fn for each record in order. Any damage (a bad zstd
// stream or checksum, a frame out of order or out of range, a short read)
// is an error wrapping ErrArchiveDamaged and ErrCorrupt.
func readSegment(path string, from, to uint64, fn func(seq uint64, record []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read archive segment %s: %w", path, err)
	}
	defer f.Close()
	zr, err := zstd.NewReader(bufio.NewReaderSize(f, 64<<10), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		return fmt.Errorf("read archive segment %s: %w", path, err)
	}
	defer zr.Close()
	br := bufio.NewReaderSize(zr, 64<<10)
	damaged := func(what string, err error) error {
		return fmt.Errorf("%w: %w: %s: %s: %v", ErrCorrupt, ErrArchiveDamaged, path, what, err)
	}
	magic := make([]byte, len(segmentMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != segmentMagic {
		return damaged("no segment header", err)
	}
	prev := from - 1
	for {
		seq, err := binary.ReadUvarint(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return damaged("frame header", err)
		}
		n, err := binary.ReadUvarint(br)
		if err != nil || n > 1<<31 {
			return damaged(fmt.Sprintf("frame of seq %d", seq), err)
		}
		if seq <= prev || seq > to {
			return damaged(fmt.Sprintf("seq %d after %d in a segment of %d..%d", seq, prev, from, to), nil)
		}
		rec := make([]byte, n)
		if _, err := io.ReadFull(br, rec); err != nil {
			return damaged(fmt.Sprintf("record %d", seq), err)
		}
		if err := fn(seq, rec); err != nil {
			return err
		}
		prev = seq
	}
}

// listSegments returns dir's segments sorted by range (a missing directory
// has none).
func listSegments(dir string) ([]ArchiveSegment, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ArchiveSegment
	for _, e := range ents { // ReadDir sorts by name, so by range
		from, to, ok := parseSegmentName(e.Name())
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		out = append(out, ArchiveSegment{From: from, To: to, Bytes: info.Size(), Path: filepath.Join(dir, e.Name())})
	}
	return out, nil
}
