package pgtriggers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/holon-actors/holon-actors/control"
)

// Reserve records a delivery of trigger id in one transaction: the count
// and the time, and the delivery id, which the table's primary key admits
// once whichever node receives it (a second transaction inserting it
// waits for the first and then finds it). A trigger keeps its latest
// control.RecentDeliveries ids. first is false, recording nothing, for a
// delivery id already kept or a trigger that does not exist.
func (r *Registry) Reserve(ctx context.Context, id, delivery string, now time.Time) (first bool, err error) {
	err = pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		// The trigger's row is locked first, by Release too: one order.
		tag, err := tx.Exec(ctx, `UPDATE holon_triggers SET trigger_count = trigger_count + 1, last_triggered_at = $2 WHERE id = $1`, id, now.UTC())
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		if delivery == "" {
			first = true
			return nil
		}
		tag, err = tx.Exec(ctx, `INSERT INTO holon_trigger_deliveries (trigger_id, delivery) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			id, control.DeliveryKey(delivery))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errDuplicate
		}
		first = true
		_, err = tx.Exec(ctx, `DELETE FROM holon_trigger_deliveries WHERE trigger_id = $1 AND seq <= (
			SELECT seq FROM holon_trigger_deliveries WHERE trigger_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`,
			id, control.RecentDeliveries)
		return err
	})
	switch {
	case errors.Is(err, errDuplicate):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("pgtriggers: reserve a delivery of %s: %w", id, err)
	}
	return first, nil
}

// errDuplicate rolls Reserve's transaction back for a delivery id already
// kept.
var errDuplicate = errors.New("pgtriggers: duplicate delivery")

// Release forgets a reserved delivery id and takes its count back.
func (r *Registry) Release(ctx context.Context, id, delivery string) error {
	if delivery == "" {
		return nil
	}
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM holon_triggers WHERE id = $1 FOR UPDATE`, id); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM holon_trigger_deliveries WHERE trigger_id = $1 AND delivery = $2`, id, control.DeliveryKey(delivery))
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE holon_triggers SET trigger_count = trigger_count - 1 WHERE id = $1 AND trigger_count > 0`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("pgtriggers: release a delivery of %s: %w", id, err)
	}
	return nil
}
