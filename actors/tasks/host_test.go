package tasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// agentPort plays the runtime and the one agent "main" behind the Asker
// port: it keeps the agent's task records as its journal would (Start
// opens one, Finish closes it) and answers as the agent does.
type agentPort struct {
	root *actor.RootContext

	mu   sync.Mutex
	recs []agentstate.TaskRecord
	// ended receives each Finish the agent journals; buffered so that
	// RequestFrom never blocks the task actor.
	ended chan tasks.End
}

func (p *agentPort) Ask(_ context.Context, _ string, msg any) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch m := msg.(type) {
	case *tasks.Records:
		return append([]agentstate.TaskRecord(nil), p.recs...), nil
	case *tasks.Start:
		var cmd task.CommandRecord
		if err := json.Unmarshal(m.Started.Record, &cmd); err != nil {
			return err, nil
		}
		p.recs = append(p.recs, agentstate.TaskRecord{TaskID: m.Started.TaskID, Kind: m.Started.Kind,
			Summary: m.Started.Summary, Status: task.StatusRunning, Command: &cmd})
		return nil, nil
	}
	return nil, fmt.Errorf("agent asked %T", msg)
}

func (p *agentPort) RequestFrom(from *actor.PID, _ string, msg any) error {
	f, ok := msg.(*tasks.Finish)
	if !ok {
		return fmt.Errorf("agent requested %T", msg)
	}
	p.mu.Lock()
	for i := range p.recs {
		if r := &p.recs[i]; r.TaskID == f.End.Finished.TaskID {
			r.Status, r.ExitStatus, r.Result = f.End.Finished.Status, f.End.Finished.ExitStatus, f.End.Finished.Result
		}
	}
	p.mu.Unlock()
	p.ended <- f.End
	p.root.Send(from, &tasks.Recorded{})
	return nil
}

func (p *agentPort) Forward(string, any)                   {}
func (p *agentPort) Timeout(context.Context) time.Duration { return 20 * time.Second }

var errNoChildren = errors.New("this agent has no children")

func (p *agentPort) Observe(context.Context, agentstate.TaskRecord) *task.ChildObservability {
	return nil
}
func (p *agentPort) FollowUp(context.Context, string, agentstate.TaskRecord, string) error {
	return errNoChildren
}
func (p *agentPort) Suspensions(context.Context, string) ([]messages.SuspensionRecord, error) {
	return nil, errNoChildren
}
func (p *agentPort) Respond(context.Context, string, agentstate.Answer) (messages.InputResponse, error) {
	return messages.InputResponse{}, errNoChildren
}
func (p *agentPort) StopChild(context.Context, string, agentstate.TaskRecord) error {
	return errNoChildren
}

// hostFixture is a tasks host in a real actor system, its agent behind
// agentPort, and main's controller over real artifacts.
type hostFixture struct {
	port  *agentPort
	host  *tasks.Host
	main  *tasks.Agent
	arts  *tools.ArtifactDir
	dir   string
	grace time.Duration
}

func newHostFixture(t *testing.T) *hostFixture {
	t.Helper()
	sys := actor.NewActorSystem()
	port := &agentPort{root: sys.Root, ended: make(chan tasks.End, 4)}
	h, err := tasks.NewHost(sys, port, tasks.Config{Clock: clockwork.NewFakeClock(), Log: zerolog.Nop(), ResendAfter: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Stop(); err != nil {
			t.Error(err)
		}
		sys.Shutdown()
	})
	arts, err := tools.NewArtifactDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	grace := 2 * time.Second
	return &hostFixture{port: port, host: h, arts: arts, dir: t.TempDir(), grace: grace,
		main: h.ForAgent("main", arts, tools.DefaultBudget(), grace)}
}

// promote starts cmd and hands it to the host as ExecCommand does.
func (f *hostFixture) promote(t *testing.T, cmd string) string {
	t.Helper()
	spec := exec.ProcessSpec{Cmd: cmd, Dir: f.dir}
	p, err := exec.Start(spec, f.arts, messages.NewID("cmd"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Spill(); err != nil {
		t.Fatal(err)
	}
	h, err := f.main.Promote(context.Background(), exec.Promotion{Process: p, Identity: exec.Identity(spec)})
	if err != nil {
		t.Fatal(err)
	}
	if !f.host.IsLive(h.TaskID) {
		t.Fatalf("IsLive(%s) = false right after Promote", h.TaskID)
	}
	return h.TaskID
}

// end waits for the agent to journal the end of a task.
func (f *hostFixture) end(t *testing.T) tasks.End {
	t.Helper()
	select {
	case e := <-f.port.ended:
		return e
	case <-time.After(20 * time.Second):
		t.Fatal("no task end reached the agent")
		return tasks.End{}
	}
}

func TestCommandEndJournaledThroughAsker(t *testing.T) {
	f := newHostFixture(t)
	id := f.promote(t, "echo from-the-task; exit 3")

	end := f.end(t)
	if end.Finished.TaskID != id || end.Finished.Status != task.StatusFailed || end.Finished.ExitStatus == nil || *end.Finished.ExitStatus != 3 {
		t.Fatalf("end = %+v, want task %s failed with exit 3", end.Finished, id)
	}
	if want := "Background task " + id + " failed"; !strings.HasPrefix(end.Text, want) || !strings.Contains(end.Text, "from-the-task") {
		t.Fatalf("end text = %q, want it to start %q and carry the output", end.Text, want)
	}
	out, err := f.main.Output(context.Background(), task.OutputRequest{TaskID: id, Block: true, Timeout: 20 * time.Second, MaxChars: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if out.RetrievalStatus != task.RetrievalSuccess || out.Task.ExitStatus == nil || *out.Task.ExitStatus != 3 ||
		!strings.Contains(out.Task.OutputPreview, "from-the-task") || out.Task.FailureArtifact == nil {
		t.Fatalf("output = %+v, want the terminal result with exit 3, the output and a failure artifact", out)
	}
}

func TestStopCancelsThroughAsker(t *testing.T) {
	f := newHostFixture(t)
	id := f.promote(t, "sleep 60")

	res, err := f.main.Stop(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !res.StopRequested || res.Task.Status != task.StatusCancelled {
		t.Fatalf("stop = %+v, want the stop requested and the task cancelled", res)
	}
	if end := f.end(t); end.Finished.Status != task.StatusCancelled {
		t.Fatalf("journaled status = %s, want %s", end.Finished.Status, task.StatusCancelled)
	}
	list, err := f.main.List(context.Background(), false)
	if err != nil || len(list) != 0 {
		t.Fatalf("List(running) = %+v, %v; want none", list, err)
	}
}

func TestUnknownTaskRefused(t *testing.T) {
	f := newHostFixture(t)
	if _, err := f.main.Status(context.Background(), "task_nope"); !errors.Is(err, task.ErrUnknownTask) {
		t.Fatalf("Status(task_nope) = %v, want ErrUnknownTask", err)
	}
}
