package control

import (
	"net/http"
	"strings"
)

// Route is one route of the API, listed for the OpenAPI document and its
// sync test.
type Route struct {
	Method, Pattern, Summary string
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
		{Route{"GET", "/control/runtime/status", "Runtime status: process, activity summary, last failure."}, s.runtimeStatus},
		{Route{"POST", "/control/runtime/shutdown", "Shut the runtime down gracefully (agents keep their status)."}, s.runtimeShutdown},
		{Route{"GET", "/agents/list", "Public agents, one list-sized entry each."}, s.agentsList},
		{Route{"GET", "/agents/{id}/status", "One agent's summary."}, s.forAgent(s.writeStatus)},
		{Route{"GET", "/agents/{id}/state", "One agent's projection bootstrap: summary plus queue, turn and timers."}, s.forAgent(s.writeState)},
		{Route{"GET", "/status", "The default agent's summary."}, s.forDefault(s.writeStatus)},
		{Route{"GET", "/state", "The default agent's projection bootstrap."}, s.forDefault(s.writeState)},
		{Route{"GET", "/agents/{id}/transcript", "The agent's replayable conversation."}, s.agentTranscript},
		{Route{"GET", "/agents/{id}/briefs", "The agent's briefs, oldest first."}, s.agentBriefs},
		{Route{"GET", "/agents/{id}/events", "Journal events after a cursor: JSON pages (at most limit events and about 4 MiB of them; ?last=N pages the newest N instead), or Server-Sent Events when the client accepts text/event-stream (at most --max-event-streams at once; 429 with Retry-After beyond)."}, s.agentEvents},
		{Route{"POST", "/control/agents", "Create a named agent."}, s.createAgent},
		{Route{"POST", "/control/agents/{id}/prompt", "Admit an operator prompt; answers once it is durable."}, s.prompt},
		{Route{"POST", "/control/agents/{id}/stop", "Stop the agent (durable until resume)."}, s.lifecycle},
		{Route{"POST", "/control/agents/{id}/resume", "Resume a stopped or paused agent."}, s.lifecycle},
		{Route{"POST", "/control/agents/{id}/pause", "Pause the agent after its current step."}, s.lifecycle},
		{Route{"POST", "/control/agents/{id}/wake", "Wake a sleeping agent."}, s.lifecycle},
		{Route{"POST", "/control/agents/{id}/interrupt", "End the agent's turn in flight now (keep_message_id spares the turn of that message); it goes on with its queue."}, s.lifecycle},
		{Route{"POST", "/control/agents/{id}/model", "Set the agent's model override ({\"model\": \"openai/gpt-5\"}), or clear it with an empty model."}, s.setModel},
		{Route{"POST", "/control/agents/{id}/retry", "Try the model call the agent's turn waits to retry (after a rate limit, overload, connection failure or 5xx) now, instead of at its due time; 409 when none waits, or when the agent is paused (the resume runs it)."}, s.retryModel},
		{Route{"DELETE", "/control/agents/{id}/retry", "Give up the model retry the agent's turn waits on: the turn fails with the last failure; 409 when none waits."}, s.retryModel},
		{Route{"POST", "/control/agents/{id}/budget", "Set the agent's token budget ({\"token_budget\": N}, 0 for unlimited; \"reset_spend\": true counts from zero again); its status shows the limit and the spend."}, s.setBudget},
		{Route{"POST", "/control/agents/{id}/trigger", "Create, or return, the agent's external trigger capability (its URL is a secret)."}, s.ensureTrigger},
		{Route{"DELETE", "/control/agents/{id}/trigger", "Revoke the agent's external trigger."}, s.revokeTrigger},
		{Route{"GET", "/agents/{id}/suspensions", "The agent's questions to the operator, open and recently closed, newest first; ?state=open for the open ones."}, s.forAgent(s.agentSuspensions)},
		{Route{"GET", "/suspensions", "Every agent's open questions to the operator, oldest first: what a reconnecting client has to answer."}, s.openSuspensions},
		{Route{"POST", "/control/agents/{id}/suspensions/{suspension_id}/respond", "Answer a suspension ({\"value\": …, \"metadata\"}); responded_by is recorded from how the caller authenticated and refused in the body; the first valid answer resumes the agent, the same answer again gets the same response."}, s.respond},
		{Route{"POST", "/control/agents/{id}/suspensions/{suspension_id}/cancel", "Withdraw a suspension's question; the agent resumes and is told so."}, s.cancelSuspension},
		{Route{"GET", "/agents/{id}/notifications", "The operator notifications recorded by or for the agent, newest first, with their delivery status."}, s.forAgent(s.agentNotifications)},
		{Route{"GET", "/agents/{id}/children", "The private children the agent supervises through running tasks (add ?all=true for the finished ones it remembers): supervision task, status, live child_observability and the child_supervision projection."}, s.forAgent(s.agentChildren)},
		{Route{"GET", "/agents/{id}/work-items", "The agent's work items, oldest first: record, current flag, scheduling state and readiness, plan artifact descriptor, completion report."}, s.forAgent(s.agentWorkItems)},
		{Route{"POST", "/control/agents/{id}/work-items", "Enqueue a work item ({\"objective\": \"...\"}): persisted open and queued without a transcript message; the current work item stays current. 201 with the item."}, s.enqueueWorkItem},
		{Route{"POST", "/triggers/{token}", "Deliver an external trigger: a wake hint with provenance. No control token: the path is the capability."}, s.deliverTrigger},
		{Route{"POST", "/ingress/agents/{id}/messages", "Untrusted channel or webhook input (when enabled): admitted as external evidence, never operator authority."}, s.publicIngress},
		{Route{"GET", "/openapi.json", "This API's OpenAPI document."}, s.openAPI},
	}
}

// publicPrefixes are the routes served on TCP without the control token:
// trigger deliveries (the path is the capability) and public ingress.
var publicPrefixes = []string{"/triggers/", "/ingress/"}

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
