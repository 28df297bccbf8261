package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// Host is the runtime's side of background tasks: the tasks supervisor
// (a root actor, not a child of any agent, so an agent's restart never
// stops its commands) and the index of its live command_task actors. Per
// agent it serves exec.TaskHost and task.Controller (Agent); the agent's
// journal holds each task's TaskRecord, which is authoritative for its
// terminal state.
type Host struct {
	root       *actor.RootContext
	ask        Asker
	cfg        Config
	supervisor *actor.PID
	// abandon is set by Abandon: stopping task actors then leave their
	// processes running, as a killed daemon would, for recovery to find
	// as orphans.
	abandon atomic.Bool

	mu sync.Mutex
	// live holds the tasks whose process this runtime owns, from just
	// before task_started is journaled until task_finished is (or the
	// actor stops): the PID, or nil while the actor is being spawned. A
	// running record without an entry here belongs to a dead runtime.
	live map[string]*actor.PID
}

// Config is a Host's configuration.
type Config struct {
	Clock clockwork.Clock
	Log   zerolog.Logger
	// ResendAfter is how long a command task waits for its agent to
	// answer Finish before it sends the end again.
	ResendAfter time.Duration
}

// NewHost spawns the tasks supervisor, named "tasks", in sys; the runtime
// calls it before any agent exists.
func NewHost(sys *actor.ActorSystem, ask Asker, cfg Config) (*Host, error) {
	h := &Host{root: sys.Root, ask: ask, cfg: cfg, live: make(map[string]*actor.PID)}
	stopPanicked := actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.StopDirective })
	pid, err := sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return &supervisor{h: h} },
		actor.WithSupervisor(stopPanicked)), "tasks")
	if err != nil {
		return nil, fmt.Errorf("start tasks supervisor: %w", err)
	}
	h.supervisor = pid
	return h, nil
}

// Stop stops every command task: their processes are killed, or, after
// Abandon, left running. Their records stay open, so the next boot
// recovers them as interrupted.
func (h *Host) Stop() error {
	if err := h.root.StopFuture(h.supervisor).Wait(); err != nil {
		return fmt.Errorf("stop tasks supervisor: %w", err)
	}
	return nil
}

// Abandon makes Stop leave the processes running.
func (h *Host) Abandon() { h.abandon.Store(true) }

// IsLive reports whether this runtime owns task id's process.
func (h *Host) IsLive(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.live[id]
	return ok
}

func (h *Host) pid(id string) *actor.PID {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.live[id]
}

func (h *Host) setLive(id string, pid *actor.PID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.live[id] = pid
}

// spawned records the PID of task id's actor as soon as it is spawned,
// before the actor's Started runs, so a request right after Promote
// reaches it; an entry the actor already released stays gone.
func (h *Host) spawned(id string, pid *actor.PID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if cur, ok := h.live[id]; ok && cur == nil {
		h.live[id] = pid
	}
}

func (h *Host) release(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.live, id)
}

// request asks task id's actor and waits for its answer; ok is false when
// the task has no live actor (it ended, or belongs to a dead runtime).
func (h *Host) request(ctx context.Context, id string, msg any, timeout time.Duration) (any, bool, error) {
	pid := h.pid(id)
	if pid == nil {
		return nil, false, nil
	}
	res, err := h.root.RequestFuture(pid, msg, timeout).Result()
	if err != nil {
		return nil, false, err
	}
	if _, dead := res.(*actor.DeadLetterResponse); dead {
		return nil, false, nil
	}
	return res, true, ctx.Err()
}

// ForAgent returns the task host and controller of agent id.
func (h *Host) ForAgent(id string, arts *tools.ArtifactDir, budget tools.Budget, grace time.Duration) *Agent {
	return &Agent{h: h, agentID: id, arts: arts, budget: budget, grace: grace}
}

// Agent is one agent's view of the runtime's tasks: exec.TaskHost
// for ExecCommand's promotions and task.Controller for the task tools.
// Records come from the agent (its TaskRecords); live operations go to
// the task's actor.
type Agent struct {
	h       *Host
	agentID string
	arts    *tools.ArtifactDir
	budget  tools.Budget
	grace   time.Duration
}

