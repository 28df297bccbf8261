package control

import (
	"fmt"
	"net/http"
	"strconv"
)

// MaxLast bounds ?last=N on the routes that list an agent's newest entries
// (events, transcript items, briefs).
const MaxLast = MaxPageLimit

// lastParam reads ?last=N: 0 when absent (everything), else 1..MaxLast.
func lastParam(r *http.Request) (int, *Error) {
	raw := r.URL.Query().Get("last")
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > MaxLast {
		return 0, errorf(http.StatusBadRequest, KindBadRequest, fmt.Sprintf("last is 1 to %d: how many of the newest to return", MaxLast),
			"last %q is not valid", raw)
	}
	return n, nil
}

// newest returns the last n of s (all of s when n is 0 or s is shorter).
func newest[T any](s []T, n int) []T {
	if n <= 0 || len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
