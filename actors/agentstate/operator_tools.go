package agentstate

// The runtime-owned operator tools. Like Sleep, the agent runs them itself:
// they change its own lifecycle (a suspension) or journal (a decision, a
// notification).
const (
	RequestInputToolName = "RequestOperatorInput"
	ShouldAskToolName    = "ShouldRequestInput"
	NotifyToolName       = "NotifyOperator"
)
