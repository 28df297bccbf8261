package tasks

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// supervisor is the parent of every command_task actor. It is a root
// actor of the runtime, beside the agents supervisor, so an agent actor's
// crash and restart never stops its commands. A task actor that panics is
// stopped (its process with it) and its task recovered as interrupted
// the next time its agent starts.
type supervisor struct{ h *Host }

// spawnCommand asks the tasks supervisor to start the actor of a
// promoted command; the answer is its *actor.PID or an error.
type spawnCommand struct{ task *command }

func (s *supervisor) Receive(c actor.Context) {
	if m, ok := c.Message().(*spawnCommand); ok {
		pid, err := c.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return m.task }), m.task.id)
		if err != nil {
			c.Respond(fmt.Errorf("spawn task %s: %w", m.task.id, err))
			return
		}
		c.Respond(pid)
	}
}

// command is the actor of one promoted command: it owns the
// exec.Process. Receive never blocks: waiting for the process, writing
// its input, stopping it and journaling its end run in goroutines the
// actor owns (cancelled and awaited when it stops) and come back as
// messages. Once its terminal record is durable in its agent's journal
// and the task_result admitted, it answers its waiters and stops.
type command struct {
	h        *Host
	agentID  string
	id       string
	proc     *exec.Process
	cmd      string
	arts     *tools.ArtifactDir
	grace    time.Duration
	maxChars int

	stopping bool         // TaskStop asked: the end is cancelled
	ended    bool         // the process is done
	waiters  []*actor.PID // awaitTerminal requests answered once the end is durable
	pending  *End         // the end, until the agent has journaled it
	resend   clockwork.Timer
	done     bool // settled: the actor is stopping
	// inputCheck looks, every inputCheckInterval, whether a command that
	// accepts input is blocked reading it; waitNotified is set once its
	// agent was told, until input is written.
	inputCheck   clockwork.Timer
	waitNotified bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine of the actor
}

// Requests to a command_task actor, and the messages its goroutines send
// it.
type (
	// awaitTerminal is answered true once the task's end is durable.
	awaitTerminal struct{}
	// taskInput writes text to the command's input; answered *taskInputDone.
	taskInput struct {
		text  string
		close bool
	}
	taskInputDone struct {
		n   int
		err error
	}
	// stopTask stops the command; answered *taskStopped once it exited.
	stopTask    struct{}
	taskStopped struct {
		result exec.StopResult
		err    error
	}
	// processEnded: the command exited and its output is complete.
	processEnded struct{}
	// endComputed: the terminal result of the ended command is ready.
	endComputed struct {
		end End
		err error
	}
	// resendEnd: the agent did not answer Finish in time.
	resendEnd struct{}
	// checkInput: time to look whether the command waits for input.
	checkInput struct{}
	// inputState: whether it does.
	inputState struct{ waiting bool }
)

// inputCheckInterval is how often a command that accepts input is checked
// for waiting on it.
const inputCheckInterval = 2 * time.Second

func (t *command) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		t.h.setLive(t.id, c.Self()) // before anything can release it
		t.ctx, t.cancel = context.WithCancel(context.Background())
		t.goOwned(c, nil, func() any {
			select {
			case <-t.proc.Done():
				return &processEnded{}
			case <-t.ctx.Done():
				return nil
			}
		})
		t.armInputCheck(c)
	case *awaitTerminal:
		t.waiters = append(t.waiters, c.Sender())
	case *taskInput:
		t.input(c, m)
	case *stopTask:
		t.stop(c)
	case *processEnded:
		t.ended = true
		t.recordEnd(c)
	case *endComputed:
		t.endComputed(c, m)
	case *resendEnd:
		t.sendEnd(c)
	case *checkInput:
		if !t.ended {
			p := t.proc
			t.goOwned(c, nil, func() any { return &inputState{waiting: p.WaitingForInput()} })
		}
	case *inputState:
		t.inputChecked(c, m.waiting)
	case *Recorded:
		t.settled(c, m.Err)
	case Failure:
		t.settled(c, m.Failure())
	case *actor.Stopping:
		t.halt()
	}
}

// armInputCheck schedules the next input check of a command that accepts
// input.
func (t *command) armInputCheck(c actor.Context) {
	if !t.proc.Spec().AcceptsInput || t.ended {
		return
	}
	self, root := c.Self(), c.ActorSystem().Root
	t.inputCheck = t.h.cfg.Clock.AfterFunc(inputCheckInterval, func() { root.Send(self, &checkInput{}) })
}

// inputChecked tells the agent, once per wait, that its command is blocked
// reading input, and schedules the next check.
func (t *command) inputChecked(c actor.Context, waiting bool) {
	if waiting && !t.waitNotified && !t.ended {
		t.waitNotified = true
		t.h.ask.Forward(t.agentID, &Waiting{TaskID: t.id, Cmd: t.cmd})
	}
	t.armInputCheck(c)
}

