package pgjournal

import (
	"context"
	"fmt"
)

// Unsettled lists the streams whose header is missing or older than the
// stream: agents that wrote since they last settled (a turn in flight, a
// message queued) or never settled, sorted. In a cluster these are the
// agents a node that died may have left with work, which a survivor
// activates to go on with it (settled ones wake through the due index).
func (s *Store) Unsettled(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT s.stream FROM holon_streams s
		LEFT JOIN holon_headers h ON h.stream = s.stream
		WHERE h.seq IS NULL OR h.seq < s.highest ORDER BY s.stream`)
	if err != nil {
		return nil, fmt.Errorf("pgjournal: unsettled streams: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("pgjournal: unsettled streams: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pgjournal: unsettled streams: %w", err)
	}
	return out, nil
}
