package messages

// AgentActivated records an activation of an agent on a cluster node,
// written before the activation does anything else and fenced at the
// journal's highest seq: it moves the stream, so an older activation of
// the same agent elsewhere (a node declared dead that is still running)
// fails its next write and stops. Single-node runtimes do not write it.
type AgentActivated struct {
	// Node is the name of the node the activation runs on.
	Node string `json:"node"`
	// Activation identifies this activation; each start has a new one.
	Activation string `json:"activation"`
}

func (AgentActivated) EventType() EventType { return EventAgentActivated }