var (
	_ exec.TaskHost       = (*Agent)(nil)
	_ exec.LaunchRecorder = (*Agent)(nil)
	_ task.Controller     = (*Agent)(nil)
)

// records asks the agent for its task records, oldest first.
func (t *Agent) records(ctx context.Context) ([]agentstate.TaskRecord, error) {
	res, err := t.h.ask.Ask(ctx, t.agentID, &Records{})
	if err != nil {
		return nil, fmt.Errorf("task records of %s: %w", t.agentID, err)
	}
	return res.([]agentstate.TaskRecord), nil
}

func (t *Agent) record(ctx context.Context, id string) (agentstate.TaskRecord, error) {
	recs, err := t.records(ctx)
	if err != nil {
		return agentstate.TaskRecord{}, err
	}
	for _, r := range recs {
		if r.TaskID == id {
			return r, nil
		}
	}
	return agentstate.TaskRecord{}, fmt.Errorf("%w: %s", task.ErrUnknownTask, id)
}

// FindRunning implements exec.TaskHost.
func (t *Agent) FindRunning(ctx context.Context, digest, workdir string) (exec.TaskHandle, bool) {
	recs, err := t.records(ctx)
	if err != nil {
		return exec.TaskHandle{}, false
	}
	for _, r := range recs {
		if c := r.Command; c != nil && !r.Terminal() && c.Command.CmdDigest == digest && c.Command.Workdir == workdir {
			return exec.TaskHandle{TaskID: r.TaskID, Kind: r.Kind}, true
		}
	}
	return exec.TaskHandle{}, false
}

// Promote implements exec.TaskHost: task_started is journaled in the
// agent's journal (with the pgid and token that find the command's
// orphans after a crash), then a command_task actor takes the process.
func (t *Agent) Promote(ctx context.Context, p exec.Promotion) (exec.TaskHandle, error) {
	id := messages.NewID("task")
	t.h.setLive(id, nil) // before the record: a restarting agent must not take it for an orphan
	rec := task.RecordOf(id, p, t.h.cfg.Clock.Now())
	data, err := json.Marshal(rec)
	if err == nil {
		err = answerErr(t.h.ask.Ask(ctx, t.agentID, &Start{Started: messages.TaskStarted{
			TaskID: id, Kind: exec.TaskKindCommand, Summary: oneLine(p.Identity.Cmd, 80), Record: data}}))
	}
	if err != nil {
		t.h.release(id)
		return exec.TaskHandle{}, fmt.Errorf("promote %q: %w", p.Identity.Cmd, err)
	}
	spawn := &spawnCommand{task: &command{h: t.h, agentID: t.agentID, id: id, proc: p.Process,
		cmd: p.Identity.Cmd, arts: t.arts, grace: t.grace, maxChars: t.budget.Chars(0)}}
	res, err := t.h.root.RequestFuture(t.h.supervisor, spawn, t.h.ask.Timeout(ctx)).Result()
	if err = answerErr(res, err); err != nil {
		t.h.release(id)
		return exec.TaskHandle{}, fmt.Errorf("promote %q: %w", p.Identity.Cmd, err)
	}
	if pid, ok := res.(*actor.PID); ok {
		t.h.spawned(id, pid)
	}
	return exec.TaskHandle{TaskID: id, Kind: exec.TaskKindCommand}, nil
}

// RecordLaunch implements exec.LaunchRecorder: the agent journals the
// launch (command_launched) with its tool call in flight.
func (t *Agent) RecordLaunch(ctx context.Context, l exec.Launch) error {
	if err := answerErr(t.h.ask.Ask(ctx, t.agentID, &RecordLaunch{Launch: l})); err != nil {
		return fmt.Errorf("record launch of %q: %w", l.Cmd, err)
	}
	return nil
}

// answerErr is the error of a request whose answer is an error or nil.
func answerErr(res any, err error) error {
	if err != nil {
		return err
	}
	if e, ok := res.(error); ok {
		return e
	}
	return nil
}

