package control

import (
	"context"
	"errors"
	"net/http"
	"path"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
)

// AgentSummary is the /status surface of one agent.
type AgentSummary struct {
	agentstate.AgentInfo
	TurnIndex         uint64                  `json:"turn_index"`
	TotalInputTokens  uint64                  `json:"total_input_tokens"`
	TotalOutputTokens uint64                  `json:"total_output_tokens"`
	TotalModelRounds  uint64                  `json:"total_model_rounds"`
	LastBriefAt       *time.Time              `json:"last_brief_at,omitempty"`
	LastClosure       *messages.Closure       `json:"last_closure,omitempty"`
	Sleep             *agentstate.SleepRecord `json:"sleep,omitempty"`
	PendingWakeHint   *agentstate.WakeHint    `json:"pending_wake_hint,omitempty"`
	PendingTimers     int                     `json:"pending_timers"`
	// Context is what the model sees of the conversation, and what was
	// compacted out of its view.
	Context agentstate.ContextInfo `json:"context"`
	// Node is the cluster node the agent is active on (cluster nodes only).
	Node string `json:"node,omitempty"`
}

// AgentStateSnapshot is the /state surface: the summary (the same as
// /status) plus what a projection needs before it follows /events.
type AgentStateSnapshot struct {
	Agent        AgentSummary                     `json:"agent"`
	Queue        []QueuedMessage                  `json:"queue"`
	Turn         *agentstate.TurnState            `json:"turn,omitempty"`
	Timers       map[string]agentstate.TimerState `json:"timers,omitempty"`
	LastEventSeq uint64                           `json:"last_event_seq"`
	Conversation int                              `json:"conversation_items"`
}

// QueuedMessage is one queued message, list-sized.
type QueuedMessage struct {
	MessageID string               `json:"message_id"`
	Kind      messages.MessageKind `json:"kind"`
	Priority  messages.Priority    `json:"priority"`
	Origin    messages.OriginKind  `json:"origin"`
	Summary   string               `json:"summary"`
}

func summarize(v actors.AgentView) AgentSummary {
	return AgentSummary{AgentInfo: v.Info, TurnIndex: v.TurnIndex, TotalInputTokens: v.TotalInputTokens,
		TotalOutputTokens: v.TotalOutputTokens, TotalModelRounds: v.TotalModelRounds,
		LastBriefAt: v.LastBriefAt, LastClosure: v.LastClosure, Sleep: v.Sleep,
		PendingWakeHint: v.PendingWakeHint, PendingTimers: len(v.Timers), Context: v.Context}
}

// agentID reads {id} and checks the agent exists; ok is false after an
// error was written.
func (s *Server) agentID(w http.ResponseWriter, r *http.Request) (string, bool) {
	return s.existing(w, r.Context(), r.PathValue("id"))
}

// bodyForAgent decodes the request body into req, then resolves the
// path's existing agent; false when either failed (the error is written).
func (s *Server) bodyForAgent(w http.ResponseWriter, r *http.Request, req any) (string, bool) {
	if e := decodeBody(w, r, req); e != nil {
		writeError(w, e)
		return "", false
	}
	return s.agentID(w, r)
}

func (s *Server) existing(w http.ResponseWriter, ctx context.Context, id string) (string, bool) {
	if e := agentExists(ctx, s.cfg.Runtime, id); e != nil {
		writeError(w, e)
		return "", false
	}
	return id, true
}

// view returns agent id's view, or writes the error.
func (s *Server) view(w http.ResponseWriter, ctx context.Context, id string) (actors.AgentView, bool) {
	v, err := s.cfg.Runtime.View(ctx, id)
	if err != nil {
		writeError(w, runtimeError(err))
		return v, false
	}
	return v, true
}

func (s *Server) agentsList(w http.ResponseWriter, r *http.Request) {
	all, err := s.cfg.Runtime.List(r.Context())
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeList(w, http.StatusOK, AgentList{Agents: publicAgents(all)}) // agent_list_json.go
}

// AgentList answers GET /agents/list.
type AgentList struct {
	Agents []agentstate.AgentInfo `json:"agents"`
}

// agentHandler serves a request about an agent known to exist.
type agentHandler func(w http.ResponseWriter, r *http.Request, id string)

// forAgent serves h for the agent named by {id}; forDefault for the
// default agent (the /status and /state aliases).
func (s *Server) forAgent(h agentHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id, ok := s.agentID(w, r); ok {
			h(w, r, id)
		}
	}
}

func (s *Server) forDefault(h agentHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id, ok := s.existing(w, r.Context(), s.cfg.DefaultAgentID); ok {
			h(w, r, id)
		}
	}
}

func (s *Server) writeStatus(w http.ResponseWriter, r *http.Request, id string) {
	if v, ok := s.view(w, r.Context(), id); ok {
		writeJSON(w, http.StatusOK, s.withNode(summarize(v)))
	}
}

