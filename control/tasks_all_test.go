package control_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// goneRuntime is a runtime whose agents vanish between the listing of the
// active ones and the question about their tasks: deleted, or gone
// altogether.
type goneRuntime struct {
	fakeRuntime
	gone map[string]error
}

func (g *goneRuntime) Active() []string { return []string{"gone", "main", "vanished"} }

func (g *goneRuntime) View(ctx context.Context, id string) (actors.AgentView, error) {
	if err := g.gone[id]; err != nil {
		return actors.AgentView{}, err
	}
	return g.fakeRuntime.View(ctx, id)
}

// TestAllTasksSkipsAgentsGoneMeanwhile: GET /tasks lists the tasks of the
// agents still there when one active a moment before was deleted or is
// gone (a busy fleet deletes agents while an operator lists), instead of
// failing the whole listing.
func TestAllTasksSkipsAgentsGoneMeanwhile(t *testing.T) {
	now := time.Now()
	main := actors.AgentView{Info: agentstate.AgentInfo{ID: "main", Active: true}, Tasks: map[string]agentstate.TaskRecord{
		"task_1": {TaskID: "task_1", Kind: "command_task", Status: "running", CreatedAt: now, UpdatedAt: now}}}
	rt := &goneRuntime{fakeRuntime: fakeRuntime{agents: map[string]actors.AgentView{"main": main}},
		gone: map[string]error{
			"gone":     fmt.Errorf("agent gone: %w", actors.ErrAgentDeleted),
			"vanished": fmt.Errorf("agent vanished: %w", actors.ErrNoAgent),
		}}
	c := serveFake(t, rt)
	tasks, err := c.Tasks(context.Background(), "")
	if err != nil || len(tasks) != 1 || tasks[0].AgentID != "main" || tasks[0].TaskID != "task_1" {
		t.Fatalf("Tasks() = %+v, %v; want main's task_1 alone", tasks, err)
	}
}
