package control

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/memory"
	"github.com/holon-actors/holon-actors/messages"
)

// Route is one route of the API: the server registers its handler from
// the same table, and the OpenAPI document (control/openapi.json) is
// generated from it, so a route cannot be served without being documented.
type Route struct {
	Method, Pattern, Summary string
	// OperationID names the operation in the document and in the clients
	// generated from it; unique.
	OperationID string
	// Request is a value of the JSON body's type; nil: no body.
	Request any
	// Response is a value of the success body's type.
	Response any
	// Status is the success status; 0 means 200.
	Status int
	// Errors are the error kinds of this route besides the ones every
	// route, or every route about an agent or with a body, can answer.
	Errors []string
	// Params are the query and header parameters.
	Params []Param
	// EventStream: the route also answers text/event-stream.
	EventStream bool
	// RequestType and ResponseType, when set, are the media type of a raw
	// (non-JSON) body in place of Request or Response.
	RequestType, ResponseType string
	// Example and ResponseExample are example bodies; nil: none.
	Example, ResponseExample any
}

// Param is a query or header parameter of a route.
type Param struct {
	Name, In, Description string
	// Type is the JSON type of the value: string, integer or boolean.
	Type string
	// Enum, when set, lists the values allowed.
	Enum []string
	// Min and Max bound an integer; nil: unbounded.
	Min, Max *float64
}

// routes registers every route; Routes lists them in the same order.
func (s *Server) routes() {
	for _, rt := range s.table() {
		s.mux.HandleFunc(rt.Method+" "+rt.Pattern, rt.handle)
	}
}

type route struct {
	Route
	handle http.HandlerFunc
}

