package remotepb_test

import (
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/remote/remotepb"
)

func TestErrorIsAGoError(t *testing.T) {
	var err error = &remotepb.Error{Code: "not_found", Message: `no agent "x"`, Hint: "list agents"}
	var e *remotepb.Error
	if !errors.As(err, &e) || e.Code != "not_found" || err.Error() != `no agent "x" (list agents)` {
		t.Errorf("Error() = %q", err.Error())
	}
	if got := (&remotepb.Error{Message: "m"}).Error(); got != "m" {
		t.Errorf("Error() without a hint = %q, want m", got)
	}
}
