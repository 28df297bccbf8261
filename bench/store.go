package bench

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/holon-actors/holon-actors/persistence"
)

// openFresh opens the store in o.Dir and fails unless it holds no streams, so
// a run never mixes its data with an earlier one. created reports whether the
// directory did not exist before, i.e. whether removing it is the caller's to
// decide.
func openFresh(ctx context.Context, o persistence.Options) (st *persistence.BadgerStore, created bool, err error) {
	_, statErr := os.Stat(o.Dir)
	created = errors.Is(statErr, os.ErrNotExist)
	st, err = persistence.Open(o)
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", o.Dir, err)
	}
	streams, err := st.Streams(ctx)
	if err == nil && len(streams) > 0 {
		err = fmt.Errorf("%s already holds %d streams: use an empty directory", o.Dir, len(streams))
	}
	if err != nil {
		return nil, false, errors.Join(err, st.Close())
	}
	return st, created, nil
}

// closeStore closes st and wraps the error with the directory.
func closeStore(st *persistence.BadgerStore, dir string) error {
	if err := st.Close(); err != nil {
		return fmt.Errorf("close %s: %w", dir, err)
	}
	return nil
}
