package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"

	"github.com/holon-actors/holon-actors/control"
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

// withControlStore opens a fresh durable store in dir/data, runs run with
// it and the control socket path dir/run/control.sock, and closes the
// store; a dir it created is removed afterwards unless keep.
func withControlStore[R any](ctx context.Context, dir string, keep bool, log *slog.Logger,
	run func(st *persistence.BadgerStore, sock string) (R, error)) (R, error) {
	var zero, res R
	o := persistence.DefaultOptions(filepath.Join(dir, "data"))
	o.Logger = log
	err := inFreshStore(ctx, o, dir, keep, func(st *persistence.BadgerStore) (err error) {
		res, err = run(st, filepath.Join(dir, "run", "control.sock"))
		return err
	}, nil)
	if err != nil {
		return zero, err
	}
	return res, nil
}

// inFreshStore opens a fresh store with o (see openFresh), runs fill over
// it and closes it, then runs then, when set, with the directory still on
// disk (to measure it or reopen it). When the store's directory did not
// exist, root (o.Dir or a directory holding it) is removed at the end
// unless keep.
func inFreshStore(ctx context.Context, o persistence.Options, root string, keep bool,
	fill func(st *persistence.BadgerStore) error, then func() error) error {
	st, created, err := openFresh(ctx, o)
	if err != nil {
		return err
	}
	if created && !keep {
		defer os.RemoveAll(root)
	}
	if err := errors.Join(fill(st), closeStore(st, o.Dir)); err != nil {
		return err
	}
	if then == nil {
		return nil
	}
	return then()
}

// serveControl serves the control API of cfg on a unix socket at sock;
// stop closes the server and returns what ended its serving, if not the
// close.
func serveControl(cfg control.Config, sock string) (srv *control.Server, stop func() error, err error) {
	srv = control.NewServer(cfg)
	l, err := control.ListenUnix(sock)
	if err != nil {
		return nil, nil, err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	return srv, func() error {
		err := srv.Close(context.Background())
		if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
		return err
	}, nil
}
