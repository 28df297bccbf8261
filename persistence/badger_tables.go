package persistence

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// checkTables opens every table file the engine's MANIFEST lists, the way
// Badger's open will, in this goroutine, before Badger does. Badger opens
// tables in goroutines of its own and panics on a truncated one, which no
// recover here could catch: the process would die with a stack trace. A
// table that cannot be opened is reported as an error wrapping ErrDamaged
// that names it. Files the MANIFEST does not list (a flush cut by a crash)
// are the engine's to delete; a MANIFEST that cannot be read is left to
// the engine's own open, which reports it.
func checkTables(bo badger.Options) error {
	f, err := os.Open(filepath.Join(bo.Dir, "MANIFEST"))
	if err != nil {
		return nil
	}
	defer f.Close()
	m, _, err := badger.ReplayManifestFile(f, bo.ExternalMagicVersion, bo)
	if err != nil {
		return nil
	}
	for id, tm := range m.Tables {
		name := table.NewFilename(id, bo.Dir)
		if err := checkTable(name, tm.Compression); err != nil {
			return fmt.Errorf("%w: table file %s is unreadable (%v)", ErrDamaged, filepath.Base(name), err)
		}
	}
	return nil
}

func checkTable(name string, c options.CompressionType) (err error) {
	defer func() {
		if p := recover(); p != nil { // Badger's panic text is a dump: say what it means
			err = errors.New("its index cannot be read: the file is truncated or corrupt")
		}
	}()
	if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
		return errors.New("it is missing: the MANIFEST lists it, but the file was deleted or lost")
	}
	mf, err := z.OpenMmapFile(name, os.O_RDONLY, 0)
	if err != nil && err != z.NewFile {
		return errors.New(strings.ReplaceAll(err.Error(), "\n", "; ")) // the engine's error spans lines
	}
	t, err := table.OpenTable(mf, table.Options{ReadOnly: true, BlockSize: 4 << 10,
		Compression: c, ChkMode: options.OnBlockRead})
	if err != nil {
		return err
	}
	return t.Close(-1)
}
