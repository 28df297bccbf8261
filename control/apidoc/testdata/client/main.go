// Command client drives a live control API with the client oapi-codegen
// generates from control/openapi.json (into ./holon, by
// TestGeneratedClient). It prints what it saw as one JSON object.
//
//	client <socket> prompt   creates agent researcher and prompts it
//	client <socket> inspect  reads its events and status, and makes errors
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"

	"apiclient/holon"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: client <socket> prompt|inspect")
		os.Exit(2)
	}
	sock := os.Args[1]
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	c, err := holon.NewClientWithResponses("http://holon", holon.WithHTTPClient(hc))
	if err != nil {
		fail("new client: %v", err)
	}
	out := map[string]any{}
	switch os.Args[2] {
	case "prompt":
		prompt(context.Background(), c, out)
	case "inspect":
		inspect(context.Background(), c, out)
	default:
		fail("unknown step %q", os.Args[2])
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("encode: %v", err)
	}
}

func prompt(ctx context.Context, c *holon.ClientWithResponses, out map[string]any) {
	rs, err := c.RuntimeStatusWithResponse(ctx)
	check(err, rs, func() bool { return rs.JSON200 != nil }, "runtime status")
	out["runtime_pid"], out["runtime_healthy"] = rs.JSON200.Pid, rs.JSON200.Healthy
	ca, err := c.CreateAgentWithResponse(ctx, holon.CreateAgentRequest{AgentId: "researcher"})
	check(err, ca, func() bool { return ca.JSON201 != nil }, "create agent")
	out["created"], out["created_status"] = ca.JSON201.AgentId, ca.JSON201.Status
	next := "next"
	p, err := c.PromptAgentWithResponse(ctx, "researcher", holon.PromptRequest{Text: "Say hello.", Priority: &next})
	check(err, p, func() bool { return p.JSON202 != nil }, "prompt")
	out["message_id"], out["event_seq"] = p.JSON202.MessageId, p.JSON202.EventSeq
}

func inspect(ctx context.Context, c *holon.ClientWithResponses, out map[string]any) {
	after, limit := 0, 1000
	ev, err := c.AgentEventsWithResponse(ctx, "researcher", &holon.AgentEventsParams{After: &after, Limit: &limit})
	check(err, ev, func() bool { return ev.JSON200 != nil && ev.JSON200.Events != nil }, "events")
	var kinds []string
	for _, e := range *ev.JSON200.Events {
		kinds = append(kinds, e.Provenance.Kind)
		if e.Provenance.MessageId != nil && e.Provenance.Kind == "message_admitted" {
			out["admitted_message_id"], out["admitted_seq"] = *e.Provenance.MessageId, e.Provenance.EventSeq
		}
		if e.Provenance.Kind == "assistant_round_recorded" {
			b, err := json.Marshal(e.Payload)
			if err != nil {
				fail("encode payload: %v", err)
			}
			out["assistant_payload"] = string(b)
		}
	}
	out["event_kinds"], out["highest_seq"] = kinds, ev.JSON200.HighestSeq
	st, err := c.AgentStatusWithResponse(ctx, "researcher")
	check(err, st, func() bool { return st.JSON200 != nil }, "status")
	out["status"], out["turn_index"], out["model_rounds"] = st.JSON200.Status, st.JSON200.TurnIndex, st.JSON200.TotalModelRounds

	missing, err := c.PromptAgentWithResponse(ctx, "nobody", holon.PromptRequest{Text: "hello?"})
	check(err, missing, func() bool { return missing.JSON404 != nil }, "prompt to a missing agent")
	out["missing"] = missing.JSON404.Error
	empty, err := c.PromptAgentWithResponse(ctx, "researcher", holon.PromptRequest{Text: " "})
	check(err, empty, func() bool { return empty.JSON422 != nil }, "empty prompt")
	out["empty"] = empty.JSON422.Error
	dup, err := c.CreateAgentWithResponse(ctx, holon.CreateAgentRequest{AgentId: "researcher"})
	check(err, dup, func() bool { return dup.JSON409 != nil }, "create again")
	out["duplicate"] = dup.JSON409.Error
}

// check fails on a request that failed (err) or was not answered as
// expected (!ok()), with the status and body the server sent.
func check(err error, r interface{ StatusCode() int }, ok func() bool, what string) {
	switch {
	case err != nil:
		fail("%s: %v", what, err)
	case !ok():
		fail("%s: HTTP %d", what, r.StatusCode())
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}
