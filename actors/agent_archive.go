package actors

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// An agent archive is a gzipped tar of one agent and its private children,
// written by `agents export` and by `agents delete` (into the trash), and
// read back by `agents import`:
//
//	agents/<id>/events.jsonl    every event of the journal, one JSON object a line
//	agents/<id>/snapshot.json   its newest snapshot, if any
//	agents/<id>/artifacts/…     its artifact files
//	manifest.json               last: format, agents, and every file's size and SHA-256
const (
	archiveFormat   = "holon-actors/agent-archive"
	archiveVersion  = 1
	archiveManifest = "manifest.json"
)

// ErrBadArchive is wrapped by the errors of an import whose archive is not
// a whole, unchanged agent archive.
var ErrBadArchive = errors.New("not a valid agent archive")

// archiveManifestDoc is manifest.json.
type archiveManifestDoc struct {
	Format     string         `json:"format"`
	Version    int            `json:"version"`
	AgentID    string         `json:"agent_id"`
	CreatedAt  time.Time      `json:"created_at"`
	Agents     []archiveAgent `json:"agents"`
	Files      []archiveFile  `json:"files"`
	Deleted    bool           `json:"deleted,omitempty"` // written by a delete, into the trash
	SourceHome string         `json:"source_home,omitempty"`
}

// archiveAgent is one agent of an archive.
type archiveAgent struct {
	AgentID       string `json:"agent_id"`
	ParentAgentID string `json:"parent_agent_id,omitempty"`
	HighestSeq    uint64 `json:"highest_seq"`
	Events        int    `json:"events"`
	SnapshotSeq   uint64 `json:"snapshot_seq,omitempty"`
	Artifacts     int    `json:"artifacts"`
}

// archiveFile is one file's checksum.
type archiveFile struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// archiveSnapshot is snapshot.json.
type archiveSnapshot struct {
	Seq       uint64    `json:"seq"`
	Timestamp time.Time `json:"timestamp"`
	Data      []byte    `json:"data"`
}

// archiveWriter writes an archive, recording each file's checksum.
type archiveWriter struct {
	gz    *gzip.Writer
	tw    *tar.Writer
	files []archiveFile
	now   time.Time
}

func newArchiveWriter(w io.Writer, now time.Time) *archiveWriter {
	gz := gzip.NewWriter(w)
	return &archiveWriter{gz: gz, tw: tar.NewWriter(gz), now: now}
}

