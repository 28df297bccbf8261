package actors

import (
	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// Readiness is the compatibility label projected from a SchedulingState
// (agentstate.Readiness).
type Readiness = agentstate.Readiness

// The readiness labels.
const (
	ReadyRunnable           = agentstate.ReadyRunnable
	ReadyWaitingForOperator = agentstate.ReadyWaitingForOperator
	ReadyBlocked            = agentstate.ReadyBlocked
	ReadyCompleted          = agentstate.ReadyCompleted
)

// WorkItemReminder configures the stale-progress reminder
// (agentstate.WorkItemReminder).
type WorkItemReminder = agentstate.WorkItemReminder

// The reminder defaults (HOLON_WORK_ITEM_STALE_REMINDER_ROUNDS,
// _COOLDOWN_ROUNDS and _MAX_TOKENS override them in cmd).
const (
	DefaultStaleReminderRounds         = agentstate.DefaultStaleReminderRounds
	DefaultStaleReminderCooldownRounds = agentstate.DefaultStaleReminderCooldownRounds
	DefaultStaleReminderMaxTokens      = agentstate.DefaultStaleReminderMaxTokens
)
