package messages

// AgentStatus is an agent's runtime control posture. It is not the source of
// truth for whether work is complete: that is Closure.
type AgentStatus string

// The agent statuses.
const (
	StatusBooting      AgentStatus = "booting"                  // initializing agent resources
	StatusAwakeIdle    AgentStatus = "awake_idle"               // ready to run; queue may be empty
	StatusAwakeRunning AgentStatus = "awake_running"            // actively processing a run
	StatusAwaitingTask AgentStatus = "awaiting_task"            // waiting on a blocking delegated task
	StatusAsleep       AgentStatus = "asleep"                   // intentionally dormant
	StatusSuspended    AgentStatus = "suspended_awaiting_input" // blocked on an operator's answer (RFC-0025)
	StatusPaused       AgentStatus = "paused"                   // paused by the operator or policy
	StatusStopped      AgentStatus = "stopped"                  // terminal until an explicit resume
	StatusArchived     AgentStatus = "archived"                 // a private child whose supervision ended; final
)

var agentStatuses = enum[AgentStatus]{name: "agent status", values: []AgentStatus{
	StatusBooting, StatusAwakeIdle, StatusAwakeRunning, StatusAwaitingTask,
	StatusAsleep, StatusPaused, StatusStopped, StatusSuspended, StatusArchived,
}}

// String returns the AgentStatus as spelled in JSON.
func (s AgentStatus) String() string { return string(s) }

// Valid reports whether s is one of the spec's agent statuses.
func (s AgentStatus) Valid() bool { return agentStatuses.valid(s) }

// UnmarshalText parses an agent status, rejecting unknown values.
func (s *AgentStatus) UnmarshalText(text []byte) error { return agentStatuses.unmarshal(s, text) }

// ParseAgentStatus returns the AgentStatus spelled s or an error wrapping
// ErrUnknownValue.
func ParseAgentStatus(s string) (AgentStatus, error) { return agentStatuses.parse(s) }

// AgentKind says how an agent came to exist.
type AgentKind string

// The agent kinds.
const (
	AgentDefault AgentKind = "default" // the agent untargeted input resolves to
	AgentNamed   AgentKind = "named"   // a public agent created explicitly
	AgentChild   AgentKind = "child"   // a private child spawned by another agent
)

var agentKinds = enum[AgentKind]{name: "agent kind", values: []AgentKind{AgentDefault, AgentNamed, AgentChild}}

// String returns the AgentKind as spelled in JSON.
func (k AgentKind) String() string { return string(k) }

// Valid reports whether k is one of the spec's agent kinds.
func (k AgentKind) Valid() bool { return agentKinds.valid(k) }

// UnmarshalText parses an agent kind, rejecting unknown values.
func (k *AgentKind) UnmarshalText(text []byte) error { return agentKinds.unmarshal(k, text) }

// ParseAgentKind returns the AgentKind spelled s or an error wrapping
// ErrUnknownValue.
func ParseAgentKind(s string) (AgentKind, error) { return agentKinds.parse(s) }

// Visibility says whether an agent appears in public listings and routes.
type Visibility string

// The agent visibilities.
const (
	VisibilityPublic  Visibility = "public"
	VisibilityPrivate Visibility = "private"
)

var visibilities = enum[Visibility]{name: "visibility", values: []Visibility{VisibilityPublic, VisibilityPrivate}}

// String returns the Visibility as spelled in JSON.
func (v Visibility) String() string { return string(v) }

// Valid reports whether v is one of the spec's visibilities.
func (v Visibility) Valid() bool { return visibilities.valid(v) }

// UnmarshalText parses a visibility, rejecting unknown values.
func (v *Visibility) UnmarshalText(text []byte) error { return visibilities.unmarshal(v, text) }

// ParseVisibility returns the Visibility spelled s or an error wrapping
// ErrUnknownValue.
func ParseVisibility(s string) (Visibility, error) { return visibilities.parse(s) }

// Ownership says who supervises an agent.
type Ownership string

// The agent ownerships.
const (
	OwnershipSelfOwned        Ownership = "self_owned"
	OwnershipParentSupervised Ownership = "parent_supervised"
)

var ownerships = enum[Ownership]{name: "ownership", values: []Ownership{OwnershipSelfOwned, OwnershipParentSupervised}}

// String returns the Ownership as spelled in JSON.
func (o Ownership) String() string { return string(o) }

// Valid reports whether o is one of the spec's ownerships.
func (o Ownership) Valid() bool { return ownerships.valid(o) }

// UnmarshalText parses an ownership, rejecting unknown values.
func (o *Ownership) UnmarshalText(text []byte) error { return ownerships.unmarshal(o, text) }

// ParseOwnership returns the Ownership spelled s or an error wrapping
// ErrUnknownValue.
func ParseOwnership(s string) (Ownership, error) { return ownerships.parse(s) }
