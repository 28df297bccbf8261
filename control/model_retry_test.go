package control_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestRetryModelWithNothingWaiting: retry now and cancel are refused with
// 409 and a hint when the agent's turn waits on no model retry, and change
// nothing; an unknown agent is 404.
func TestRetryModelWithNothingWaiting(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	before := len(f.h.Events("main"))
	for _, cancel := range []bool{false, true} {
		_, err := f.c.RetryModel(ctx, "main", cancel)
		e := apiError(t, err, http.StatusConflict, control.KindConflict)
		if !strings.Contains(e.Message, "not waiting to retry") || !strings.Contains(e.Hint, "model_retry") {
			t.Errorf("cancel=%v: error %+v, want it to say nothing waits and where to look", cancel, e)
		}
	}
	if got := len(f.h.Events("main")); got != before {
		t.Fatalf("refused retries wrote %d events", got-before)
	}
	_, err := f.c.RetryModel(ctx, "nobody", false)
	apiError(t, err, http.StatusNotFound, control.KindNotFound)
}
