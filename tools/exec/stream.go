package exec

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/holon-actors/holon-actors/tools"
)

// spillAt is how much of one stream is kept in memory; beyond it the
// stream goes to its artifact file. Small outputs, the common case, never
// touch the disk.
const spillAt = 64 << 10

// stream captures one output stream of a process: in memory up to
// spillAt bytes, then in its artifact file. It is written by the copier
// goroutine of its Process and read by previews, concurrently.
type stream struct {
	arts *tools.ArtifactDir
	name string // artifact name of the file, created on spill

	mu     sync.Mutex
	mem    []byte
	file   *os.File // non-nil once spilled; closed by close
	size   int64
	err    error // the first error writing the file; later output is dropped
	closed bool  // the output ended; a later spill closes its file at once
	// direct: the command writes the file itself (a gated command); the
	// stream only reads it.
	direct bool
}

func newStream(arts *tools.ArtifactDir, name string) *stream {
	return &stream{arts: arts, name: name}
}

// fileStream is the stream of a file the command writes itself.
func fileStream(arts *tools.ArtifactDir, name string) *stream {
	return &stream{arts: arts, name: name, direct: true}
}

// Write appends p, spilling to the file when memory is full.
func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.size += int64(len(p))
	if s.file == nil && len(s.mem)+len(p) <= spillAt {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.err == nil && s.file == nil {
		s.err = s.spillLocked()
	}
	if s.err == nil {
		_, s.err = s.file.Write(p)
	}
	return len(p), nil // keep draining the pipe whatever happens to the file
}

// spill moves the stream to its file, which holds everything from then on.
func (s *stream) spill() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil || s.err != nil || s.direct {
		return s.err
	}
	s.err = s.spillLocked()
	return s.err
}

func (s *stream) spillLocked() error {
	f, err := s.arts.Create(s.name)
	if err != nil {
		return fmt.Errorf("spill output to %s: %w", s.name, err)
	}
	if _, err := f.Write(s.mem); err != nil {
		f.Close()
		return fmt.Errorf("spill output to %s: %w", s.name, err)
	}
	s.file, s.mem = f, nil
	if s.closed {
		if err := s.file.Close(); err != nil {
			return err
		}
		s.scrubLocked()
		return s.err
	}
	return nil
}

// sizeNow is how many bytes the stream has had so far.
func (s *stream) sizeNow() int64 {
	if s.direct {
		fi, err := os.Stat(s.arts.Path(s.name))
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// spilled reports whether the stream is in its file.
func (s *stream) spilled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.file != nil || s.direct
}

// preview is the head and tail of the stream so far within maxChars.
func (s *stream) preview(maxChars int) (Preview, error) {
	if s.direct {
		return ReadPreview(s.arts, s.name, maxChars)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return Preview{}, s.err
	}
	if s.file == nil {
		text, truncated := tools.HeadTail(string(s.mem), maxChars)
		return Preview{Text: text, Bytes: s.size, Truncated: truncated}, nil
	}
	f, err := os.Open(s.arts.Path(s.name))
	if err != nil {
		return Preview{}, fmt.Errorf("preview %s: %w", s.name, err)
	}
	defer f.Close()
	text, truncated, err := tools.HeadTailReader(f, s.size, maxChars)
	if err != nil {
		return Preview{}, fmt.Errorf("preview %s: %w", s.name, err)
	}
	return Preview{Text: text, Bytes: s.size, Truncated: truncated}, nil
}

// close closes the file; the stream stays readable.
func (s *stream) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.file != nil {
		_ = s.file.Close()
		s.scrubLocked()
	}
}

// scrubLocked removes the runtime's secrets from the finished file (see
// tools.ArtifactDir.Scrub); the in-memory part never reaches a file.
func (s *stream) scrubLocked() {
	if s.err != nil {
		return
	}
	if n, err := s.arts.Scrub(s.name); err != nil {
		s.err = err
	} else {
		s.size = n
	}
}

// discard removes the file of a stream whose output was shown whole.
func (s *stream) discard() {
	if s.spilled() {
		_ = s.arts.Remove(s.name)
	}
}

// copyBufs holds the copy buffers of finished streams for the next ones.
var copyBufs = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// copyInto copies r into s until r ends; r is closed after.
func copyInto(s *stream, r io.ReadCloser) {
	buf := copyBufs.Get().(*[64 << 10]byte)
	defer copyBufs.Put(buf)
	var w io.Writer = io.Discard // a gated command's holder pipe: read to its end
	if s != nil {
		w = s
	}
	_, _ = io.CopyBuffer(w, struct{ io.Reader }{r}, buf[:]) // hides WriteTo so buf is used; a PTY ends with EIO
	_ = r.Close()
}

// Preview is the head-and-tail preview of one output stream, with its
// size and whether it was truncated.
type Preview struct {
	Text      string
	Bytes     int64
	Truncated bool
}

// ReadPreview reads the head and tail of an output artifact written so
// far, within maxChars; a missing file is an empty preview. It is for a
// task whose Process is gone, such as after a restart.
func ReadPreview(artifacts *tools.ArtifactDir, name string, maxChars int) (Preview, error) {
	f, err := os.Open(artifacts.Path(name))
	if os.IsNotExist(err) {
		return Preview{}, nil
	}
	if err != nil {
		return Preview{}, fmt.Errorf("preview %s: %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Preview{}, fmt.Errorf("preview %s: %w", name, err)
	}
	text, truncated, err := tools.HeadTailReader(f, fi.Size(), maxChars)
	if err != nil {
		return Preview{}, fmt.Errorf("preview %s: %w", name, err)
	}
	return Preview{Text: strings.Clone(text), Bytes: fi.Size(), Truncated: truncated}, nil
}
