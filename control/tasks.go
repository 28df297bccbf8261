package control

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/tools/task"
)

// TaskView is one background task in a task listing: what it runs, how
// old it is and where it stands.
type TaskView struct {
	AgentID string `json:"agent_id"`
	TaskID  string `json:"task_id"`
	Kind    string `json:"kind"`
	Summary string `json:"summary,omitempty"`
	// Command is the command line of a command task.
	Command string `json:"command,omitempty"`
	// ChildAgentID is the child of a child agent task.
	ChildAgentID string    `json:"child_agent_id,omitempty"`
	Status       string    `json:"status"` // running, completed, failed, cancelled or interrupted
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
	// AgeMS is how long ago the task started, when the listing was made.
	AgeMS      int64 `json:"age_ms"`
	ExitStatus *int  `json:"exit_status,omitempty"`
}

// TaskList is the body of GET /agents/{id}/tasks and GET /tasks: running
// tasks first, then the recent ones the agents remember, newest first.
type TaskList struct {
	Tasks []TaskView `json:"tasks"`
}

func (s *Server) agentTasks(w http.ResponseWriter, r *http.Request, id string) {
	views, err := s.tasksOf(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusOK, TaskList{Tasks: sortTasks(views)})
}

// allTasks lists the tasks of every active agent: a dormant agent runs no
// task (GET /agents/{id}/tasks shows the ones it remembers).
func (s *Server) allTasks(w http.ResponseWriter, r *http.Request) {
	views := []TaskView{}
	for _, id := range s.cfg.Runtime.Active() {
		v, err := s.tasksOf(r.Context(), id)
		switch {
		case errors.Is(err, actors.ErrJournalQuarantined):
			continue // contained since Active answered: its tasks are not known
		case errors.Is(err, actors.ErrAgentDeleted), errors.Is(err, actors.ErrNoAgent):
			continue // deleted since Active answered: it runs nothing now
		case err != nil:
			writeError(w, runtimeError(err))
			return
		}
		views = append(views, v...)
	}
	writeJSON(w, http.StatusOK, TaskList{Tasks: sortTasks(views)})
}

// tasksOf is agent id's task records as views.
func (s *Server) tasksOf(ctx context.Context, id string) ([]TaskView, error) {
	st, err := s.cfg.Runtime.View(ctx, id)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Clock.Now()
	views := make([]TaskView, 0, len(st.Tasks))
	for _, rec := range st.Tasks {
		v := TaskView{AgentID: id, TaskID: rec.TaskID, Kind: rec.Kind, Summary: rec.Summary, Status: rec.Status,
			CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, AgeMS: now.Sub(rec.CreatedAt).Milliseconds(), ExitStatus: rec.ExitStatus}
		if rec.Command != nil {
			v.Command = rec.Command.Command.Cmd
		}
		if rec.Child != nil {
			v.ChildAgentID = rec.Child.ChildAgentID
		}
		views = append(views, v)
	}
	return views, nil
}

// sortTasks puts running tasks first, then newest first.
func sortTasks(v []TaskView) []TaskView {
	sort.SliceStable(v, func(i, j int) bool {
		ri, rj := v[i].Status == task.StatusRunning, v[j].Status == task.StatusRunning
		if ri != rj {
			return ri
		}
		if !v[i].CreatedAt.Equal(v[j].CreatedAt) {
			return v[i].CreatedAt.After(v[j].CreatedAt)
		}
		return v[i].TaskID < v[j].TaskID
	})
	return v
}
