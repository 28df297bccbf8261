package main

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestMaxEventStreams: `run --max-event-streams 1` (here through its
// environment variable) serves one event stream and refuses the next with
// 429; a cap of 0 is a usage error that starts nothing.
func TestMaxEventStreams(t *testing.T) {
	home := t.TempDir()
	d := startRunEnv(t, home, []string{"HOLON_MAX_EVENT_STREAMS=1"})
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := c.Follow(ctx, "main", 0, func(control.StreamEvent) error {
			select {
			case <-first:
			default:
				close(first)
			}
			return nil
		})
		done <- err
	}()
	select {
	case <-first:
	case err := <-done:
		t.Fatalf("first stream ended: %v", err)
	}
	_, err := c.Follow(context.Background(), "main", 0, func(control.StreamEvent) error { return nil })
	var e *control.Error
	if !errors.As(err, &e) || e.Status != http.StatusTooManyRequests || !strings.Contains(e.Message, "event stream limit (1 open at once") {
		t.Fatalf("second stream: %v, want 429 naming the cap", err)
	}
	cancel()
	<-done
	d.stop()

	code, _, errOut := runCLI(t, "--home", t.TempDir(), "run", "--max-event-streams", "0")
	if code != exitUsage || !strings.Contains(errOut, "--max-event-streams is 0: give at least 1") {
		t.Fatalf("run --max-event-streams 0 = %d, stderr %q; want a usage error naming the flag", code, errOut)
	}
}
