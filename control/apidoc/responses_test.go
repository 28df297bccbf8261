package apidoc_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestResponsesMatchSchemas: what a live server answers, successes and
// refusals, is what the committed document says of the route at that
// status: every status is documented and every body validates against its
// schema (required fields present, types, enums, formats).
func TestResponsesMatchSchemas(t *testing.T) {
	doc, _ := committed(t)
	h := testkit.New(t, testkit.Reply("Hello from the model."))
	if _, err := h.Runtime.Info(context.Background(), "main"); err != nil { // the default agent of /status
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "run", "control.sock")
	serve(t, h, sock)
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}

	type call struct {
		method, pattern, path, body string
		status                      int
	}
	check := func(t *testing.T, c call) {
		t.Helper()
		req, err := http.NewRequest(c.method, "http://holon"+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		where := c.method + " " + c.path
		if resp.StatusCode != c.status {
			t.Fatalf("%s = %d %s, want %d", where, resp.StatusCode, b, c.status)
		}
		op := doc.Paths.Value(c.pattern).GetOperation(c.method)
		if op == nil {
			t.Fatalf("%s %s is not in the document", c.method, c.pattern)
		}
		rr := op.Responses.Status(resp.StatusCode)
		if rr == nil {
			t.Fatalf("%s answered %d, which its operation %s does not document", where, resp.StatusCode, op.OperationID)
		}
		mt := rr.Value.Content.Get("application/json")
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s answered %q: %v", where, b, err)
		}
		if err := mt.Schema.Value.VisitJSON(v, openapi3.EnableFormatValidation()); err != nil {
			t.Errorf("%s answered %d with a body its schema refuses: %v\n%s", where, resp.StatusCode, err, b)
		}
	}

	check(t, call{"POST", "/control/agents", "/control/agents", `{"agent_id":"researcher"}`, 201})
	check(t, call{"POST", "/control/agents/{id}/prompt", "/control/agents/researcher/prompt", `{"text":"Say hello."}`, 202})
	h.WaitEvent("researcher", testkit.NthOfType(messages.EventAgentStateChanged, 3))
	calls := []call{
		{"GET", "/control/runtime/status", "/control/runtime/status", "", 200},
		{"GET", "/agents/list", "/agents/list", "", 200},
		{"GET", "/agents/{id}/status", "/agents/researcher/status", "", 200},
		{"GET", "/agents/{id}/state", "/agents/researcher/state", "", 200},
		{"GET", "/status", "/status", "", 200},
		{"GET", "/state", "/state", "", 200},
		{"GET", "/agents/{id}/transcript", "/agents/researcher/transcript", "", 200},
		{"GET", "/agents/{id}/briefs", "/agents/researcher/briefs", "", 200},
		{"GET", "/agents/{id}/events", "/agents/researcher/events?after=0&limit=1000", "", 200},
		{"GET", "/agents/{id}/suspensions", "/agents/researcher/suspensions", "", 200},
		{"GET", "/suspensions", "/suspensions", "", 200},
		{"GET", "/agents/{id}/notifications", "/agents/researcher/notifications", "", 200},
		{"GET", "/agents/{id}/children", "/agents/researcher/children?all=true", "", 200},
		{"POST", "/control/agents/{id}/work-items", "/control/agents/researcher/work-items", `{"objective":"Triage the nightly build."}`, 201},
		{"GET", "/agents/{id}/work-items", "/agents/researcher/work-items", "", 200},
		{"POST", "/control/agents/{id}/budget", "/control/agents/researcher/budget", `{"token_budget":100000}`, 200},
		{"POST", "/control/agents/{id}/pause", "/control/agents/researcher/pause", `{"reason":"check"}`, 200},
		{"POST", "/control/agents/{id}/resume", "/control/agents/researcher/resume", "", 200},
		{"GET", "/openapi.json", "/openapi.json", "", 200},
		// Refusals: the Error schema under a documented status.
		{"GET", "/agents/{id}/status", "/agents/nobody/status", "", 404},
		{"POST", "/control/agents", "/control/agents", `{"agent_id":"researcher"}`, 409},
		{"POST", "/control/agents", "/control/agents", `{"agent_id":"x","color":"red"}`, 400},
		{"POST", "/control/agents/{id}/prompt", "/control/agents/researcher/prompt", `{"text":" "}`, 422},
		{"POST", "/control/agents/{id}/budget", "/control/agents/researcher/budget", `{"token_budget":-1}`, 422},
		{"GET", "/agents/{id}/events", "/agents/researcher/events?limit=0", "", 400},
		{"GET", "/agents/{id}/suspensions", "/agents/researcher/suspensions?state=closed", "", 400},
		{"POST", "/control/agents/{id}/retry", "/control/agents/researcher/retry", "", 409},
		{"POST", "/control/agents/{id}/trigger", "/control/agents/researcher/trigger", "", 409},
		{"POST", "/control/agents/{id}/suspensions/{suspension_id}/respond", "/control/agents/researcher/suspensions/s1/respond", `{"value":"yes"}`, 404},
		{"POST", "/control/agents/{id}/prompt", "/control/agents/researcher/prompt", `{"text":"` + strings.Repeat("x", 1<<20) + `"}`, 413},
		// The fleet routes: tasks, delete, export and import.
		{"GET", "/agents/{id}/tasks", "/agents/researcher/tasks", "", 200},
		{"GET", "/tasks", "/tasks", "", 200},
		{"GET", "/agents/{id}/tasks", "/agents/nobody/tasks", "", 404},
		{"DELETE", "/control/agents/{id}", "/control/agents/nobody", "", 404},
		{"DELETE", "/control/agents/{id}", "/control/agents/main", "", 409},
		{"DELETE", "/control/agents/{id}", "/control/agents/bad%20id", "", 400},
		{"GET", "/control/agents/{id}/export", "/control/agents/nobody/export", "", 404},
		{"GET", "/control/agents/{id}/export", "/control/agents/bad%20id/export", "", 400},
		{"POST", "/control/agents/import", "/control/agents/import", "not an archive", 422},
		{"POST", "/control/agents/import", "/control/agents/import", "", 422},
	}
	for _, c := range calls {
		t.Run(c.method+" "+c.path[:min(len(c.path), 60)]+" "+strconv.Itoa(c.status), func(t *testing.T) { check(t, c) })
	}
	check(t, call{"POST", "/control/agents", "/control/agents", `{"agent_id":"doomed"}`, 201})
	check(t, call{"DELETE", "/control/agents/{id}", "/control/agents/doomed", "", 200})
	check(t, call{"DELETE", "/control/agents/{id}", "/control/agents/doomed", "", 404})
	check(t, call{"GET", "/control/agents/{id}/export", "/control/agents/doomed/export", "", 404})
}