func (s *Server) writeState(w http.ResponseWriter, r *http.Request, id string) {
	v, ok := s.view(w, r.Context(), id)
	if !ok {
		return
	}
	queue := []QueuedMessage{}
	for _, env := range v.Queue {
		queue = append(queue, QueuedMessage{MessageID: env.ID, Kind: env.Kind, Priority: env.Priority,
			Origin: env.Origin.Kind, Summary: oneLine(bodyText(env.Body))})
	}
	writeJSON(w, http.StatusOK, AgentStateSnapshot{Agent: s.withNode(summarize(v)), Queue: queue, Turn: v.Turn,
		Timers: v.Timers, LastEventSeq: v.LastSeq, Conversation: len(v.Conversation)})
}

func (s *Server) agentTranscript(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	last, e := lastParam(r)
	if e != nil {
		writeError(w, e)
		return
	}
	v, ok := s.view(w, r.Context(), id)
	if !ok {
		return
	}
	items := newest(v.Conversation, last)
	if items == nil {
		items = []providers.Item{}
	}
	writeJSON(w, http.StatusOK, Transcript{AgentID: id, Items: items})
}

// Transcript answers GET /agents/{id}/transcript.
type Transcript struct {
	AgentID string           `json:"agent_id"`
	Items   []providers.Item `json:"items"`
}

func (s *Server) agentBriefs(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	last, e := lastParam(r)
	if e != nil {
		writeError(w, e)
		return
	}
	briefs := []messages.Brief{}
	err := s.scan(r.Context(), id, func(ev messages.Event) error {
		if ev.Type != messages.EventBriefRecorded {
			return nil
		}
		p, err := ev.Decode()
		if err != nil {
			return err
		}
		briefs = append(briefs, p.(messages.BriefRecorded).Brief)
		return nil
	})
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusOK, BriefList{AgentID: id, Briefs: newest(briefs, last)})
}

// BriefList answers GET /agents/{id}/briefs.
type BriefList struct {
	AgentID string           `json:"agent_id"`
	Briefs  []messages.Brief `json:"briefs"`
}

// scan calls f on every event of stream id, in pages.
func (s *Server) scan(ctx context.Context, id string, f func(messages.Event) error) error {
	for from := uint64(1); ; {
		evs, err := s.cfg.Store.ReadPage(ctx, id, from, ^uint64(0), MaxPageLimit, MaxPageBytes)
		if err != nil {
			return err
		}
		if len(evs) == 0 {
			return nil
		}
		for _, ev := range evs {
			if err := f(ev); err != nil {
				return err
			}
		}
		from = evs[len(evs)-1].Seq + 1
	}
}

// CreateAgentRequest is the body of POST /control/agents.
type CreateAgentRequest struct {
	AgentID string `json:"agent_id"`
	// CommandPolicy, when set, is the new agent's command policy,
	// journaled with it; without it the configured one applies.
	CommandPolicy *messages.CommandPolicy `json:"command_policy,omitempty"`
	// Template, when set, is what the agent's home is made from: a
	// template id, an absolute directory or a GitHub tree URL.
	Template string `json:"template,omitempty"`
	// Instructions, when set, is the agent's AGENTS.md (over the
	// template's).
	Instructions string `json:"instructions,omitempty"`
	// MCP, when set, is which MCP servers the agent uses: "all", "none"
	// or a comma-separated list of names, journaled with it over
	// config.json mcp_agents.
	MCP string `json:"mcp,omitempty"`
}