// snapshot is the lifecycle snapshot of a record.
func (t *Agent) snapshot(r agentstate.TaskRecord) task.Snapshot { return Snapshot(r, t.arts) }

// Snapshot is the lifecycle snapshot of a record, its output path in
// arts (none when arts is nil).
func Snapshot(r agentstate.TaskRecord, arts *tools.ArtifactDir) task.Snapshot {
	s := task.Snapshot{TaskID: r.TaskID, Kind: r.Kind, Status: r.Status, Summary: r.Summary,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if c := r.Command; c != nil {
		id := c.Command
		out := c.Output.Combined
		if out == "" {
			out = c.Output.Stdout
		}
		s.Command = &task.CommandInfo{Cmd: id.Cmd, CmdDigest: id.CmdDigest, CmdPreview: oneLine(id.Cmd, 80),
			Workdir: id.Workdir, Shell: id.Shell, Login: id.Login, TTY: id.TTY, AcceptsInput: id.AcceptsInput,
			TerminalReentry: true, Pgid: c.Pgid}
		if arts != nil && out != "" {
			s.Command.OutputPath = arts.Path(out)
		}
		if id.AcceptsInput && !r.Terminal() {
			s.InputTarget = inputTarget(id.TTY)
		}
	}
	return s
}

func inputTarget(tty bool) string {
	if tty {
		return task.InputTTY
	}
	return task.InputStdin
}

// Status implements task.Controller.
func (t *Agent) Status(ctx context.Context, id string) (task.Snapshot, error) {
	r, err := t.record(ctx, id)
	if err != nil {
		return task.Snapshot{}, err
	}
	return t.liveSnapshot(ctx, r), nil
}

// Output implements task.Controller. block waits, within req.Timeout, for
// the task's terminal record to be durable.
func (t *Agent) Output(ctx context.Context, req task.OutputRequest) (task.OutputResult, error) {
	r, err := t.record(ctx, req.TaskID)
	if err != nil {
		return task.OutputResult{}, err
	}
	retrieval := task.RetrievalNotReady
	if !r.Terminal() && req.Block {
		if _, _, err := t.h.request(ctx, r.TaskID, &awaitTerminal{}, req.Timeout); err != nil && ctx.Err() != nil {
			return task.OutputResult{}, ctx.Err()
		}
		if r, err = t.record(ctx, req.TaskID); err != nil {
			return task.OutputResult{}, err
		}
		retrieval = task.RetrievalTimeout
	}
	if r.Terminal() {
		retrieval = task.RetrievalSuccess
	}
	var out task.OutputTask
	if r.Child != nil {
		out, err = t.childOutput(r, req.MaxChars)
	} else {
		out, err = t.output(r, req.MaxChars)
	}
	if err != nil {
		return task.OutputResult{}, err
	}
	return task.OutputResult{RetrievalStatus: retrieval, Task: out}, nil
}

// output projects a record into TaskOutput's task result: the output read
// from its files within maxChars, and, once terminal, the exit status,
// summary and failure artifact journaled with task_finished. A terminal
// task whose output file cannot be read answers with the output preview
// journaled at its end: the terminal record alone is a stable snapshot.
func (t *Agent) output(r agentstate.TaskRecord, maxChars int) (task.OutputTask, error) {
	out := task.OutputTask{TaskID: r.TaskID, Kind: r.Kind, Status: r.Status, Summary: r.Summary}
	var final task.OutputTask
	if r.Terminal() {
		if err := json.Unmarshal(r.Result, &final); err != nil {
			return out, fmt.Errorf("task %s result: %w", r.TaskID, err)
		}
	}
	if r.Command != nil && t.arts != nil {
		err := task.CommandOutput(t.arts, r.Command.Output, maxChars, &out)
		switch {
		case r.Terminal() && (err != nil || !t.readable(r.Command.Output)):
			prev, cut := tools.HeadTail(final.OutputPreview, maxChars)
			out.OutputPreview, out.OutputTruncated = prev, cut || final.OutputTruncated
			out.Artifacts, out.OutputArtifact = nil, nil
		case err != nil:
			return out, err
		}
	}
	if !r.Terminal() {
		return out, nil
	}
	out.ExitStatus, out.ResultSummary = r.ExitStatus, final.ResultSummary
	if final.FailureArtifact != nil && *final.FailureArtifact < len(final.Artifacts) {
		out.Artifacts = append(out.Artifacts, final.Artifacts[*final.FailureArtifact])
		out.FailureArtifact = new(len(out.Artifacts) - 1)
	}
	return out, nil
}

// readable reports whether a command's main output file can be read.
func (t *Agent) readable(files exec.OutputFiles) bool {
	main := files.Combined
	if main == "" {
		main = files.Stdout
	}
	f, err := os.Open(t.arts.Path(main))
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// Input implements task.Controller: refused with accepted_input=false when
// the task does not accept input or has ended.
func (t *Agent) Input(ctx context.Context, id, text string, closeInput bool) (task.InputResult, error) {
	r, err := t.record(ctx, id)
	if err != nil {
		return task.InputResult{}, err
	}
	if r.Child != nil {
		return t.childInput(ctx, r, text)
	}
	res := task.InputResult{Task: t.snapshot(r)}
	switch {
	case r.Command == nil || !r.Command.Command.AcceptsInput:
		res.SummaryText = "the task was not started with accepts_input=true; start it again with ExecCommand accepts_input=true"
		return res, nil
	case r.Terminal():
		res.InputTarget, res.SummaryText = inputTarget(r.Command.Command.TTY), "the task has already ended"
		return res, nil
	}
	res.InputTarget = inputTarget(r.Command.Command.TTY)
	ans, ok, err := t.h.request(ctx, id, &taskInput{text: text, close: closeInput}, t.h.ask.Timeout(ctx))
	switch {
	case err != nil:
		return task.InputResult{}, fmt.Errorf("input to task %s: %w", id, err)
	case !ok:
		res.SummaryText = "the task has already ended"
		return res, nil
	}
	done := ans.(*taskInputDone)
	res.BytesWritten = done.n
	if done.err != nil {
		res.SummaryText = "input could not be delivered: " + done.err.Error()
		return res, nil
	}
	res.AcceptedInput = true
	res.SummaryText = fmt.Sprintf("sent %d bytes to task %s", done.n, id)
	return res, nil
}

// Stop implements task.Controller: SIGTERM to the group, SIGKILL after the
// grace, and the snapshot once the cancelled record is durable.
func (t *Agent) Stop(ctx context.Context, id string) (task.StopResult, error) {
	r, err := t.record(ctx, id)
	if err != nil {
		return task.StopResult{}, err
	}
	if r.Child != nil {
		return t.childStop(ctx, r)
	}
	if r.Terminal() {
		return task.StopResult{Task: t.snapshot(r)}, nil
	}
	var sr exec.StopResult
	ans, ok, err := t.h.request(ctx, id, &stopTask{}, t.grace+t.h.ask.Timeout(ctx))
	if err != nil {
		return task.StopResult{}, fmt.Errorf("stop task %s: %w", id, err)
	}
	if ok {
		done := ans.(*taskStopped)
		if done.err != nil {
			return task.StopResult{}, fmt.Errorf("stop task %s: %w", id, done.err)
		}
		sr = done.result
		if _, _, err := t.h.request(ctx, id, &awaitTerminal{}, t.h.ask.Timeout(ctx)); err != nil {
			return task.StopResult{}, fmt.Errorf("stop task %s: %w", id, err)
		}
	}
	if r, err = t.record(ctx, id); err != nil {
		return task.StopResult{}, err
	}
	return task.StopResult{Task: t.snapshot(r), StopRequested: sr.Requested, ForceRequested: sr.Forced}, nil
}

// List implements task.Controller.
func (t *Agent) List(ctx context.Context, includeTerminal bool) ([]task.Snapshot, error) {
	recs, err := t.records(ctx)
	if err != nil {
		return nil, err
	}
	var out []task.Snapshot
	for _, r := range recs {
		if includeTerminal || !r.Terminal() {
			out = append(out, t.liveSnapshot(ctx, r))
		}
	}
	return out, nil
}
