package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
)

// The agent's state moved to actors/agentstate; these names stay for one
// release (STYLE §8).

// AgentState is agentstate.State.
//
// Deprecated: use agentstate.State.
type AgentState = agentstate.State

// TokenBudgetState is agentstate.TokenBudgetState.
//
// Deprecated: use agentstate.TokenBudgetState.
type TokenBudgetState = agentstate.TokenBudgetState

// TokenBudgetInfo is agentstate.TokenBudgetInfo.
//
// Deprecated: use agentstate.TokenBudgetInfo.
type TokenBudgetInfo = agentstate.TokenBudgetInfo

// LaunchRecord is agentstate.LaunchRecord.
//
// Deprecated: use agentstate.LaunchRecord.
type LaunchRecord = agentstate.LaunchRecord

// Compaction is agentstate.Compaction.
//
// Deprecated: use agentstate.Compaction.
type Compaction = agentstate.Compaction

// ContextInfo is agentstate.ContextInfo.
//
// Deprecated: use agentstate.ContextInfo.
type ContextInfo = agentstate.ContextInfo

// LoopState is agentstate.LoopState.
//
// Deprecated: use agentstate.LoopState.
type LoopState = agentstate.LoopState

// ModelRetryState is agentstate.ModelRetryState.
//
// Deprecated: use agentstate.ModelRetryState.
type ModelRetryState = agentstate.ModelRetryState

// ModelRetryInfo is agentstate.ModelRetryInfo.
//
// Deprecated: use agentstate.ModelRetryInfo.
type ModelRetryInfo = agentstate.ModelRetryInfo

// NotificationView is agentstate.NotificationView.
//
// Deprecated: use agentstate.NotificationView.
type NotificationView = agentstate.NotificationView

// NotificationDelivery is agentstate.NotificationDelivery.
//
// Deprecated: use agentstate.NotificationDelivery.
type NotificationDelivery = agentstate.NotificationDelivery

// ChoiceArg is runtimetools.ChoiceArg.
//
// Deprecated: use runtimetools.ChoiceArg.
type ChoiceArg = runtimetools.ChoiceArg

// RetryPolicyArg is runtimetools.RetryPolicyArg.
//
// Deprecated: use runtimetools.RetryPolicyArg.
type RetryPolicyArg = runtimetools.RetryPolicyArg

// RequestInputArgs is runtimetools.RequestInputArgs.
//
// Deprecated: use runtimetools.RequestInputArgs.
type RequestInputArgs = runtimetools.RequestInputArgs

// OpenFact is agentstate.OpenFact.
//
// Deprecated: use agentstate.OpenFact.
type OpenFact = agentstate.OpenFact

// SleepArgs is runtimetools.SleepArgs.
//
// Deprecated: use runtimetools.SleepArgs.
type SleepArgs = runtimetools.SleepArgs

// ChildTaskRecord is agentstate.ChildTaskRecord.
//
// Deprecated: use agentstate.ChildTaskRecord.
type ChildTaskRecord = agentstate.ChildTaskRecord

// TimerState is agentstate.TimerState.
//
// Deprecated: use agentstate.TimerState.
type TimerState = agentstate.TimerState

// SleepRecord is agentstate.SleepRecord.
//
// Deprecated: use agentstate.SleepRecord.
type SleepRecord = agentstate.SleepRecord

// WakeHint is agentstate.WakeHint.
//
// Deprecated: use agentstate.WakeHint.
type WakeHint = agentstate.WakeHint

// TurnState is agentstate.TurnState.
//
// Deprecated: use agentstate.TurnState.
type TurnState = agentstate.TurnState

// Queue is agentstate.Queue.
//
// Deprecated: use agentstate.Queue.
type Queue = agentstate.Queue

// AgentInfo is agentstate.AgentInfo.
//
// Deprecated: use agentstate.AgentInfo.
type AgentInfo = agentstate.AgentInfo

// TaskRecord is agentstate.TaskRecord.
//
// Deprecated: use agentstate.TaskRecord.
type TaskRecord = agentstate.TaskRecord

// WatchdogState is agentstate.WatchdogState.
//
// Deprecated: use agentstate.WatchdogState.
type WatchdogState = agentstate.WatchdogState

// WorkQueueState is agentstate.WorkQueueState.
//
// Deprecated: use agentstate.WorkQueueState.
type WorkQueueState = agentstate.WorkQueueState

// WorkTick is agentstate.WorkTick.
//
// Deprecated: use agentstate.WorkTick.
type WorkTick = agentstate.WorkTick

// WorkBackoff is agentstate.WorkBackoff.
//
// Deprecated: use agentstate.WorkBackoff.
type WorkBackoff = agentstate.WorkBackoff

// TurnWork is agentstate.TurnWork.
//
// Deprecated: use agentstate.TurnWork.
type TurnWork = agentstate.TurnWork

// SchedulingState is agentstate.SchedulingState.
//
// Deprecated: use agentstate.SchedulingState.
type SchedulingState = agentstate.SchedulingState

// Constants that moved to agentstate.
//
// Deprecated: use the agentstate names.
const (
	BudgetSourceAgent              = agentstate.BudgetSourceAgent
	BudgetSourceDefault            = agentstate.BudgetSourceDefault
	BudgetSourceNone               = agentstate.BudgetSourceNone
	DefaultCompactionTriggerTokens = agentstate.DefaultCompactionTriggerTokens
	DefaultCompactionKeepTokens    = agentstate.DefaultCompactionKeepTokens
	DefaultCompactionSummaryChars  = agentstate.DefaultCompactionSummaryChars
	RequestInputToolName           = agentstate.RequestInputToolName
	ShouldAskToolName              = agentstate.ShouldAskToolName
	NotifyToolName                 = agentstate.NotifyToolName
	FactQueuedMessages             = agentstate.FactQueuedMessages
	FactTurnInFlight               = agentstate.FactTurnInFlight
	FactPendingTimer               = agentstate.FactPendingTimer
	FactPendingWakeHint            = agentstate.FactPendingWakeHint
	FactActiveTask                 = agentstate.FactActiveTask
	FactRunnableWorkItem           = agentstate.FactRunnableWorkItem
	SleepToolName                  = agentstate.SleepToolName
	CreateWorkItemToolName         = agentstate.CreateWorkItemToolName
	PickWorkItemToolName           = agentstate.PickWorkItemToolName
	UpdateWorkItemToolName         = agentstate.UpdateWorkItemToolName
	CompleteWorkItemToolName       = agentstate.CompleteWorkItemToolName
	SchedRunnable                  = agentstate.SchedRunnable
	SchedWaitingOperator           = agentstate.SchedWaitingOperator
	SchedWaitingTask               = agentstate.SchedWaitingTask
	SchedWaitingExternal           = agentstate.SchedWaitingExternal
	SchedBlocked                   = agentstate.SchedBlocked
	SchedCompleted                 = agentstate.SchedCompleted
)

// OpenFacts returns agentstate.OpenFacts(st).
//
// Deprecated: use agentstate.OpenFacts.
func OpenFacts(st *agentstate.State) []agentstate.OpenFact { return agentstate.OpenFacts(st) }

// SnapshotOpenFacts returns agentstate.SnapshotOpenFacts(data).
//
// Deprecated: use agentstate.SnapshotOpenFacts.
func SnapshotOpenFacts(data []byte) ([]agentstate.OpenFact, error) {
	return agentstate.SnapshotOpenFacts(data)
}
