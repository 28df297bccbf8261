package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// DefaultMaxArchiveBytes bounds an imported archive, uncompressed.
const DefaultMaxArchiveBytes = 512 << 20

// importBatch is how many events one append of an import writes.
const importBatch = 500

// ImportResult is what an import restored.
type ImportResult struct {
	AgentID string `json:"agent_id"`
	// Agents lists the agent and its private children.
	Agents    []string `json:"agents"`
	Events    int      `json:"events"`
	Artifacts int      `json:"artifacts"`
}

// Export writes the agent archive of id and its private children to w:
// their journals up to now, newest snapshots and artifacts. A private
// child is exported with its parent.
func (r *Runtime) Export(ctx context.Context, id string, w io.Writer) error {
	fam, err := r.exportable(ctx, id)
	if err != nil {
		return err
	}
	return r.writeArchive(ctx, w, fam, false)
}

// CheckExport reports why id cannot be exported, if it cannot: what
// Export refuses before writing anything.
func (r *Runtime) CheckExport(ctx context.Context, id string) error {
	_, err := r.exportable(ctx, id)
	return err
}

func (r *Runtime) exportable(ctx context.Context, id string) ([]familyMember, error) {
	ok, err := r.Exists(ctx, id)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("agent %s: %w", id, ErrNoAgent)
	}
	if q, bad := r.storeQuarantine(id); bad {
		return nil, quarantinedErr(q)
	}
	if p := r.parentOf(id); p != "" {
		return nil, fmt.Errorf("agent %s: %w: it is a private child of %s; export %s", id, ErrNotDeletable, p, p)
	}
	return r.family(ctx, id)
}

// importedAgent is one checked agent of an archive, ready to write.
type importedAgent struct {
	archiveAgent
	events    []messages.Event
	snapshot  *archiveSnapshot
	artifacts map[string][]byte // path under its artifacts directory
}

// Import restores the agents of an archive read from rd (at most
// maxBytes uncompressed): it checks the whole archive (format, every
// file's checksum, each journal whole) and that none of its agent ids is
// in use here, then writes the journals, snapshots and artifacts and
// recovers the agents, which go on with whatever they had open. A refused
// archive changes nothing; errors about the archive wrap ErrBadArchive,
// an id in use ErrAgentExists.
func (r *Runtime) Import(ctx context.Context, rd io.Reader, maxBytes int64) (ImportResult, error) {
	m, files, err := readArchive(rd, maxBytes)
	if err != nil {
		return ImportResult{}, err
	}
	agents, err := checkArchive(m, files)
	if err != nil {
		return ImportResult{}, err
	}
	for _, a := range agents {
		if err := r.importable(ctx, a.AgentID); err != nil {
			return ImportResult{}, err
		}
	}
	ids := make([]string, len(agents))
	for i, a := range agents {
		ids[i] = a.AgentID
	}
	if err := r.beginImport(m.AgentID, ids); err != nil {
		return ImportResult{}, err
	}
	res := ImportResult{AgentID: m.AgentID}
	var written []string
	for _, a := range agents {
		err := r.restore(ctx, a)
		if !errors.Is(err, ErrAgentExists) {
			written = append(written, a.AgentID) // some of it may be written
		}
		if err != nil {
			return ImportResult{}, r.failImport(ctx, m.AgentID, ids, written, err)
		}
		res.Agents = append(res.Agents, a.AgentID)
		res.Events += len(a.events)
		res.Artifacts += len(a.artifacts)
	}
	if err := r.endImport(m.AgentID, ids); err != nil {
		return ImportResult{}, r.failImport(ctx, m.AgentID, ids, written, err)
	}
	if _, err := r.ask(ctx, m.AgentID, &GetRecovery{}); err != nil {
		err = fmt.Errorf("imported agent %s does not recover: %w", m.AgentID, err)
		return ImportResult{}, r.failImport(ctx, m.AgentID, ids, written, err)
	}
	return res, nil
}

// failImport removes what the failed import wrote and says so in err.
func (r *Runtime) failImport(ctx context.Context, root string, ids, written []string, err error) error {
	if len(written) == 0 {
		_ = r.endImport(root, ids)
		return err
	}
	if left := r.abandonImport(ctx, root, ids, written); left != "" {
		return fmt.Errorf("%w; what it wrote of %s could not all be removed (the next start tries again): %s", err, strings.Join(written, ", "), left)
	}
	return fmt.Errorf("%w; what it wrote of %s was removed, and these ids are not reused here: import the archive on another runtime", err, strings.Join(written, ", "))
}

