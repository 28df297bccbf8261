package agentstate

// The source refs of a work-queue SystemTick: WorkTickRef says why it was
// queued (TickContinue, TickPick, TickRecheck), WorkItemRef names the item.
const (
	WorkTickRef  = "work_queue"
	WorkItemRef  = "work_item_id"
	TickContinue = "continue"
	TickPick     = "pick"
	TickRecheck  = "recheck"
)
