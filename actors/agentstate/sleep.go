package agentstate

// SleepToolName is the runtime-owned tool that ends a turn with the agent
// asleep. The agent runs it itself: it changes the agent's own lifecycle.
const SleepToolName = "Sleep"
