package pgjournal

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// listenRetry is the wait between attempts to get the listener's
// connection back.
const listenRetry = 500 * time.Millisecond

// startListener connects the LISTEN connection and starts the goroutine
// that turns notifications, from this process and every other one on the
// database, into subscription signals. It fails when the first connection
// fails; later losses are retried until Close.
func (s *Store) startListener(ctx context.Context) error {
	conn, err := s.listen(ctx)
	if err != nil {
		return err
	}
	lctx, cancel := context.WithCancel(context.Background())
	s.stopListen = cancel
	s.wg.Go(func() { s.runListener(lctx, conn) })
	return nil
}

func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, s.cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("pgjournal: listen on %s: %w", redact(s.cfg.URL), err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		_ = conn.Close(ctx)
		return nil, fmt.Errorf("pgjournal: listen on %s: %w", redact(s.cfg.URL), err)
	}
	return conn, nil
}

// runListener owns conn until ctx ends. When the connection is lost it
// reconnects, then signals every subscription, since appends may have
// happened while nobody listened.
func (s *Store) runListener(ctx context.Context, conn *pgx.Conn) {
	defer func() {
		if conn != nil {
			_ = conn.Close(context.Background())
		}
	}()
	for ctx.Err() == nil {
		if conn == nil {
			c, err := s.listen(ctx)
			if err != nil {
				select {
				case <-ctx.Done():
				case <-time.After(listenRetry):
				}
				continue
			}
			conn = c
			s.listenerDown.Store(nil)
			s.hub.NotifyAll()
		}
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			why := err.Error()
			s.listenerDown.Store(&why)
			s.log.Warn().Err(err).Msg("journal listener lost its connection")
			_ = conn.Close(context.Background())
			conn = nil
			continue
		}
		s.hub.Notify(n.Payload)
	}
}
