package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/holon-actors/holon-actors/persistence"
)

// errDamageFound ends doctor with exit 1 once it has printed damage.
var errDamageFound = errors.New("the data directory is damaged (see above)")

// doctorCmd is `holon-actors doctor`: an offline integrity check of the
// data directory. It takes the directory's lock, so it refuses while a
// runtime runs, and repairs nothing.
type doctorCmd struct {
	Journal string `help:"Check the journal in PostgreSQL at this URL (the one run --journal used) instead of the data directory; it only reads, so the runtime may keep running." env:"HOLON_JOURNAL" placeholder:"URL"`
}

// Run inspects $HOLON_HOME/data and prints what it found; it exits 1 when
// anything is damaged.
func (c *doctorCmd) Run(ctx context.Context, e *env) error {
	if c.Journal != "" {
		return c.inspectPostgres(ctx, e)
	}
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return err
	}
	dir := persistence.DataDir(home)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return usage(fmt.Errorf("no data directory at %s: nothing to check (is --home right?)", dir))
	}
	o := persistence.DefaultOptions(dir)
	o.Logger = e.log
	r, err := persistence.Inspect(o)
	if err != nil {
		return err
	}
	return printReport(e, r)
}

// printReport prints what doctor found and exits 1 on damage.
func printReport(e *env, r persistence.Report) error {
	var err error
	if e.JSON {
		err = printJSON(e, r)
	} else {
		err = printRows(e, doctorRows(r))
	}
	if err == nil && !r.Healthy {
		err = errDamageFound
	}
	return err
}

func doctorRows(r persistence.Report) [][2]string {
	rows := [][2]string{{"data dir", r.Dir}}
	if r.OpenError != "" {
		return append(rows, [2]string{"engine", "does not open: " + r.OpenError},
			[2]string{"repair", "not in place: restore the data directory from a backup"})
	}
	rows = append(rows, [2]string{"integrity marks", r.Marks})
	for _, w := range r.TornWAL {
		rows = append(rows, [2]string{"torn WAL tail", fmt.Sprintf("%s: %d bytes at offset %d, dropped at the next start "+
			"(normally writes cut by a crash, never acknowledged)", w.File, w.Bytes, w.Offset)})
	}
	for _, s := range r.Streams {
		rows = append(rows, [2]string{"stream " + s.Stream, streamLine(s)})
		if s.Repair != "" {
			rows = append(rows, [2]string{"", "repair: " + s.Repair})
		}
	}
	verdict := "healthy"
	if !r.Healthy {
		verdict = "damaged"
	}
	return append(rows, [2]string{"verdict", verdict})
}

func streamLine(s persistence.StreamReport) string {
	parts := []string{s.Status, fmt.Sprintf("%d events, seq %d..%d, %d snapshots", s.Events, s.RetainedFrom, s.Highest, s.Snapshots)}
	if s.MarkHighest > s.Highest {
		parts = append(parts, fmt.Sprintf("marks say seq %d", s.MarkHighest))
	}
	if s.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d moved aside earlier", s.Dropped))
	}
	for _, g := range s.Gaps {
		parts = append(parts, fmt.Sprintf("missing %d..%d", g.From, g.To))
	}
	if len(s.Corrupt) > 0 {
		parts = append(parts, fmt.Sprintf("corrupt seqs %v", s.Corrupt))
	}
	if len(s.CorruptSnapshots) > 0 {
		parts = append(parts, fmt.Sprintf("corrupt snapshots %v", s.CorruptSnapshots))
	}
	if q := s.Quarantine; q != nil {
		parts = append(parts, fmt.Sprintf("quarantined at seq %d: %s", q.Seq, q.Reason))
	}
	return strings.Join(parts, "; ")
}
