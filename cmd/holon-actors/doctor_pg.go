package main

import (
	"context"
	"errors"

	"github.com/holon-actors/holon-actors/persistence/pgjournal"
)

// inspectPostgres is doctor on a PostgreSQL journal.
func (c *doctorCmd) inspectPostgres(ctx context.Context, e *env) error {
	r, err := pgjournal.Inspect(ctx, c.Journal)
	if errors.Is(err, pgjournal.ErrNoJournal) || !pgjournal.IsURL(c.Journal) {
		return usage(err)
	}
	if err != nil {
		return err
	}
	return printReport(e, r)
}
