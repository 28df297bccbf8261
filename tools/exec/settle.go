package exec

import (
	"context"
	"fmt"

	"github.com/holon-actors/holon-actors/tools"
)

// Settlement is what a restarted runtime found of a command launched by
// the runtime before it: whether the command ended by itself (Finished,
// with its real Exit status) and how many of its processes were still
// running and were killed.
type Settlement struct {
	Launch   Launch
	Finished bool
	Exit     ExitStatus
	Killed   int
}

// Settle settles a command whose Launch was made durable by a runtime
// that then died: every process of it still running, in its group or out
// of it, is killed, then its exit status file tells whether it had ended
// by itself (and how). Its output files are left for the caller.
func Settle(ctx context.Context, artifacts *tools.ArtifactDir, l Launch) (Settlement, error) {
	s := Settlement{Launch: l}
	killed, err := KillDescendants(ctx, l.Pgid, l.Token, l.StartTicks, 0)
	s.Killed = killed
	if err != nil {
		return s, fmt.Errorf("settle %q: %w", l.Cmd, err)
	}
	if s.Exit, s.Finished, err = ExitStatusOf(artifacts, l); err != nil {
		return s, fmt.Errorf("settle %q: %w", l.Cmd, err)
	}
	return s, nil
}
