package agentstate

import (
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// TestCronDST walks a cron timer across the two daylight-saving
// transitions of 2026 in two zones: a wall time in the skipped hour fires
// once at the end of the gap, one in the repeated hour once at its first
// occurrence, and a daily 09:00 stays 09:00 local.
func TestCronDST(t *testing.T) {
	tests := []struct {
		name, cron, zone string
		from             string // UTC
		want             []string
	}{
		{"paris daily 09:00 across spring forward", "0 9 * * *", "Europe/Paris", "2026-03-28T00:00:00Z",
			[]string{"2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z"}},
		{"paris daily 09:00 across fall back", "0 9 * * *", "Europe/Paris", "2026-10-24T00:00:00Z",
			[]string{"2026-10-24T07:00:00Z", "2026-10-25T08:00:00Z", "2026-10-26T08:00:00Z"}},
		{"paris 02:30 in the skipped hour fires at 03:00 CEST", "30 2 * * *", "Europe/Paris", "2026-03-28T00:00:00Z",
			[]string{"2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"}},
		{"paris 02:30 in the repeated hour fires once", "30 2 * * *", "Europe/Paris", "2026-10-24T00:00:00Z",
			[]string{"2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"}},
		{"paris every 30 minutes: the gap collapses into one fire", "*/30 * * * *", "Europe/Paris", "2026-03-29T00:15:00Z",
			[]string{"2026-03-29T00:30:00Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z"}},
		{"paris every 30 minutes: the repeated hour is not run twice", "*/30 * * * *", "Europe/Paris", "2026-10-24T23:45:00Z",
			[]string{"2026-10-25T00:00:00Z", "2026-10-25T00:30:00Z", "2026-10-25T02:00:00Z"}},
		{"new york 02:30 in the skipped hour fires at 03:00 EDT", "30 2 * * *", "America/New_York", "2026-03-07T12:00:00Z",
			[]string{"2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"}},
		{"new york 01:30 in the repeated hour fires once, EDT", "30 1 * * *", "America/New_York", "2026-10-31T12:00:00Z",
			[]string{"2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"}},
		{"new york daily 09:00 across fall back", "0 9 * * *", "America/New_York", "2026-10-31T00:00:00Z",
			[]string{"2026-10-31T13:00:00Z", "2026-11-01T14:00:00Z"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := messages.TimerRecord{TimerID: "tmr_1", Cron: tc.cron, Zone: tc.zone}
			at := mustTime(t, tc.from)
			for i, w := range tc.want {
				next, ok := nextRun(rec, at)
				if !ok || !next.Equal(mustTime(t, w)) {
					t.Fatalf("fire %d after %s = %s (%v), want %s", i, at.Format(time.RFC3339), next.Format(time.RFC3339), ok, w)
				}
				at = next
			}
		})
	}
}

func TestEveryAndOneShot(t *testing.T) {
	start := mustTime(t, "2026-01-01T00:00:00Z")
	at := start.Add(90 * time.Second)
	until := start.Add(3 * time.Minute)
	tests := []struct {
		name  string
		rec   messages.TimerRecord
		after time.Time
		want  time.Time
		ok    bool
	}{
		{"every from start", messages.TimerRecord{EveryMS: 60000, Start: start}, start, start.Add(time.Minute), true},
		{"every after downtime keeps its phase", messages.TimerRecord{EveryMS: 60000, Start: start}, start.Add(150 * time.Second), start.Add(3 * time.Minute), true},
		{"every first at", messages.TimerRecord{EveryMS: 60000, Start: start, At: &at}, start, at, true},
		{"every ends at until", messages.TimerRecord{EveryMS: 60000, Start: start, Until: &until}, until, time.Time{}, false},
		{"one-shot", messages.TimerRecord{At: &at}, start, at, true},
		{"one-shot only once", messages.TimerRecord{At: &at}, at, time.Time{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := nextRun(tc.rec, tc.after)
			if ok != tc.ok || !got.Equal(tc.want) {
				t.Errorf("nextRun = %s, %v; want %s, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNextRunCronDoesNotReload: the next run of a cron timer neither
// reloads its zone nor reparses its expression, which a fire after a long
// downtime does once per missed run (it was ~40 allocations a run).
func TestNextRunCronDoesNotReload(t *testing.T) {
	rec := messages.TimerRecord{Cron: "*/5 * * * *", Zone: "America/New_York"}
	if _, ok := nextRun(rec, testNow); !ok {
		t.Fatal("no next run")
	}
	if n := testing.AllocsPerRun(100, func() { nextRun(rec, testNow) }); n > 1 {
		t.Errorf("nextRun of a cron timer allocates %v times a call, want at most 1 (zone and expression loaded once)", n)
	}
}
