package control

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// ErrNotRunning is returned by the client when nothing answers on the
// control socket.
var ErrNotRunning = errors.New("no runtime is running")

// Client calls the control API. It is safe for concurrent use.
type Client struct {
	http   *http.Client
	base   string
	target string // what the client dials, for error messages
}

// NewUnixClient returns a client for the control socket at path.
func NewUnixClient(path string) *Client {
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}}
	return &Client{http: &http.Client{Transport: tr}, base: "http://holon", target: path}
}

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// do sends a request and decodes a JSON answer into out (nil: discard).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	return c.doDecode(ctx, method, path, in, out, decodeJSON)
}

// decodeJSON decodes the JSON value resp answers into out.
func decodeJSON(resp *http.Response, out any) error { return json.NewDecoder(resp.Body).Decode(out) }

// doDecode is do with the answer decoded by decode.
func (c *Client) doDecode(ctx context.Context, method, path string, in, out any, decode func(*http.Response, any) error) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("build request %s %s: %w", method, path, err)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.transportError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return decodeError(resp)
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := decode(resp, out); err != nil {
		return fmt.Errorf("decode answer to %s %s: %w", method, path, err)
	}
	return nil
}

func (c *Client) transportError(err error) error {
	var ne *net.OpError
	if errors.As(err, &ne) && ne.Op == "dial" {
		return fmt.Errorf("%w at %s", ErrNotRunning, c.target)
	}
	return fmt.Errorf("control request to %s: %w", c.target, err)
}

// decodeError turns an error answer into *Error.
func decodeError(resp *http.Response) error {
	var body struct {
		Error *Error `json:"error"`
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes))
	if err := json.Unmarshal(raw, &body); err != nil || body.Error == nil {
		return &Error{Status: resp.StatusCode, Kind: KindInternal,
			Message: fmt.Sprintf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(raw)))}
	}
	body.Error.Status = resp.StatusCode
	return body.Error
}

// RuntimeStatus asks for the runtime status.
func (c *Client) RuntimeStatus(ctx context.Context) (RuntimeStatus, error) {
	var st RuntimeStatus
	return st, c.do(ctx, http.MethodGet, "/control/runtime/status", nil, &st)
}

// Shutdown asks the runtime to shut down gracefully.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/control/runtime/shutdown", struct{}{}, nil)
}

// Agents lists the public agents.
func (c *Client) Agents(ctx context.Context) ([]agentstate.AgentInfo, error) {
	var out AgentList
	return out.Agents, c.doDecode(ctx, http.MethodGet, "/agents/list", nil, &out, decodeList)
}

// Status returns an agent's summary.
func (c *Client) Status(ctx context.Context, id string) (AgentSummary, error) {
	var out AgentSummary
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/status", nil, &out)
}

// State returns an agent's projection bootstrap.
func (c *Client) State(ctx context.Context, id string) (AgentStateSnapshot, error) {
	var out AgentStateSnapshot
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/state", nil, &out)
}

// Transcript returns an agent's conversation.
func (c *Client) Transcript(ctx context.Context, id string) ([]providers.Item, error) {
	var out struct {
		Items []providers.Item `json:"items"`
	}
	return out.Items, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/transcript", nil, &out)
}

// Briefs returns an agent's briefs.
func (c *Client) Briefs(ctx context.Context, id string) ([]messages.Brief, error) {
	var out struct {
		Briefs []messages.Brief `json:"briefs"`
	}
	return out.Briefs, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/briefs", nil, &out)
}

// CreateAgent creates a named agent.
func (c *Client) CreateAgent(ctx context.Context, id string) (agentstate.AgentInfo, error) {
	return c.CreateAgentWith(ctx, CreateAgentRequest{AgentID: id})
}

// CreateAgentWith creates a named agent as req asks (with its command
// policy).
func (c *Client) CreateAgentWith(ctx context.Context, req CreateAgentRequest) (agentstate.AgentInfo, error) {
	var out agentstate.AgentInfo
	return out, c.do(ctx, http.MethodPost, "/control/agents", req, &out)
}

// Prompt admits an operator prompt; it returns once the prompt is durable.
func (c *Client) Prompt(ctx context.Context, id string, req PromptRequest) (PromptResponse, error) {
	var out PromptResponse
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/prompt", req, &out)
}

// Lifecycle sends stop, resume, pause or wake.
func (c *Client) Lifecycle(ctx context.Context, id string, op actors.ControlOp, reason string) (LifecycleResponse, error) {
	var out LifecycleResponse
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/"+string(op), LifecycleRequest{Reason: reason}, &out)
}

// Interrupt ends agent id's turn in flight unless it processes message
// keep ("" spares none).
func (c *Client) Interrupt(ctx context.Context, id, keep, reason string) (LifecycleResponse, error) {
	var out LifecycleResponse
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/"+string(actors.OpInterrupt),
		LifecycleRequest{Reason: reason, KeepMessageID: keep}, &out)
}

