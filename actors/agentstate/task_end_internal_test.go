package agentstate

import (
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestTaskEnd(t *testing.T) {
	running := func() map[string]*TaskRecord {
		return map[string]*TaskRecord{"task-1": {TaskID: "task-1", Summary: "make   test", Status: "running"}}
	}
	done := messages.TaskFinished{TaskID: "task-1", Status: "completed"}
	failed := messages.TaskFinished{TaskID: "task-1", Status: "failed"}
	cases := []struct {
		name  string
		st    *State
		f     messages.TaskFinished
		types []string
		kind  string // of the system notification, if any
	}{
		{"idle", &State{Status: messages.StatusAwakeIdle, Tasks: running()}, done, []string{"task_finished", "message_admitted"}, ""},
		{"asleep: it wakes", &State{Status: messages.StatusAsleep, Tasks: running()}, done,
			[]string{"task_finished", "message_admitted", "agent_state_changed"}, ""},
		{"busy: the model learns now", &State{Status: messages.StatusAwakeRunning, Tasks: running(), Turn: turnAt("")}, failed,
			[]string{"task_finished", "message_admitted", "system_notification_queued"}, "task.failed"},
		{"stopped: only the end", &State{Status: messages.StatusStopped, Tasks: running()}, done, []string{"task_finished"}, ""},
		{"unknown task", &State{Status: messages.StatusAwakeIdle}, done, nil, ""},
		{"already ended", &State{Status: messages.StatusAwakeIdle, Tasks: map[string]*TaskRecord{"task-1": {TaskID: "task-1", Status: "completed"}}}, done, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := TaskEnd(c.st, testEnv(), c.f, "Task task-1 completed.")
			if !slices.Equal(eventTypes(b), c.types) {
				t.Fatalf("TaskEnd = %v, want %v", eventTypes(b), c.types)
			}
			if len(b) > 1 {
				m := only[messages.MessageAdmitted](t, b).Envelope
				if m.Kind != messages.KindTaskResult || m.TaskID != "task-1" || m.SourceRefs["task_status"] != c.f.Status || m.DeliverySurface != messages.SurfaceTaskRejoin {
					t.Errorf("task result = %+v", m)
				}
			}
			if c.kind != "" {
				if n := only[messages.SystemNotificationQueued](t, b).Notification; n.Kind != c.kind || n.Level != messages.LevelError {
					t.Errorf("notification = %+v, want %s", n, c.kind)
				}
			}
		})
	}
}
