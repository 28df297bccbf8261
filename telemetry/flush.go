package telemetry

import (
	"context"
	"fmt"
)

// Flush exports the spans ended so far, within ctx, and keeps tracing
// (Close flushes too, but ends the open spans and stops).
func (t *Telemetry) Flush(ctx context.Context) error {
	if t == nil || t.tp == nil {
		return nil
	}
	if err := t.spans.drain(ctx); err != nil {
		return fmt.Errorf("build the queued spans: %w", err)
	}
	if err := t.tp.ForceFlush(ctx); err != nil {
		return fmt.Errorf("flush traces: %w", err)
	}
	return nil
}