// Events returns one page of events after the cursor.
func (c *Client) Events(ctx context.Context, id string, after uint64, limit int) (EventsPage, error) {
	var out EventsPage
	q := url.Values{"after": {strconv.FormatUint(after, 10)}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return out, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/events?"+q.Encode(), nil, &out)
}

// Follow streams an agent's events after the cursor to f, live, until ctx
// ends, f returns an error (returned, except ErrStop which ends cleanly)
// or the stream breaks. It returns the last event_seq delivered, so a
// caller can resume with no gap and no duplicate.
func (c *Client) Follow(ctx context.Context, id string, after uint64, f func(StreamEvent) error) (uint64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/agents/"+url.PathEscape(id)+"/events", nil)
	if err != nil {
		return after, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Last-Event-ID", strconv.FormatUint(after, 10))
	resp, err := c.http.Do(req)
	if err != nil {
		return after, c.transportError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return after, decodeError(resp)
	}
	return readSSE(resp.Body, after, f)
}

// ErrStop, returned by a Follow callback, ends the stream without error.
var ErrStop = errors.New("stop following")

// readSSE parses an event stream, calling f for each complete event.
func readSSE(r io.Reader, after uint64, f func(StreamEvent) error) (uint64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) == 0 {
				continue
			}
			var ev StreamEvent
			if err := json.Unmarshal(data, &ev); err != nil {
				return after, fmt.Errorf("decode streamed event: %w", err)
			}
			data = data[:0]
			if err := f(ev); err != nil {
				if errors.Is(err, ErrStop) {
					return ev.Provenance.EventSeq, nil
				}
				return after, err
			}
			after = ev.Provenance.EventSeq
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[len("data: "):]...)
		}
	}
	if err := sc.Err(); err != nil {
		return after, fmt.Errorf("read event stream: %w", err)
	}
	return after, io.ErrUnexpectedEOF
}

// EnsureTrigger creates, or returns, the agent's external trigger.
func (c *Client) EnsureTrigger(ctx context.Context, id string) (TriggerCapability, error) {
	var out TriggerCapability
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/trigger", struct{}{}, &out)
}

// RevokeTrigger revokes the agent's external trigger.
func (c *Client) RevokeTrigger(ctx context.Context, id string) (Trigger, error) {
	var out Trigger
	return out, c.do(ctx, http.MethodDelete, "/control/agents/"+url.PathEscape(id)+"/trigger", nil, &out)
}

// SetModel sets (or, with "", clears) an agent's model override.
func (c *Client) SetModel(ctx context.Context, id, model, reason string) (agentstate.AgentInfo, error) {
	var out agentstate.AgentInfo
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/model", ModelRequest{Model: model, Reason: reason}, &out)
}

// Suspensions returns an agent's suspensions, newest first: open and
// recently closed, or with openOnly the open ones.
func (c *Client) Suspensions(ctx context.Context, id string, openOnly bool) ([]messages.SuspensionRecord, error) {
	var out SuspensionList
	path := "/agents/" + url.PathEscape(id) + "/suspensions"
	if openOnly {
		path += "?state=" + SuspensionsOpen
	}
	return out.Suspensions, c.do(ctx, http.MethodGet, path, nil, &out)
}

// OpenSuspensions returns every agent's open suspensions, oldest first.
func (c *Client) OpenSuspensions(ctx context.Context) ([]messages.SuspensionRecord, error) {
	var out SuspensionList
	return out.Suspensions, c.do(ctx, http.MethodGet, "/suspensions", nil, &out)
}

// Respond answers suspension sid of agent id. An invalid value is an
// *Error of kind invalid_answer listing the valid choices, if any.
func (c *Client) Respond(ctx context.Context, id, sid string, req RespondRequest) (SuspensionResponse, error) {
	var out SuspensionResponse
	return out, c.do(ctx, http.MethodPost, suspensionPath(id, sid, "respond"), req, &out)
}

// CancelSuspension withdraws suspension sid of agent id.
func (c *Client) CancelSuspension(ctx context.Context, id, sid string, req CancelSuspensionRequest) (SuspensionResponse, error) {
	var out SuspensionResponse
	return out, c.do(ctx, http.MethodPost, suspensionPath(id, sid, "cancel"), req, &out)
}

func suspensionPath(id, sid, op string) string {
	return "/control/agents/" + url.PathEscape(id) + "/suspensions/" + url.PathEscape(sid) + "/" + op
}

// Children returns the private children an agent supervises, oldest
// first; all adds the finished ones it remembers.
func (c *Client) Children(ctx context.Context, id string, all bool) ([]actors.ChildView, error) {
	var out ChildList
	path := "/agents/" + url.PathEscape(id) + "/children"
	if all {
		path += "?all=true"
	}
	return out.Children, c.do(ctx, http.MethodGet, path, nil, &out)
}

// WorkItems returns an agent's work items, oldest first.
func (c *Client) WorkItems(ctx context.Context, id string) ([]actors.WorkItemView, error) {
	var out WorkItemList
	return out.WorkItems, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/work-items", nil, &out)
}

// EnqueueWorkItem creates a queued work item for an agent.
func (c *Client) EnqueueWorkItem(ctx context.Context, id, objective string) (actors.WorkItemView, error) {
	var out actors.WorkItemView
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/work-items", EnqueueWorkItemRequest{Objective: objective}, &out)
}

// Notifications returns the operator notifications of an agent, newest
// first.
func (c *Client) Notifications(ctx context.Context, id string) ([]agentstate.NotificationView, error) {
	var out NotificationList
	return out.Notifications, c.do(ctx, http.MethodGet, "/agents/"+url.PathEscape(id)+"/notifications", nil, &out)
}

// SetTokenBudget sets an agent's token budget (0 is unlimited); reset
// counts its spend from zero again.
func (c *Client) SetTokenBudget(ctx context.Context, id string, tokens int64, reset bool, reason string) (agentstate.AgentInfo, error) {
	var out agentstate.AgentInfo
	req := BudgetRequest{TokenBudget: json.RawMessage(strconv.FormatInt(tokens, 10)), ResetSpend: reset, Reason: reason}
	return out, c.do(ctx, http.MethodPost, "/control/agents/"+url.PathEscape(id)+"/budget", req, &out)
}
