package main

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// TestMaxEventStreams: `run --max-event-streams 1` (here through its
// environment variable) serves one event stream and refuses the next with
// 429; a cap of 0 is a usage error that starts nothing.
func TestMaxEventStreams(t *testing.T) {
	t.Parallel()
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

// TestFollowEndsOnARefusal: tail --follow and prompt --wait wait out a
// broken stream, but not a refusal that waiting cannot change: following
// an agent that does not exist (or has a bad id) ends at once with the
// runtime's error instead of retrying silently forever.
func TestFollowEndsOnARefusal(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--agent", "ghost", "tail", "--follow"}, `no agent "ghost"`},
		{[]string{"--agent", "bad id", "tail", "--follow"}, messages.AgentIDRule},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), e2eWait) // a failure bound only
		cmd := exec.CommandContext(ctx, binary, append([]string{"--home", home}, tc.args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("%q still running after %s: it retries a refusal forever", tc.args, e2eWait)
		}
		code, errOut := 0, stderr.String()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		if code != exitFailure || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q = %d %q, want exit %d and %q", tc.args, code, errOut, exitFailure, tc.want)
		}
	}
	d.stop()
}