// add writes one file from r, of size bytes.
func (a *archiveWriter) add(name string, size int64, r io.Reader) error {
	hdr := &tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: a.now, Typeflag: tar.TypeReg}
	if err := a.tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	h := sha256.New()
	n, err := io.Copy(a.tw, io.TeeReader(io.LimitReader(r, size), h))
	if err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	if n != size {
		return fmt.Errorf("archive %s: %d of %d bytes read", name, n, size)
	}
	a.files = append(a.files, archiveFile{Path: name, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// addBytes writes one file holding b.
func (a *archiveWriter) addBytes(name string, b []byte) error {
	return a.add(name, int64(len(b)), bytes.NewReader(b))
}

// close writes the manifest and closes the streams.
func (a *archiveWriter) close(m archiveManifestDoc) error {
	m.Format, m.Version, m.Files = archiveFormat, archiveVersion, a.files
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := a.addBytes(archiveManifest, b); err != nil {
		return err
	}
	if err := a.tw.Close(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return a.gz.Close()
}

// writeArchive writes the archive of family (the root first) to w: each
// journal up to its highest event now, the newest snapshot at or below it
// and the artifact files.
func (r *Runtime) writeArchive(ctx context.Context, w io.Writer, family []familyMember, deleted bool) error {
	aw := newArchiveWriter(w, r.deps.Clock.Now())
	m := archiveManifestDoc{AgentID: family[0].id, CreatedAt: r.deps.Clock.Now().UTC(), Deleted: deleted, SourceHome: r.deps.ToolEnv.Home}
	for _, f := range family {
		ag, err := r.archiveAgent(ctx, aw, f)
		if err != nil {
			return err
		}
		m.Agents = append(m.Agents, ag)
	}
	return aw.close(m)
}

// archiveAgent writes one agent's journal, snapshot and artifacts.
func (r *Runtime) archiveAgent(ctx context.Context, aw *archiveWriter, f familyMember) (archiveAgent, error) {
	ag := archiveAgent{AgentID: f.id, ParentAgentID: f.parent}
	high, err := r.deps.Store.HighestSeq(ctx, f.id)
	if err != nil {
		return ag, fmt.Errorf("archive agent %s: %w", f.id, err)
	}
	ag.HighestSeq = high
	var buf bytes.Buffer
	for from := uint64(1); from <= high; {
		evs, err := r.deps.Store.ReadPage(ctx, f.id, from, high, 1000, 4<<20)
		if err != nil {
			return ag, fmt.Errorf("archive agent %s: %w", f.id, err)
		}
		if len(evs) == 0 {
			break
		}
		for _, ev := range evs {
			b, err := json.Marshal(ev)
			if err != nil {
				return ag, fmt.Errorf("archive agent %s event %d: %w", f.id, ev.Seq, err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
			ag.Events++
		}
		from = evs[len(evs)-1].Seq + 1
	}
	dir := "agents/" + f.id + "/"
	if err := aw.addBytes(dir+"events.jsonl", buf.Bytes()); err != nil {
		return ag, err
	}
	snap, ok, err := r.deps.Store.LoadSnapshot(ctx, f.id, persistence.AtOrBelow(high))
	if err != nil {
		return ag, fmt.Errorf("archive agent %s snapshot: %w", f.id, err)
	}
	if ok {
		b, err := json.Marshal(archiveSnapshot{Seq: snap.Seq, Timestamp: snap.Timestamp, Data: snap.Data})
		if err != nil {
			return ag, err
		}
		if err := aw.addBytes(dir+"snapshot.json", b); err != nil {
			return ag, err
		}
		ag.SnapshotSeq = snap.Seq
	}
	ag.Artifacts, err = archiveArtifacts(aw, r.artifactsDir(f.id), dir+"artifacts/")
	return ag, err
}

// artifactsDir is agent id's artifacts directory ("" without a home).
func (r *Runtime) artifactsDir(id string) string {
	if r.deps.ToolEnv.Home == "" {
		return ""
	}
	home, err := persistence.AgentHome(r.deps.ToolEnv.Home, id)
	if err != nil {
		return ""
	}
	return persistence.ArtifactsDir(home)
}

// archiveArtifacts writes the regular files under dir (none when it does
// not exist), skipping files being written (persistence.Artifacts writes
// NAME.tmp-RANDOM, and refuses that element in an artifact's name).
func archiveArtifacts(aw *archiveWriter, dir, prefix string) (int, error) {
	if dir == "" {
		return 0, nil
	}
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && p == dir:
			return fs.SkipAll
		case err != nil:
			return err
		case d.Type().IsRegular() && !strings.Contains(d.Name(), ".tmp-"):
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("archive artifacts in %s: %w", dir, err)
	}
	sort.Strings(names)
	for _, p := range names {
		rel, _ := filepath.Rel(dir, p)
		if err := archiveFileAt(aw, p, prefix+filepath.ToSlash(rel)); err != nil {
			return 0, err
		}
	}
	return len(names), nil
}

func archiveFileAt(aw *archiveWriter, p, name string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("archive %s: %w", p, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("archive %s: %w", p, err)
	}
	return aw.add(name, st.Size(), f)
}

// tarBlock is the size of a tar header block: what an entry costs beyond
// its name and content, counted against an import's bound so that a
// stream of empty entries with long names cannot grow without one.
const tarBlock = 512

// readArchive reads and checks a whole archive: every file the manifest
// lists, with its size and checksum, and nothing else; at most maxBytes
// uncompressed. Its errors wrap ErrBadArchive.
func readArchive(rd io.Reader, maxBytes int64) (archiveManifestDoc, map[string][]byte, error) {
	var m archiveManifestDoc
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadArchive, fmt.Sprintf(format, args...))
	}
	gz, err := gzip.NewReader(bufio.NewReader(rd))
	if err != nil {
		return m, nil, bad("not gzip-compressed (%v)", err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(gz)
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, nil, bad("the tar stream is damaged or cut short (%v)", err)
		}
		name := hdr.Name
		if hdr.Typeflag != tar.TypeReg || name != path.Clean(name) || path.IsAbs(name) || strings.HasPrefix(name, "..") || files[name] != nil {
			return m, nil, bad("unexpected entry %q", name)
		}
		if total += hdr.Size + int64(len(name)) + tarBlock; total > maxBytes { // names and headers are held too
			return m, nil, bad("larger than %d MiB uncompressed", maxBytes>>20)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return m, nil, bad("entry %s is damaged or cut short (%v)", name, err)
		}
		files[name] = b
	}
	raw, ok := files[archiveManifest]
	if !ok {
		return m, nil, bad("no %s", archiveManifest)
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Format != archiveFormat {
		return m, nil, bad("%s is not an agent archive manifest", archiveManifest)
	}
	if m.Version != archiveVersion {
		return m, nil, bad("archive version %d; this runtime reads version %d", m.Version, archiveVersion)
	}
	delete(files, archiveManifest)
	if len(m.Files) != len(files) {
		return m, nil, bad("the manifest lists %d files, the archive holds %d", len(m.Files), len(files))
	}
	for _, f := range m.Files {
		b, ok := files[f.Path]
		sum := sha256.Sum256(b)
		switch {
		case !ok:
			return m, nil, bad("%s is missing", f.Path)
		case int64(len(b)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256:
			return m, nil, bad("%s does not match its checksum: the archive was changed or damaged", f.Path)
		}
	}
	return m, files, nil
}

// decodeArchivedEvents decodes agent id's events.jsonl and checks that it
// is a whole journal of id: valid events numbered 1 to high.
func decodeArchivedEvents(id string, b []byte, high uint64) ([]messages.Event, error) {
	var evs []messages.Event
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), len(b)+1)
	for sc.Scan() {
		var ev messages.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return nil, fmt.Errorf("%w: agent %s event %d: %v", ErrBadArchive, id, len(evs)+1, err)
		}
		if err := ev.Validate(); err != nil {
			return nil, fmt.Errorf("%w: agent %s event %d is not a valid event (%v)", ErrBadArchive, id, len(evs)+1, err)
		}
		if ev.AgentID != id {
			return nil, fmt.Errorf("%w: agent %s event %d is an event of agent %q", ErrBadArchive, id, len(evs)+1, ev.AgentID)
		}
		if ev.Seq != uint64(len(evs))+1 {
			return nil, fmt.Errorf("%w: agent %s: event %d has event_seq %d: its journal has a gap (records dropped by a repair), which an import cannot rebuild",
				ErrBadArchive, id, len(evs)+1, ev.Seq)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: agent %s events: %v", ErrBadArchive, id, err)
	}
	if uint64(len(evs)) != high {
		return nil, fmt.Errorf("%w: agent %s holds %d events, its manifest says %d", ErrBadArchive, id, len(evs), high)
	}
	return evs, nil
}
