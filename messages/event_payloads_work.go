package messages

import "time"

// WorkItemCreated records a new open work item, created by the agent's
// CreateWorkItem call or by the control plane's enqueue.
type WorkItemCreated struct {
	Record WorkItemRecord `json:"record"`
}

// Validate checks the record and that it is open.
func (p WorkItemCreated) Validate() error {
	if err := p.Record.Validate(); err != nil {
		return err
	}
	if p.Record.State != WorkItemStateOpen {
		return fieldError(ErrInvalidEvent, "record.state", "a new work item is open")
	}
	return nil
}

// WorkItemUpdated records the full new record of a work item after an
// UpdateWorkItem call or a turn-end blocker commit.
type WorkItemUpdated struct {
	Record WorkItemRecord `json:"record"`
	// TurnID is the turn that changed it, if any.
	TurnID string `json:"turn_id,omitempty"`
}

// Validate checks the record.
func (p WorkItemUpdated) Validate() error { return p.Record.Validate() }

// WorkItemPicked records the agent's current work item: WorkItemID, or no
// current item when it is empty.
type WorkItemPicked struct {
	WorkItemID         string `json:"work_item_id,omitempty"`
	PreviousWorkItemID string `json:"previous_work_item_id,omitempty"`
}

// WorkItemCompleted records a completed work item (Record, state
// completed) and, when the completing round had report text, its delivery
// summary.
type WorkItemCompleted struct {
	Record          WorkItemRecord         `json:"record"`
	DeliverySummary *DeliverySummaryRecord `json:"delivery_summary,omitempty"`
}

// Validate checks the record and that it is completed.
func (p WorkItemCompleted) Validate() error {
	if err := p.Record.Validate(); err != nil {
		return err
	}
	if p.Record.State != WorkItemStateCompleted {
		return fieldError(ErrInvalidEvent, "record.state", "a completed work item is completed")
	}
	if d := p.DeliverySummary; d != nil && d.WorkItemID != p.Record.ID {
		return fieldError(ErrInvalidEvent, "delivery_summary.work_item_id", "names another work item")
	}
	return nil
}

// WorkItemRecheckConsumed records that a blocked work item's recheck
// reminder (due at RecheckAt) was delivered at ConsumedAt.
type WorkItemRecheckConsumed struct {
	WorkItemID string    `json:"work_item_id"`
	RecheckAt  time.Time `json:"recheck_at"`
	ConsumedAt time.Time `json:"consumed_at"`
}

// WorkItemBound records that a turn is bound to the agent's current open
// work item: the turn-end commit applies to that item only.
type WorkItemBound struct {
	TurnID     string `json:"turn_id"`
	WorkItemID string `json:"work_item_id"`
}

func (WorkItemCreated) EventType() EventType         { return EventWorkItemCreated }
func (WorkItemUpdated) EventType() EventType         { return EventWorkItemUpdated }
func (WorkItemPicked) EventType() EventType          { return EventWorkItemPicked }
func (WorkItemCompleted) EventType() EventType       { return EventWorkItemCompleted }
func (WorkItemRecheckConsumed) EventType() EventType { return EventWorkItemRecheckConsumed }
func (WorkItemBound) EventType() EventType           { return EventWorkItemBound }