// checkArchive checks an archive's agents: ids, journals, snapshots and
// that every file belongs to one of them.
func checkArchive(m archiveManifestDoc, files map[string][]byte) ([]importedAgent, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadArchive, fmt.Sprintf(format, args...))
	}
	if len(m.Agents) == 0 || m.Agents[0].AgentID != m.AgentID || m.Agents[0].ParentAgentID != "" {
		return nil, bad("its manifest names no root agent")
	}
	seen := map[string]bool{}
	used := 0
	var out []importedAgent
	for _, a := range m.Agents {
		if err := ValidateAgentID(a.AgentID); err != nil || seen[a.AgentID] {
			return nil, bad("agent id %q is not valid or repeated", a.AgentID)
		}
		if a.ParentAgentID != "" && !seen[a.ParentAgentID] {
			return nil, bad("agent %s's parent %s is not in it", a.AgentID, a.ParentAgentID)
		}
		seen[a.AgentID] = true
		dir := "agents/" + a.AgentID + "/"
		ia := importedAgent{archiveAgent: a, artifacts: map[string][]byte{}}
		raw, ok := files[dir+"events.jsonl"]
		if !ok {
			return nil, bad("agent %s has no events", a.AgentID)
		}
		var err error
		if ia.events, err = decodeArchivedEvents(a.AgentID, raw, a.HighestSeq); err != nil {
			return nil, err
		}
		used++
		if raw, ok := files[dir+"snapshot.json"]; ok {
			var s archiveSnapshot
			if err := json.Unmarshal(raw, &s); err != nil || s.Seq == 0 || s.Seq > a.HighestSeq {
				return nil, bad("agent %s's snapshot is not valid", a.AgentID)
			}
			ia.snapshot = &s
			used++
		}
		for name, b := range files {
			if rel, ok := strings.CutPrefix(name, dir+"artifacts/"); ok {
				ia.artifacts[rel] = b
				used++
			}
		}
		if rel := artifactUnderFile(ia.artifacts); rel != "" {
			return nil, bad("agent %s's artifact %s lies under another artifact file", a.AgentID, rel)
		}
		out = append(out, ia)
	}
	if used != len(files) {
		return nil, bad("it holds files of no agent it lists")
	}
	return out, nil
}

// artifactUnderFile returns an artifact whose path runs through another
// artifact file (a and a/b), which no file system can hold: "" when none.
func artifactUnderFile(artifacts map[string][]byte) string {
	for rel := range artifacts {
		for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
			if _, ok := artifacts[d]; ok {
				return rel
			}
		}
	}
	return ""
}

// importable refuses an id in use here, or used before.
func (r *Runtime) importable(ctx context.Context, id string) error {
	if r.deleted.has(ctx, r, id) {
		return fmt.Errorf("agent %s: %w: it was deleted here, and ids are not reused (import it on another runtime)", id, ErrAgentExists)
	}
	high, err := r.deps.Store.HighestSeq(ctx, id)
	switch {
	case err != nil:
		return fmt.Errorf("import agent %s: %w", id, err)
	case high > 0 || r.isActive(id):
		return fmt.Errorf("agent %s: %w here: delete it first, or import on another runtime", id, ErrAgentExists)
	}
	return nil
}

// restore writes one agent: its journal (fenced at 0, so a concurrent
// create of the same id makes the import fail rather than mix), its
// snapshot and its artifacts.
func (r *Runtime) restore(ctx context.Context, a importedAgent) error {
	var after uint64
	for i := 0; i < len(a.events); i += importBatch {
		batch := a.events[i:min(i+importBatch, len(a.events))]
		first, err := r.deps.Store.AppendAfter(ctx, a.AgentID, after, batch)
		if err != nil {
			if errors.Is(err, persistence.ErrSeqConflict) && after == 0 {
				return fmt.Errorf("agent %s: %w here: it was created during the import", a.AgentID, ErrAgentExists)
			}
			return fmt.Errorf("import agent %s events: %w", a.AgentID, err)
		}
		if first != after+1 {
			return fmt.Errorf("import agent %s: events written from %d, want %d", a.AgentID, first, after+1)
		}
		after += uint64(len(batch))
	}
	if s := a.snapshot; s != nil {
		if err := r.deps.Store.SaveSnapshot(ctx, persistence.Snapshot{Stream: a.AgentID, Seq: s.Seq, Timestamp: s.Timestamp, Data: s.Data}); err != nil {
			return fmt.Errorf("import agent %s snapshot: %w", a.AgentID, err)
		}
	}
	return r.restoreArtifacts(a)
}

// restoreArtifacts writes the agent's artifact files.
func (r *Runtime) restoreArtifacts(a importedAgent) error {
	dir := r.artifactsDir(a.AgentID)
	if dir == "" || len(a.artifacts) == 0 {
		return nil
	}
	root, err := os.OpenRoot(mustMkdir(dir))
	if err != nil {
		return fmt.Errorf("import agent %s artifacts: %w", a.AgentID, err)
	}
	defer root.Close()
	for rel, b := range a.artifacts {
		if d := filepath.Dir(filepath.FromSlash(rel)); d != "." {
			if err := root.MkdirAll(d, 0o700); err != nil {
				return fmt.Errorf("import agent %s artifact %s: %w", a.AgentID, rel, err)
			}
		}
		if err := root.WriteFile(filepath.FromSlash(rel), b, 0o600); err != nil {
			return fmt.Errorf("import agent %s artifact %s: %w", a.AgentID, rel, err)
		}
	}
	return nil
}

// mustMkdir creates dir (errors surface when it is opened) and returns it.
func mustMkdir(dir string) string {
	_ = os.MkdirAll(dir, 0o700)
	return dir
}
