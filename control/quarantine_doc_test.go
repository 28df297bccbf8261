package control_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
)

// quarantinedRuntime answers every question about its agents as a
// runtime whose journal of them is quarantined.
type quarantinedRuntime struct{ fakeRuntime }

func (q *quarantinedRuntime) CheckExport(context.Context, string) error { return q.err }

// TestQuarantinedAnswersAreDocumented: the tasks and export routes answer
// 409 journal_quarantined for an agent whose journal is quarantined, and
// their routes (so control/openapi.json) list that kind.
func TestQuarantinedAnswersAreDocumented(t *testing.T) {
	rt := &quarantinedRuntime{fakeRuntime{agents: map[string]actors.AgentView{"main": {Info: agentstate.AgentInfo{ID: "main"}}},
		err: fmt.Errorf("agent main: %w", actors.ErrJournalQuarantined)}}
	c := serveFake(t, rt)
	ctx := context.Background()
	_, err := c.Tasks(ctx, "main")
	apiError(t, err, http.StatusConflict, control.KindJournalQuarantined)
	apiError(t, c.ExportAgent(ctx, "main", io.Discard), http.StatusConflict, control.KindJournalQuarantined)

	srv := control.NewServer(control.Config{Runtime: rt, Store: persistence.NewMemStore(), Log: zerolog.Nop(), DefaultAgentID: "main"})
	for _, op := range []string{"agentTasks", "exportAgent"} {
		i := slices.IndexFunc(srv.Routes(), func(r control.Route) bool { return r.OperationID == op })
		if i < 0 || !slices.Contains(srv.Routes()[i].Errors, control.KindJournalQuarantined) {
			t.Errorf("route %s does not list %s, which it answers", op, control.KindJournalQuarantined)
		}
	}
}