func (s *Server) table() []route {
	return []route{
		{Route{Method: "GET", Pattern: "/control/runtime/status", OperationID: "runtimeStatus",
			Summary:  "Runtime status: process, activity summary, last failure.",
			Response: RuntimeStatus{}},
			s.runtimeStatus},
		{Route{Method: "POST", Pattern: "/control/runtime/shutdown", OperationID: "shutdownRuntime",
			Summary:  "Shut the runtime down gracefully (agents keep their status).",
			Response: ShutdownResponse{}, Status: http.StatusAccepted, Errors: []string{KindConflict}, ResponseExample: ShutdownResponse{ShuttingDown: true}},
			s.runtimeShutdown},
		{Route{Method: "GET", Pattern: "/agents/list", OperationID: "listAgents",
			Summary:  "Public agents, one list-sized entry each.",
			Response: AgentList{}},
			s.agentsList},
		{Route{Method: "GET", Pattern: "/agents/{id}/status", OperationID: "agentStatus",
			Summary:  "One agent's summary.",
			Response: AgentSummary{}, Errors: []string{KindJournalQuarantined}},
			s.forAgent(s.writeStatus)},
		{Route{Method: "GET", Pattern: "/agents/{id}/state", OperationID: "agentState",
			Summary:  "One agent's projection bootstrap: summary plus queue, turn and timers.",
			Response: AgentStateSnapshot{}, Errors: []string{KindJournalQuarantined}},
			s.forAgent(s.writeState)},
		{Route{Method: "GET", Pattern: "/status", OperationID: "defaultAgentStatus",
			Summary:  "The default agent's summary.",
			Response: AgentSummary{}, Errors: []string{KindJournalQuarantined}},
			s.forDefault(s.writeStatus)},
		{Route{Method: "GET", Pattern: "/state", OperationID: "defaultAgentState",
			Summary:  "The default agent's projection bootstrap.",
			Response: AgentStateSnapshot{}, Errors: []string{KindJournalQuarantined}},
			s.forDefault(s.writeState)},
		{Route{Method: "GET", Pattern: "/agents/{id}/transcript", OperationID: "agentTranscript",
			Summary:  "The agent's replayable conversation (?last=N: its newest N items).",
			Response: Transcript{}, Errors: []string{KindJournalQuarantined}, Params: lastParams},
			s.agentTranscript},
		{Route{Method: "GET", Pattern: "/agents/{id}/briefs", OperationID: "agentBriefs",
			Summary:  "The agent's briefs, oldest first (?last=N: the newest N).",
			Response: BriefList{}, Params: lastParams},
			s.agentBriefs},
		{Route{Method: "GET", Pattern: "/agents/{id}/events", OperationID: "agentEvents",
			Summary:  "Journal events after a cursor, or the newest ones with ?last=N: JSON pages (at most limit events and about 4 MiB of them), or Server-Sent Events when the client accepts text/event-stream (at most --max-event-streams at once; 429 with Retry-After beyond).",
			Response: EventsPage{}, Params: eventParams, EventStream: true},
			s.agentEvents},
		{Route{Method: "POST", Pattern: "/control/agents", OperationID: "createAgent",
			Summary: "Create a named agent.",
			Request: CreateAgentRequest{}, Response: agentstate.AgentInfo{}, Status: http.StatusCreated, Errors: []string{KindInvalid, KindConflict}, Example: CreateAgentRequest{AgentID: "researcher"}},
			s.createAgent},
		{Route{Method: "DELETE", Pattern: "/control/agents/{id}", OperationID: "deleteAgent",
			Summary:  "Delete the agent and its private children (?force=true stops them when they have work in flight, else 409): their journals, snapshots and artifacts go to an archive in the trash, kept for the runtime's --trash-retention; the id is not reused.",
			Response: actors.DeleteResult{}, Errors: []string{KindConflict}, Params: deleteParams},
			s.deleteAgent},
		{Route{Method: "GET", Pattern: "/control/agents/{id}/export", OperationID: "exportAgent",
			Summary:      "The agent and its private children as an agent archive (application/gzip): journals, newest snapshots, artifacts and a manifest with every file's SHA-256.",
			ResponseType: ArchiveContentType, Errors: []string{KindConflict, KindJournalQuarantined}},
			s.exportAgent},
		{Route{Method: "POST", Pattern: "/control/agents/import", OperationID: "importAgent",
			Summary:     "Restore an agent archive (the body, application/gzip): checked whole first (checksums, journals), refused when an id is in use (409) or the archive is damaged (422) with nothing written; 201 once the agents are recovered.",
			RequestType: ArchiveContentType, Response: actors.ImportResult{}, Status: http.StatusCreated, Errors: []string{KindInvalid, KindConflict, KindTooLarge}},
			s.importAgent},
		{Route{Method: "GET", Pattern: "/control/agents/{id}/workspaces", OperationID: "agentWorkspaces",
			Summary:  "The agent's active workspace (id, anchor, mode, execution root, cwd) and its attached workspaces.",
			Response: agentstate.WorkspaceView{}, Errors: []string{KindNotFound}},
			s.agentWorkspaces},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/workspaces/use", OperationID: "useWorkspace",
			Summary: "Make a workspace the agent's active one: a path (attached if new; its anchor is its git root, or the directory) or an attached workspace_id (agent_home: the agent's own home); mode direct works in it, isolated in a runtime-managed worktree of it. Its tools run there from the next call on, across restarts.",
			Request: actors.WorkspaceRequest{}, Response: agentstate.WorkspaceView{}, Errors: []string{KindInvalid, KindNotFound},
			Example: actors.WorkspaceRequest{Path: "/src/shop", Mode: "direct"}},
			s.useWorkspace},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/workspaces/detach", OperationID: "detachWorkspace",
			Summary: "Remove a workspace from the agent's attached set; refused (409) for the active one. Nothing on disk is touched.",
			Request: DetachWorkspaceRequest{}, Response: agentstate.WorkspaceView{}, Errors: []string{KindInvalid, KindNotFound, KindConflict},
			Example: DetachWorkspaceRequest{WorkspaceID: "shop-1a2b3c4d"}},
			s.detachWorkspace},
		{Route{Method: "GET", Pattern: "/control/agents/{id}/debug/prompt", OperationID: "debugPrompt",
			Summary:  "What the agent's next prompt is made of: agent_home, workspace id and anchor, execution root, cwd, command policy, the instruction files loaded (path and kind, read now) and the assembled prompt frame.",
			Response: actors.PromptDebug{}, Errors: []string{KindNotFound}},
			s.debugPrompt},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/prompt", OperationID: "promptAgent",
			Summary: "Admit an operator prompt; answers once it is durable.",
			Request: PromptRequest{}, Response: PromptResponse{}, Status: http.StatusAccepted, Errors: []string{KindInvalid, KindAgentStopped, KindResumeRequired, KindJournalQuarantined}, Example: PromptRequest{Text: "Summarise the open issues.", Priority: "next"}, ResponseExample: PromptResponse{AgentID: "researcher", MessageID: "msg_01J9Z3", EventSeq: 42}},
			s.prompt},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/stop", OperationID: "stopAgent",
			Summary: "Stop the agent (durable until resume).",
			Request: LifecycleRequest{}, Response: LifecycleResponse{}, Errors: []string{KindJournalQuarantined}, Example: LifecycleRequest{Reason: "maintenance window"}, ResponseExample: LifecycleResponse{AgentID: "researcher", Status: messages.StatusStopped}},
			s.lifecycle},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/resume", OperationID: "resumeAgent",
			Summary: "Resume a stopped or paused agent.",
			Request: LifecycleRequest{}, Response: LifecycleResponse{}, Errors: []string{KindJournalQuarantined}, Example: LifecycleRequest{Reason: "maintenance over"}},
			s.lifecycle},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/pause", OperationID: "pauseAgent",
			Summary: "Pause the agent after its current step.",
			Request: LifecycleRequest{}, Response: LifecycleResponse{}, Errors: []string{KindJournalQuarantined, KindAgentStopped}, Example: LifecycleRequest{Reason: "waiting for the release freeze"}},
			s.lifecycle},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/wake", OperationID: "wakeAgent",
			Summary: "Wake a sleeping agent.",
			Request: LifecycleRequest{}, Response: LifecycleResponse{}, Errors: []string{KindJournalQuarantined, KindAgentStopped}, Example: LifecycleRequest{Reason: "new input arrived"}},
			s.lifecycle},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/interrupt", OperationID: "interruptAgent",
			Summary: "End the agent's turn in flight now (keep_message_id spares the turn of that message); it goes on with its queue.",
			Request: LifecycleRequest{}, Response: LifecycleResponse{}, Errors: []string{KindJournalQuarantined, KindAgentStopped}, Example: LifecycleRequest{Reason: "wrong direction", KeepMessageID: "msg_01J9Z3"}},
			s.lifecycle},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/model", OperationID: "setAgentModel",
			Summary: "Set the agent's model override ({\"model\": \"openai/gpt-5\"}), or clear it with an empty model.",
			Request: ModelRequest{}, Response: agentstate.AgentInfo{}, Errors: []string{KindInvalid}, Example: ModelRequest{Model: "openai/gpt-5", Reason: "harder task"}},
			s.setModel},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/retry", OperationID: "retryModelNow",
			Summary:  "Try the model call the agent's turn waits to retry (after a rate limit, overload, connection failure or 5xx) now, instead of at its due time; 409 when none waits, or when the agent is paused (the resume runs it).",
			Response: agentstate.AgentInfo{}, Errors: []string{KindConflict, KindResumeRequired}},
			s.retryModel},
		{Route{Method: "DELETE", Pattern: "/control/agents/{id}/retry", OperationID: "cancelModelRetry",
			Summary:  "Give up the model retry the agent's turn waits on: the turn fails with the last failure; 409 when none waits.",
			Response: agentstate.AgentInfo{}, Errors: []string{KindConflict}},
			s.retryModel},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/budget", OperationID: "setAgentBudget",
			Summary: "Set the agent's token budget ({\"token_budget\": N}, 0 for unlimited; \"reset_spend\": true counts from zero again); its status shows the limit and the spend.",
			Request: BudgetRequest{}, Response: agentstate.AgentInfo{}, Errors: []string{KindInvalid}, Example: BudgetRequest{TokenBudget: json.RawMessage("200000")}},
			s.setBudget},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/trigger", OperationID: "ensureAgentTrigger",
			Summary:  "Create, or return, the agent's external trigger capability (its URL is a secret).",
			Response: TriggerCapability{}, Errors: []string{KindConflict}},
			s.ensureTrigger},
		{Route{Method: "DELETE", Pattern: "/control/agents/{id}/trigger", OperationID: "revokeAgentTrigger",
			Summary:  "Revoke the agent's external trigger.",
			Response: Trigger{}},
			s.revokeTrigger},
		{Route{Method: "GET", Pattern: "/mcp/servers", OperationID: "mcpServers",
			Summary:  "The MCP servers: state, offered tools, crashes, last error; ?agent= keeps the ones that agent uses.",
			Response: MCPServerList{}, Errors: []string{KindUnavailable},
			Params: []Param{{Name: "agent", In: "query", Type: "string", Description: "Only the servers this agent uses."}}},
			s.mcpServers},
		{Route{Method: "GET", Pattern: "/mcp/servers/{name}/tools", OperationID: "mcpServerTools",
			Summary:  "One MCP server's tools as agents are offered them (the server is started if idle).",
			Response: MCPToolList{}, Errors: []string{KindNotFound, KindUnavailable}},
			s.mcpTools},
		{Route{Method: "GET", Pattern: "/agents/{id}/suspensions", OperationID: "agentSuspensions",
			Summary:  "The agent's questions to the operator, open and recently closed, newest first; ?state=open for the open ones.",
			Response: SuspensionList{}, Params: suspensionParams},
			s.forAgent(s.agentSuspensions)},
		{Route{Method: "GET", Pattern: "/suspensions", OperationID: "openSuspensions",
			Summary:  "Every agent's open questions to the operator, oldest first: what a reconnecting client has to answer.",
			Response: SuspensionList{}},
			s.openSuspensions},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/suspensions/{suspension_id}/respond", OperationID: "respondToSuspension",
			Summary: "Answer a suspension ({\"value\": …, \"metadata\"}); responded_by is recorded from how the caller authenticated and refused in the body; the first valid answer resumes the agent, the same answer again gets the same response.",
			Request: RespondRequest{}, Response: SuspensionResponse{}, Errors: []string{KindInvalidAnswer, KindConflict}, Example: RespondRequest{Value: json.RawMessage(`"yes"`)}},
			s.respond},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/suspensions/{suspension_id}/cancel", OperationID: "cancelSuspension",
			Summary: "Withdraw a suspension's question; the agent resumes and is told so.",
			Request: CancelSuspensionRequest{}, Response: SuspensionResponse{}, Errors: []string{KindConflict}, Example: CancelSuspensionRequest{Reason: "no longer needed"}},
			s.cancelSuspension},
		{Route{Method: "GET", Pattern: "/agents/{id}/notifications", OperationID: "agentNotifications",
			Summary:  "The operator notifications recorded by or for the agent, newest first, with their delivery status.",
			Response: NotificationList{}},
			s.forAgent(s.agentNotifications)},
		{Route{Method: "GET", Pattern: "/agents/{id}/children", OperationID: "agentChildren",
			Summary:  "The private children the agent supervises through running tasks (add ?all=true for the finished ones it remembers): supervision task, status, live child_observability and the child_supervision projection.",
			Response: ChildList{}, Params: childrenParams},
			s.forAgent(s.agentChildren)},
		{Route{Method: "GET", Pattern: "/agents/{id}/tasks", OperationID: "agentTasks",
			Summary:  "The agent's background tasks: running ones first, then the recent ones it remembers, newest first; command, child, status and age.",
			Response: TaskList{}, Errors: []string{KindJournalQuarantined}},
			s.forAgent(s.agentTasks)},
		{Route{Method: "GET", Pattern: "/tasks", OperationID: "allTasks",
			Summary:  "The background tasks of every active agent (a dormant agent runs none), running first, then newest first.",
			Response: TaskList{}},
			s.allTasks},
		{Route{Method: "GET", Pattern: "/agents/{id}/work-items", OperationID: "agentWorkItems",
			Summary:  "The agent's work items, oldest first: record, current flag, scheduling state and readiness, plan artifact descriptor, completion report.",
			Response: WorkItemList{}},
			s.forAgent(s.agentWorkItems)},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/work-items", OperationID: "enqueueWorkItem",
			Summary: "Enqueue a work item ({\"objective\": \"...\"}): persisted open and queued without a transcript message; the current work item stays current. 201 with the item.",
			Request: EnqueueWorkItemRequest{}, Response: actors.WorkItemView{}, Status: http.StatusCreated, Errors: []string{KindInvalid}, Example: EnqueueWorkItemRequest{Objective: "Triage the failing nightly build."}},
			s.enqueueWorkItem},
		{Route{Method: "GET", Pattern: "/agents/{id}/memory/search", OperationID: "agentMemorySearch",
			Summary:  "Search the agent's memory (its memory files, briefs, episodes, work items and delivery summaries) in its active workspace and its agent-scoped memory, or ?all_workspaces=true; hits best first, with provenance and a source_ref.",
			Response: MemorySearchResult{}, Params: memorySearchParams, Errors: []string{KindInvalid, KindUnavailable}},
			s.forAgent(s.agentMemorySearch)},
		{Route{Method: "GET", Pattern: "/agents/{id}/memory/get", OperationID: "agentMemoryGet",
			Summary:  "The exact original text of a memory search hit by its source_ref (?max_chars=N, default 12000, at most 50000), with its provenance and a truncated flag.",
			Response: memory.Got{}, Params: memoryGetParams, Errors: []string{KindInvalid, KindNotFound, KindUnavailable}},
			s.forAgent(s.agentMemoryGet)},
		{Route{Method: "GET", Pattern: "/agents/{id}/timers", OperationID: "agentTimers",
			Summary:  "The agent's timers (created by it or its operator), the next due first: schedule, policies, next fire, fires so far, runs not yet reported.",
			Response: TimerList{}},
			s.forAgent(s.agentTimers)},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/timers", OperationID: "createTimer",
			Summary: "Create a timer: its message is delivered as a runtime-origin timer_tick (never operator authority) at a time (at, after), every interval, or on a cron expression in an IANA zone; policies missed (skip, run_once, run_all) and overlap (queue, skip). 201 with the timer.",
			Request: actors.TimerRequest{}, Response: actors.TimerView{}, Status: http.StatusCreated, Errors: []string{KindInvalid, KindConflict, KindAgentStopped},
			Example: actors.TimerRequest{Message: "Post the daily report.", Cron: "0 9 * * *", Zone: "Europe/Paris"}},
			s.createTimer},
		{Route{Method: "DELETE", Pattern: "/control/agents/{id}/timers/{timer}", OperationID: "cancelTimer",
			Summary:  "Cancel a timer; a fire already delivered still runs.",
			Response: TimerList{}, Errors: []string{KindNotFound}},
			s.changeTimer(actors.TimerCancel)},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/timers/{timer}/pause", OperationID: "pauseTimer",
			Summary:  "Pause a timer: it does not fire until resumed, and the runs it would have had are not owed.",
			Response: TimerList{}, Errors: []string{KindNotFound}},
			s.changeTimer(actors.TimerPause)},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/timers/{timer}/resume", OperationID: "resumeTimer",
			Summary:  "Resume a paused timer at its next run after now.",
			Response: TimerList{}, Errors: []string{KindNotFound, KindAgentStopped}},
			s.changeTimer(actors.TimerResume)},
		{Route{Method: "POST", Pattern: "/control/agents/{id}/timers/{timer}/run", OperationID: "runTimerNow",
			Summary:  "Deliver one fire of the timer now; its schedule is unchanged.",
			Response: TimerList{}, Errors: []string{KindNotFound, KindAgentStopped}},
			s.changeTimer(actors.TimerRunNow)},
		{Route{Method: "POST", Pattern: "/triggers/{token}", OperationID: "deliverTrigger",
			Summary: "Deliver an external trigger: a wake hint with provenance. No control token: the path is the capability.",
			Request: TriggerDelivery{}, Response: TriggerResult{}, Status: http.StatusAccepted, Example: TriggerDelivery{Source: "ci", Reason: "nightly build finished", DeliveryID: "build-4711"}},
			s.deliverTrigger},
		{Route{Method: "POST", Pattern: "/ingress/agents/{id}/messages", OperationID: "ingestMessage",
			Summary: "Untrusted channel or webhook input (when enabled): admitted as external evidence, never operator authority.",
			Request: IngressMessage{}, Response: PromptResponse{}, Status: http.StatusAccepted, Errors: []string{KindInvalid}, Example: IngressMessage{Source: "github", Event: "issue_comment", Text: "The fix works for me."}},
			s.publicIngress},
		{Route{Method: "GET", Pattern: "/metrics", OperationID: "metrics",
			Summary:      "The runtime's metrics in the Prometheus text format: turns, model rounds, tokens, tools, retries, journal appends, Go runtime (README: Observability).",
			ResponseType: MetricsContentType},
			s.metrics},
		{Route{Method: "GET", Pattern: "/openapi.json", OperationID: "openAPIDocument",
			Summary:  "This API's OpenAPI document.",
			Response: map[string]any{}},
			s.openAPI},
	}
}

