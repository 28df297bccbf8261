package control

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ErrNoAPI is returned by ServeAPI when the Operator has no API handler.
var ErrNoAPI = &Error{Status: http.StatusServiceUnavailable, Kind: KindUnavailable,
	Message: "this surface does not serve the HTTP API's reads", Hint: "use the control socket or --url"}

// ServeAPI answers an HTTP API request (method, path with its query, a
// JSON body or nil) through o.API, in this process: the same route, checks
// and body as over the socket. It returns the body of a success, or the
// *Error the API refused with. The request carries no socket peer or
// token: the surface calling it has authenticated its caller.
func (o Operator) ServeAPI(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	if o.API == nil {
		return nil, ErrNoAPI
	}
	req, err := http.NewRequestWithContext(ctx, method, path, bytes.NewReader(body))
	if err != nil {
		return nil, errorf(http.StatusBadRequest, KindBadRequest, "check the agent id", "request %s %s: %v", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := &bodyRecorder{header: http.Header{}, status: http.StatusOK}
	o.API.ServeHTTP(rec, req)
	if rec.status >= 300 {
		var e struct {
			Error *Error `json:"error"`
		}
		if err := json.Unmarshal(rec.body.Bytes(), &e); err != nil || e.Error == nil {
			return nil, &Error{Status: rec.status, Kind: KindInternal,
				Message: fmt.Sprintf("HTTP %d: %s", rec.status, strings.TrimSpace(rec.body.String()))}
		}
		e.Error.Status = rec.status
		return nil, e.Error
	}
	return rec.body.Bytes(), nil
}

// bodyRecorder keeps a handler's status and body.
type bodyRecorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *bodyRecorder) Header() http.Header { return r.header }

func (r *bodyRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}

func (r *bodyRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}
