package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
)

func TestRecoverStreamChecksWhatItReads(t *testing.T) {
	ctx := context.Background()
	st := persistence.NewMemStore()
	cfg := JournalRecoveryConfig{Streams: 1, Events: 20, SnapshotBytes: 64}
	stream := streamName(0)
	if err := populateStream(ctx, st, cfg, stream, time.Now()); err != nil {
		t.Fatal(err)
	}
	n, err := recoverStream(ctx, st, stream, 18, 20)
	if err != nil || n != 2 {
		t.Fatalf("recoverStream = %d, %v; want 2, nil", n, err)
	}
	tests := []struct {
		name              string
		snapSeq, highest  uint64
		wantErrSubstrings string
	}{
		{"snapshot elsewhere", 17, 20, "want seq 17"},
		{"events missing", 18, 25, "want 7 ending at seq 25"},
		{"no such stream", 18, 20, "snapshot found false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := stream
			if tt.name == "no such stream" {
				s = streamName(9)
			}
			_, err := recoverStream(ctx, st, s, tt.snapSeq, tt.highest)
			if err == nil || !strings.Contains(err.Error(), tt.wantErrSubstrings) {
				t.Errorf("recoverStream(%s, %d, %d) = %v, want an error containing %q", s, tt.snapSeq, tt.highest, err, tt.wantErrSubstrings)
			}
		})
	}
}
