package agentstate

// The runtime-owned work-item tools. Like Sleep, the agent runs them
// itself: they change its own journal (its work queue).
const (
	CreateWorkItemToolName   = "CreateWorkItem"
	PickWorkItemToolName     = "PickWorkItem"
	UpdateWorkItemToolName   = "UpdateWorkItem"
	CompleteWorkItemToolName = "CompleteWorkItem"
)

// IsWorkItemTool reports one of the work-item tools.
func IsWorkItemTool(name string) bool {
	switch name {
	case CreateWorkItemToolName, PickWorkItemToolName, UpdateWorkItemToolName, CompleteWorkItemToolName:
		return true
	}
	return false
}
