package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxFileBytes bounds how much of a memory file is read and indexed; a longer file is indexed up
// to this size and its record says so in metadata "truncated".
const MaxFileBytes = 1 << 20

// memoryFiles are the agent's curated memory files, relative to the agent home.
var memoryFiles = []struct {
	kind Kind
	path string
}{
	{KindSelf, "memory/self.md"},
	{KindOperator, "memory/operator.md"},
}

// CheckFiles compares memory/self.md and memory/operator.md under home with the bodies the index
// holds (by SHA-256, each file read up to MaxFileBytes) and re-indexes the ones edited outside
// the runtime, or removes the record of a deleted file. changed says whether any was.
func (ix *Index) CheckFiles(home string) (changed bool, err error) {
	for _, f := range memoryFiles {
		d, ok, err := readMemoryFile(home, ix.opts.AgentID, f.kind, f.path)
		if err != nil {
			return changed, fmt.Errorf("memory: check %s: %w", f.path, err)
		}
		indexed, err := ix.fileHash(f.kind)
		if err != nil {
			return changed, fmt.Errorf("memory: check %s: %w", f.path, err)
		}
		switch {
		case ok && bodyHash(d.Body) != indexed:
			err = ix.Upsert(d)
		case !ok && indexed != "":
			err = ix.write(func(ctx context.Context, w *writer) error {
				if err := w.remove(ctx, f.kind, string(f.kind)); err != nil {
					return err
				}
				return w.setMeta(ctx, "hash:"+string(f.kind), "")
			})
		default:
			continue
		}
		if err != nil {
			return changed, err
		}
		changed = true
	}
	return changed, nil
}

// fileHash is the stored hash of the indexed body of a memory file's record, "" when none.
func (ix *Index) fileHash(kind Kind) (string, error) {
	var h string
	err := ix.withDB(context.Background(), func(db *sql.DB) error {
		return db.QueryRow(`SELECT coalesce((SELECT v FROM meta WHERE k = ?), '')`, "hash:"+string(kind)).Scan(&h)
	})
	return h, err
}

// readMemoryFile reads one memory file as a Doc; ok is false when the file does not exist.
func readMemoryFile(home, agentID string, kind Kind, rel string) (d Doc, ok bool, err error) {
	f, err := os.Open(filepath.Join(home, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return Doc{}, false, nil
	}
	if err != nil {
		return Doc{}, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Doc{}, false, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return Doc{}, false, err
	}
	d = Doc{
		Kind: kind, Key: string(kind), AgentID: agentID, ScopeKind: ScopeAgent,
		SourcePath: rel, Title: filepath.Base(rel), UpdatedAt: info.ModTime().UTC(),
	}
	if len(b) > MaxFileBytes {
		b = b[:MaxFileBytes]
		d.Metadata = map[string]string{"truncated": "true"}
	}
	d.Body = strings.ToValidUTF8(string(b), "")
	return d, true, nil
}

// FileSource is a Source yielding the agent's memory files under home (memory/self.md and
// memory/operator.md), for Rebuild beside the journal's records.
func FileSource(home, agentID string) Source {
	return SourceFunc(func(ctx context.Context, yield func(Doc) error) error {
		for _, f := range memoryFiles {
			d, ok, err := readMemoryFile(home, agentID, f.kind, f.path)
			if err != nil {
				return fmt.Errorf("read %s: %w", f.path, err)
			}
			if ok {
				if err := yield(d); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