// goOwned runs f in a goroutine the actor owns and sends its non-nil
// result to to (the actor itself when to is nil).
func (t *command) goOwned(c actor.Context, to *actor.PID, f func() any) {
	if to == nil {
		to = c.Self()
	}
	root := c.ActorSystem().Root
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		if msg := f(); msg != nil {
			root.Send(to, msg)
		}
	}()
}

func (t *command) input(c actor.Context, m *taskInput) {
	if t.ended {
		c.Respond(&taskInputDone{err: errors.New("the command has ended")})
		return
	}
	p := t.proc
	t.waitNotified = false // a new wait after this input is news
	t.goOwned(c, c.Sender(), func() any {
		n, err := p.Write([]byte(m.text))
		if err == nil && m.close {
			err = p.CloseInput()
		}
		return &taskInputDone{n: n, err: err}
	})
}

func (t *command) stop(c actor.Context) {
	if !t.ended {
		t.stopping = true
	}
	p, ctx, grace := t.proc, t.ctx, t.grace
	t.goOwned(c, c.Sender(), func() any {
		r, err := p.Stop(ctx, grace)
		return &taskStopped{result: r, err: err}
	})
}

// recordEnd computes the ended command's terminal result (output
// preview, exit status, failure artifact) in a goroutine.
func (t *command) recordEnd(c actor.Context) {
	p, stopping := t.proc, t.stopping
	t.goOwned(c, nil, func() any {
		_ = p.Close()
		end, err := t.end(stopping)
		return &endComputed{end: end, err: err}
	})
}

// endComputed hands the terminal result to the agent, which journals it
// as task_finished together with the task_result message.
func (t *command) endComputed(c actor.Context, m *endComputed) {
	if m.err != nil {
		t.settled(c, m.err)
		return
	}
	t.pending = &m.end
	t.sendEnd(c)
}

// sendEnd sends the pending end to the agent, routed by agent id (a
// passivated agent is activated), with this actor as the sender: the
// answer, endRecorded, comes back as a message, so nothing waits on the
// agent. An answer lost (the agent crashed meanwhile) is asked again
// after the request timeout; a repeated end changes nothing.
func (t *command) sendEnd(c actor.Context) {
	if t.pending == nil || t.done {
		return
	}
	if err := t.h.ask.RequestFrom(c.Self(), t.agentID, &Finish{End: *t.pending}); err != nil {
		t.settled(c, err)
		return
	}
	self, root := c.Self(), c.ActorSystem().Root
	t.stopResend()
	t.resend = t.h.cfg.Clock.AfterFunc(t.h.cfg.ResendAfter, func() { root.Send(self, &resendEnd{}) })
}

func (t *command) stopResend() {
	if t.resend != nil {
		t.resend.Stop()
		t.resend = nil
	}
}

// end is the terminal result of the ended command.
func (t *command) end(stopping bool) (End, error) {
	st, _, _ := t.proc.Exit()
	status := task.StatusCompleted
	switch {
	case stopping:
		status = task.StatusCancelled
	case st.Signal != "" || st.Code != 0:
		status = task.StatusFailed
	}
	out := task.OutputTask{TaskID: t.id, Kind: exec.TaskKindCommand, Status: status, Summary: oneLine(t.cmd, 80),
		ExitStatus: new(st.Code), ResultSummary: "command " + st.String()}
	if err := task.CommandOutput(t.arts, t.proc.Output(), t.maxChars, &out); err != nil {
		return End{}, err
	}
	if status != task.StatusCompleted {
		reason := "the command " + st.String()
		if stopping {
			reason = "stopped by TaskStop; the command " + st.String()
		}
		ref, err := task.WriteFailure(t.arts, task.Failure{TaskID: t.id, Status: status, Reason: reason, Cmd: t.cmd,
			Pgid: t.proc.Pgid(), ExitStatus: new(st.Code), At: t.h.cfg.Clock.Now()})
		if err != nil {
			return End{}, err
		}
		out.Artifacts = append(out.Artifacts, ref)
		out.FailureArtifact = new(len(out.Artifacts) - 1)
	}
	return NewEnd(out, t.cmd)
}

// settled answers the waiters and stops the actor: the task is over. When
// the end could not be journaled (the runtime is going down), the record
// stays open and the agent recovers it at its next start.
func (t *command) settled(c actor.Context, err error) {
	if t.done {
		return
	}
	t.done = true
	t.stopResend()
	if err != nil {
		t.h.cfg.Log.Warn().Err(err).Str("agent_id", t.agentID).Str("task_id", t.id).Msg("task end not journaled")
	}
	for _, w := range t.waiters {
		c.Send(w, true)
	}
	t.waiters = nil
	t.h.release(t.id)
	c.Stop(c.Self())
}

// halt ends the actor's goroutines. The process is killed, unless the
// runtime halts as if it had crashed: then it is left running for the
// next boot's recovery to find, as after a real crash.
func (t *command) halt() {
	t.stopResend()
	if t.inputCheck != nil {
		t.inputCheck.Stop()
	}
	t.h.release(t.id)
	t.cancel()
	if !t.h.abandon.Load() {
		_ = t.proc.Close()
	}
	t.wg.Wait()
}