func (s *Server) createAgent(w http.ResponseWriter, r *http.Request) {
	var req CreateAgentRequest
	if e := decodeBody(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	if req.AgentID == "" {
		writeError(w, errorf(http.StatusUnprocessableEntity, KindInvalid, "send {\"agent_id\": \"name\"}", "agent_id is empty"))
		return
	}
	exists, err := s.cfg.Runtime.Exists(r.Context(), req.AgentID)
	if errors.Is(err, actors.ErrInvalidAgentID) || errors.Is(err, persistence.ErrInvalidStream) {
		writeError(w, errorf(http.StatusUnprocessableEntity, KindInvalid, "an agent id is "+messages.AgentIDRule,
			"agent_id %q is not a valid agent id", req.AgentID))
		return
	}
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	if exists {
		writeError(w, errorf(http.StatusConflict, KindConflict, "pick another id, or use the existing agent",
			"agent %q already exists", req.AgentID))
		return
	}
	if p := req.CommandPolicy; p != nil {
		if err := p.Validate(); err != nil {
			writeError(w, errorf(http.StatusUnprocessableEntity, KindInvalid,
				`send command_policy as {"allow": ["git"], "deny": ["curl"], "confine_to_root": true}`, "command_policy: %v", err))
			return
		}
	}
	if e := s.checkMCPSelection(req); e != nil {
		writeError(w, e)
		return
	}
	if e := s.makeHome(r.Context(), req); e != nil {
		writeError(w, e)
		return
	}
	in, err := s.activateNew(r.Context(), req)
	if err != nil {
		if s.cfg.Homes != nil {
			_ = s.cfg.Homes.Discard(req.AgentID) // no agent, no home
		}
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusCreated, in)
}

// activateNew creates req's agent: activating creates it; its command
// policy, when given, is its first change.
func (s *Server) activateNew(ctx context.Context, req CreateAgentRequest) (agentstate.AgentInfo, error) {
	if p := req.CommandPolicy; p != nil {
		if err := s.cfg.Runtime.SetCommandPolicy(ctx, req.AgentID, p, "set at creation"); err != nil {
			return agentstate.AgentInfo{}, err
		}
	}
	if err := s.setMCPSelection(ctx, req); err != nil {
		return agentstate.AgentInfo{}, err
	}
	return s.cfg.Runtime.Info(ctx, req.AgentID)
}

// PromptRequest is the body of POST /control/agents/{id}/prompt.
type PromptRequest struct {
	Text     string `json:"text"`
	Priority string `json:"priority,omitempty"`
	// MessageID makes a retried request idempotent: the same id is
	// admitted once. Empty means a new id.
	MessageID string `json:"message_id,omitempty"`
}

// PromptResponse answers an admitted prompt: it is durable.
type PromptResponse struct {
	AgentID   string `json:"agent_id"`
	MessageID string `json:"message_id"`
	EventSeq  uint64 `json:"event_seq"`
	Duplicate bool   `json:"duplicate"`
}

func (s *Server) prompt(w http.ResponseWriter, r *http.Request) {
	var req PromptRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	env := messages.MessageEnvelope{ID: req.MessageID, AgentID: id, CreatedAt: s.cfg.Clock.Now(),
		Kind: messages.KindOperatorPrompt, Origin: messages.OperatorOrigin("control"),
		Body: messages.TextBody(req.Text), DeliverySurface: messages.SurfaceHTTPControlPrompt,
		AdmissionContext: messages.AdmissionControlAuthenticated}
	if env.ID == "" {
		env.ID = messages.NewID("msg")
	}
	prio, e := checkPrompt(req)
	if e != nil {
		writeError(w, e)
		return
	}
	env.Priority = prio
	res, err := s.cfg.Runtime.Admit(r.Context(), env)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	if res.Duplicate { // another surface's (a remote client's) id is not this prompt's
		if e := duplicateOf(r.Context(), s.cfg.Store, env.Origin.ActorID, id, env.ID, res.Seq); e != nil {
			writeError(w, e)
			return
		}
	}
	writeJSON(w, http.StatusAccepted, PromptResponse{AgentID: id, MessageID: res.MessageID, EventSeq: res.Seq, Duplicate: res.Duplicate})
}

// LifecycleRequest is the optional body of the lifecycle routes.
type LifecycleRequest struct {
	Reason string `json:"reason,omitempty"`
	// KeepMessageID, for interrupt, spares the turn of this message (the
	// operator's prompt admitted just before).
	KeepMessageID string `json:"keep_message_id,omitempty"`
}

// LifecycleResponse answers a lifecycle command with the status after it.
type LifecycleResponse struct {
	AgentID string               `json:"agent_id"`
	Status  messages.AgentStatus `json:"status"`
}

func (s *Server) lifecycle(w http.ResponseWriter, r *http.Request) {
	var req LifecycleRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	op := actors.ControlOp(path.Base(r.URL.Path))
	if req.Reason == "" {
		req.Reason = "operator " + string(op)
	}
	var st messages.AgentStatus
	var err error
	if op == actors.OpInterrupt {
		st, err = s.cfg.Runtime.Interrupt(r.Context(), id, req.KeepMessageID, req.Reason)
	} else {
		st, err = s.cfg.Runtime.Control(r.Context(), id, op, req.Reason)
	}
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusOK, LifecycleResponse{AgentID: id, Status: st})
}

// ModelRequest is the body of POST /control/agents/{id}/model.
type ModelRequest struct {
	Model  string `json:"model"`
	Reason string `json:"reason,omitempty"`
}

func (s *Server) setModel(w http.ResponseWriter, r *http.Request) {
	var req ModelRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	in, err := s.cfg.Runtime.SetModel(r.Context(), id, req.Model, req.Reason)
	if errors.Is(err, actors.ErrInvalidModel) {
		writeError(w, errorf(http.StatusUnprocessableEntity, KindInvalid, "use a configured model ref (holon-actors providers doctor), or \"\" to clear", "%v", err))
		return
	}
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusOK, in)
}
