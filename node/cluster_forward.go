package node

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/cluster/clusterpb"
	"github.com/holon-actors/holon-actors/control"
)

// maxForwardBody bounds the body of a request forwarded to another node.
const maxForwardBody = 8 << 20

// forwardTimeout bounds a forwarded request, failover included.
const forwardTimeout = 30 * time.Second

// forward serves a control API request about an agent at the node the
// cluster places the agent on (this one included: the agent's grain
// serves it through the local API). Reads of the shared journal (events,
// the agent list, runtime status) are served here.
func (n *Node) forward(w http.ResponseWriter, r *http.Request) bool {
	id, ok := n.agentOf(r)
	if !ok {
		return false
	}
	node := n.cl.node.Load()
	if node == nil {
		control.WriteError(w, &control.Error{Status: http.StatusServiceUnavailable, Kind: control.KindUnavailable,
			Message: "this node has not joined its cluster yet (or is leaving it)", Hint: "retry in a moment, or ask another node"})
		return true
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxForwardBody+1))
	if err != nil || len(body) > maxForwardBody {
		control.WriteError(w, &control.Error{Status: http.StatusRequestEntityTooLarge, Kind: control.KindBadRequest,
			Message: fmt.Sprintf("the request body is over %d bytes or unreadable", maxForwardBody), Hint: "send a smaller body"})
		return true
	}
	ctx, cancel := context.WithTimeout(r.Context(), forwardTimeout)
	defer cancel()
	res, err := node.Call(ctx, n.rt.PlacementKey(id), &clusterpb.AgentCall{AgentId: id, Method: r.Method,
		Path: r.URL.RequestURI(), Body: body, Headers: forwardedHeaders(r.Header)})
	if err != nil {
		control.WriteError(w, &control.Error{Status: http.StatusServiceUnavailable, Kind: control.KindUnavailable,
			Message: fmt.Sprintf("agent %s: its node did not answer: %v", id, err), Hint: "retry: the cluster moves the agent off a node that died"})
		return true
	}
	if ct := res.GetContentType(); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("X-Holon-Node", res.GetNode())
	w.WriteHeader(int(res.GetStatus()))
	_, _ = w.Write(res.GetBody())
	return true
}

// forwardedHeaders are the headers of h the control API reads
// (control.ForwardedHeaders), for the owner to serve the same request.
func forwardedHeaders(h http.Header) map[string]string {
	var out map[string]string
	for _, k := range control.ForwardedHeaders() {
		if v := h.Get(k); v != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// agentOf is the agent a request is about, when its node must serve it:
// the routes under /agents/{id}/ and /control/agents/{id}, the default
// agent's /status and /state, the creation of an agent (its id is in the
// body), ingress messages and trigger deliveries (their trigger names
// the agent). Event reads and streams are served from the shared journal
// here.
func (n *Node) agentOf(r *http.Request) (string, bool) {
	p := r.URL.Path
	switch {
	case p == "/status" || p == "/state":
		return n.cfg.Agents.DefaultAgent, true
	case p == "/control/agents" && r.Method == http.MethodPost:
		return createdAgent(r)
	case strings.HasPrefix(p, "/triggers/"):
		return n.triggerAgent(r)
	}
	for _, prefix := range []string{"/control/agents/", "/agents/", "/ingress/agents/"} {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		id, tail, _ := strings.Cut(rest, "/")
		switch {
		case id == "" || (prefix == "/agents/" && id == "list") || (prefix == "/control/agents/" && id == "import"):
			return "", false
		case tail == "events" && r.Method == http.MethodGet:
			return "", false
		}
		return id, true
	}
	return "", false
}

// createdAgent reads the id of an agent creation's body, leaving the
// body for the handler; an unreadable one is the handler's to refuse.
func createdAgent(r *http.Request) (string, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxForwardBody+1))
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	if err != nil {
		return "", false
	}
	var req struct {
		ID string `json:"agent_id"`
	}
	if json.Unmarshal(body, &req) != nil || req.ID == "" {
		return "", false
	}
	return req.ID, true
}

// forwarder is the control API's Forward of a cluster node, nil for a
// single node.
func (n *Node) forwarder() control.Forwarder {
	if !n.clustered() {
		return nil
	}
	return n.forward
}