// The query and header parameters of the routes that take some.
var (
	eventParams = []Param{
		{Name: "last", In: "query", Type: "integer", Min: ptr(1.0), Max: ptr(float64(MaxLast)),
			Description: "The newest N events instead of the ones after a cursor (not with after)."},
		{Name: "after", In: "query", Type: "integer", Min: ptr(0.0),
			Description: "The event_seq to read after (0: from the start); a stream resumes from Last-Event-ID when it is not set."},
		{Name: "limit", In: "query", Type: "integer", Min: ptr(1.0), Max: ptr(float64(MaxPageLimit)),
			Description: "The most events on a JSON page (default 100)."},
		{Name: "Last-Event-ID", In: "header", Type: "integer", Min: ptr(0.0),
			Description: "The event_seq a resuming event stream last took."},
	}
	suspensionParams = []Param{{Name: "state", In: "query", Type: "string", Enum: []string{SuspensionsOpen},
		Description: "open: only the open suspensions; unset: open and recently closed."}}
	lastParams = []Param{{Name: "last", In: "query", Type: "integer", Min: ptr(1.0), Max: ptr(float64(MaxLast)),
		Description: "Only the newest N entries."}}
	deleteParams = []Param{{Name: "force", In: "query", Type: "boolean",
		Description: "true: stop the agent and its children first when they have work in flight."}}
	childrenParams = []Param{{Name: "all", In: "query", Type: "boolean",
		Description: "true: also the finished children the agent remembers."}}
)

func ptr[T any](v T) *T { return &v }

// publicPrefixes are the routes served on TCP without the control token:
// trigger deliveries (the path is the capability) and public ingress.
var publicPrefixes = []string{"/triggers/", "/ingress/"}

// IsPublic reports whether path is one of the public routes: served on
// TCP without the control token, and to the runtime's own tool processes.
func IsPublic(path string) bool { return isPublic(path) }

// isPublic reports whether path is one of the public routes.
func isPublic(path string) bool {
	for _, p := range publicPrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// Routes lists the API's routes.
func (s *Server) Routes() []Route {
	t := s.table()
	out := make([]Route, len(t))
	for i, r := range t {
		out[i] = r.Route
	}
	return out
}
