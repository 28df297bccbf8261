package control_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestTimerRoutes: an operator creates, lists, pauses, resumes, runs and
// cancels a timer over HTTP; bad requests are refused with 422 and a hint,
// an unknown timer with 404, and none of them changes the timers.
func TestTimerRoutes(t *testing.T) {
	f := newFixture(t, testkit.Reply("Report posted."))
	ctx := context.Background()
	v, err := f.c.CreateTimer(ctx, "main", actors.TimerRequest{Message: "Post the daily report.", Cron: "0 9 * * *", Zone: "Europe/Paris"})
	if err != nil || v.NextDueAt == nil || v.CreatedBy != "operator" || !strings.HasPrefix(v.TimerID, "tmr_") {
		t.Fatalf("create = %+v, %v", v, err)
	}
	for _, body := range []string{`{"message":"x","cron":"0 9 * * *"}`, `{"message":"x","at":"2001-01-01T00:00:00Z"}`,
		`{"message":"x","every":"1s"}`, `{"message":"x","cron":"bogus","zone":"UTC"}`, `{"every":"1h"}`} {
		code, out := f.post(t, "/control/agents/main/timers", body)
		if code != http.StatusUnprocessableEntity || !strings.Contains(out, `"kind":"invalid_input"`) || !strings.Contains(out, `"hint"`) {
			t.Errorf("POST %s = %d %s, want 422 invalid_input with a hint", body, code, out)
		}
	}
	for _, op := range []actors.TimerOp{actors.TimerPause, actors.TimerResume} {
		ts, err := f.c.ChangeTimer(ctx, "main", op, v.TimerID)
		if err != nil || len(ts) != 1 || ts[0].Paused != (op == actors.TimerPause) {
			t.Fatalf("%s = %+v, %v", op, ts, err)
		}
	}
	if _, err := f.c.ChangeTimer(ctx, "main", actors.TimerRunNow, v.TimerID); err != nil {
		t.Fatal(err)
	}
	if code, out := f.post(t, "/control/agents/main/timers/tmr_nope/pause", `{}`); code != http.StatusNotFound || !strings.Contains(out, "timers list") {
		t.Errorf("pause of an unknown timer = %d %s, want 404 naming timers list", code, out)
	}
	ts, err := f.c.Timers(ctx, "main")
	if err != nil || len(ts) != 1 || ts[0].TimerID != v.TimerID {
		t.Fatalf("timers = %+v, %v", ts, err)
	}
	if ts, err = f.c.ChangeTimer(ctx, "main", actors.TimerCancel, v.TimerID); err != nil || len(ts) != 0 {
		t.Fatalf("cancel = %+v, %v", ts, err)
	}
}
