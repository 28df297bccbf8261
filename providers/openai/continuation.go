package openai

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/holon-actors/holon-actors/providers"
)

// maxSnapshots bounds the continuation snapshots one transport keeps; past
// it the oldest scope is forgotten (its next request goes in full).
const maxSnapshots = 1024

// snapshot is what the last successful request of one scope (agent id and
// prompt cache key) sent and got back, each input item as canonical JSON.
type snapshot struct {
	model      string
	tools      string   // the tools array as sent
	items      []string // the full input, then the response's output lowered as input
	responseID string
}

// continuations holds the snapshots of an incremental transport. The
// transport is shared by many agents, so it is guarded by a mutex.
type continuations struct {
	mu    sync.Mutex
	snaps map[string]snapshot
	order []string // scopes, oldest first
}

// scopeOf is the continuation scope of a request; "" when it has no cache
// identity, which means no continuation.
func scopeOf(req providers.Request) string {
	c := req.Frame.Cache
	if c == nil || c.AgentID == "" || c.PromptCacheKey == "" {
		return ""
	}
	return c.AgentID + "\x00" + c.PromptCacheKey
}

// plan is a request body ready to send plus what to remember on success.
type plan struct {
	body        request
	incremental bool
	scope       string
	full        []string // canonical JSON of the full input
	tools       string
}

// lower decides between a full and an incremental request: incremental
// only when the scope's snapshot is a strict prefix of the new full input
// with the same model and tools; any doubt means a full request.
func (c *continuations) lower(req providers.Request, body request) plan {
	pl := plan{body: body, scope: scopeOf(req)}
	if c == nil || pl.scope == "" {
		return pl
	}
	items := body.Input
	pl.full = canonical(items)
	pl.tools = canonicalOne(body.Tools)
	if pl.full == nil || pl.tools == "" {
		return pl
	}
	c.mu.Lock()
	snap, ok := c.snaps[pl.scope]
	c.mu.Unlock()
	if !ok || snap.model != body.Model || snap.tools != pl.tools || snap.responseID == "" ||
		len(pl.full) <= len(snap.items) || !slices.Equal(pl.full[:len(snap.items)], snap.items) {
		return pl
	}
	pl.body.PreviousResponseID = snap.responseID
	pl.body.Input = items[len(snap.items):]
	pl.incremental = true
	return pl
}

// remember records a successful round: the full input plus the reply,
// lowered the way the runtime will replay it (an assistant item).
func (c *continuations) remember(pl plan, resp providers.Response) {
	if c == nil || pl.scope == "" || pl.full == nil || resp.ResponseID == "" {
		return
	}
	reply := canonical(inputItems([]providers.Item{{Kind: providers.ItemAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls}}))
	if reply == nil {
		c.forget(pl.scope)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.snaps[pl.scope]; !ok {
		c.order = append(c.order, pl.scope)
	}
	c.snaps[pl.scope] = snapshot{model: pl.body.Model, tools: pl.tools, items: append(pl.full, reply...), responseID: resp.ResponseID}
	for len(c.order) > maxSnapshots {
		delete(c.snaps, c.order[0])
		c.order = c.order[1:]
	}
}

// forget drops a scope's snapshot after any failure.
func (c *continuations) forget(scope string) {
	if c == nil || scope == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.snaps[scope]; ok {
		delete(c.snaps, scope)
		c.order = slices.DeleteFunc(c.order, func(s string) bool { return s == scope })
	}
}

// canonical marshals each item; nil when one fails.
func canonical(items []inputItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		s := canonicalOne(it)
		if s == "" {
			return nil
		}
		out = append(out, s)
	}
	return out
}

func canonicalOne(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
