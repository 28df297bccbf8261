package agentstate

import (
	"fmt"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"
)

// TaskEnd decides the journaling of a background task's end f, once:
// task_finished (its terminal record) and, in the same batch, the
// task_result message (text) that brings it back to the agent through
// admission (task origin, task_rejoin surface, runtime-owned), which wakes
// an asleep agent; a busy agent's model also learns of it at its next
// carrier. A stopped or archived agent only records the end; an unknown
// task or a repeated end is nil.
func TaskEnd(st *State, env Env, f messages.TaskFinished, text string) Batch {
	rec, ok := st.Tasks[f.TaskID]
	if !ok || rec.Terminal() {
		return nil
	}
	b := Batch{f}
	if st.Status == messages.StatusStopped || st.Status == messages.StatusArchived {
		return b
	}
	m := RuntimeEnvelope(env, messages.KindTaskResult, messages.TaskOrigin(f.TaskID), messages.SurfaceTaskRejoin,
		messages.PriorityNormal, text, map[string]string{"task_id": f.TaskID, "task_status": f.Status})
	m.TaskID = f.TaskID
	b = append(b, messages.MessageAdmitted{Envelope: m})
	b = append(b, WakeOnAdmit(st, "task finished")...)
	if st.Turn != nil {
		// The agent is busy: its model learns now, at the next carrier,
		// rather than only when the task_result's turn comes.
		b = append(b, messages.SystemNotificationQueued{Notification: taskNotification(f, rec)})
	}
	return b
}

// taskNotification is the system notification of a task that ended while
// its agent was busy with another turn.
func taskNotification(f messages.TaskFinished, rec *TaskRecord) messages.SystemNotification {
	summary := truncate(strings.Join(strings.Fields(rec.Summary), " "), 120)
	n := messages.SystemNotification{Kind: "task.finished", Level: messages.LevelInfo,
		Message: fmt.Sprintf("Background task %s (%s) finished while you were working; its result follows as a task_result message, or read it now with TaskOutput.", f.TaskID, summary)}
	if f.Status != taskspec.StatusCompleted {
		n.Kind, n.Level = "task.failed", messages.LevelError
		n.Message = fmt.Sprintf("Background task %s (%s) ended %s while you were working; read it with TaskOutput.", f.TaskID, summary, f.Status)
	}
	return n
}
