package task

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// MemHost is an in-memory exec.TaskHost and Controller: promoted commands
// become tasks it owns until Close, with nothing persisted. It is the
// reference for the runtime's durable host and serves tests and
// single-process tools; the runtime's host adds TaskRecords, re-entry and
// recovery.
type MemHost struct {
	arts      *tools.ArtifactDir
	stopGrace time.Duration
	// onTerminal, when set, is called once per task when it ends, from the
	// task's watcher goroutine.
	onTerminal func(Snapshot)

	mu     sync.Mutex
	tasks  map[string]*memTask
	n      int
	closed bool
	wg     sync.WaitGroup // one watcher per task
}

type memTask struct {
	seq      int
	id       string
	promo    exec.Promotion
	created  time.Time
	done     chan struct{} // closed by the watcher once status is terminal
	status   string        // guarded by MemHost.mu
	updated  time.Time
	stopping bool
}

// NewMemHost returns a host whose tasks' output lives under arts.
// onTerminal may be nil.
func NewMemHost(arts *tools.ArtifactDir, stopGrace time.Duration, onTerminal func(Snapshot)) *MemHost {
	return &MemHost{arts: arts, stopGrace: stopGrace, onTerminal: onTerminal, tasks: map[string]*memTask{}}
}

// FindRunning implements exec.TaskHost.
func (h *MemHost) FindRunning(_ context.Context, digest, workdir string) (exec.TaskHandle, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.sorted() {
		if !Terminal(t.status) && t.promo.Identity.CmdDigest == digest && t.promo.Identity.Workdir == workdir {
			return exec.TaskHandle{TaskID: t.id, Kind: exec.TaskKindCommand}, true
		}
	}
	return exec.TaskHandle{}, false
}

// Promote implements exec.TaskHost: the host owns p from now on.
func (h *MemHost) Promote(_ context.Context, p exec.Promotion) (exec.TaskHandle, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return exec.TaskHandle{}, fmt.Errorf("promote %q: host closed", p.Identity.Cmd)
	}
	h.n++
	now := time.Now()
	t := &memTask{seq: h.n, id: fmt.Sprintf("task_%d", h.n), promo: p, created: now, updated: now, status: StatusRunning, done: make(chan struct{})}
	h.tasks[t.id] = t
	h.wg.Add(1)
	go h.watch(t)
	return exec.TaskHandle{TaskID: t.id, Kind: exec.TaskKindCommand}, nil
}

// watch waits for the task's process and settles its status.
func (h *MemHost) watch(t *memTask) {
	defer h.wg.Done()
	p := t.promo.Process
	<-p.Done()
	_ = p.Close()
	st, _, _ := p.Exit()
	h.mu.Lock()
	switch {
	case t.stopping:
		t.status = StatusCancelled
	case st.Signal == "" && st.Code == 0:
		t.status = StatusCompleted
	default:
		t.status = StatusFailed
	}
	t.updated = time.Now()
	snap := h.snapshot(t)
	h.mu.Unlock()
	if h.onTerminal != nil {
		h.onTerminal(snap)
	}
	close(t.done) // after the notification: whoever waited for the end sees it notified
}

func (h *MemHost) task(id string) (*memTask, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.tasks[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownTask, id)
	}
	return t, nil
}

// snapshot is the task's lifecycle snapshot; h.mu is held.
func (h *MemHost) snapshot(t *memTask) Snapshot {
	id := t.promo.Identity
	files := t.promo.Process.Output()
	out := files.Combined
	if out == "" {
		out = files.Stdout
	}
	s := Snapshot{TaskID: t.id, Kind: exec.TaskKindCommand, Status: t.status, Summary: oneLine(id.Cmd, 80),
		CreatedAt: t.created, UpdatedAt: t.updated, Command: &CommandInfo{
			Cmd: id.Cmd, CmdDigest: id.CmdDigest, CmdPreview: oneLine(id.Cmd, 80), Workdir: id.Workdir, Shell: id.Shell,
			Login: id.Login, TTY: id.TTY, AcceptsInput: id.AcceptsInput, OutputPath: h.arts.Path(out),
			TerminalReentry: true, Pgid: t.promo.Process.Pgid(),
		}}
	if id.AcceptsInput && !Terminal(t.status) {
		s.InputTarget = inputTarget(id.TTY)
	}
	return s
}

func inputTarget(tty bool) string {
	if tty {
		return InputTTY
	}
	return InputStdin
}

// Status implements Controller.
func (h *MemHost) Status(_ context.Context, id string) (Snapshot, error) {
	t, err := h.task(id)
	if err != nil {
		return Snapshot{}, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.snapshot(t), nil
}

// Output implements Controller; block waits for the task within req.Timeout.
func (h *MemHost) Output(ctx context.Context, req OutputRequest) (OutputResult, error) {
	t, err := h.task(req.TaskID)
	if err != nil {
		return OutputResult{}, err
	}
	retrieval := RetrievalNotReady
	if req.Block {
		timer := time.NewTimer(req.Timeout)
		defer timer.Stop()
		select {
		case <-t.done:
		case <-timer.C:
			retrieval = RetrievalTimeout
		case <-ctx.Done():
			return OutputResult{}, ctx.Err()
		}
	}
	select {
	case <-t.done:
		retrieval = RetrievalSuccess
	default:
	}
	h.mu.Lock()
	snap := h.snapshot(t)
	h.mu.Unlock()
	out := OutputTask{TaskID: snap.TaskID, Kind: snap.Kind, Status: snap.Status, Summary: snap.Summary}
	if err := CommandOutput(h.arts, t.promo.Process.Output(), req.MaxChars, &out); err != nil {
		return OutputResult{}, err
	}
	if retrieval == RetrievalSuccess {
		st, _, _ := t.promo.Process.Exit()
		out.ExitStatus = new(st.Code)
		out.ResultSummary = "command " + st.String()
	}
	return OutputResult{RetrievalStatus: retrieval, Task: out}, nil
}

// Input implements Controller. Input to a task that does not accept it,
// or has ended, is refused with accepted_input=false.
func (h *MemHost) Input(_ context.Context, id, text string, closeInput bool) (InputResult, error) {
	t, err := h.task(id)
	if err != nil {
		return InputResult{}, err
	}
	h.mu.Lock()
	snap := h.snapshot(t)
	h.mu.Unlock()
	r := InputResult{Task: snap, InputTarget: inputTarget(t.promo.Identity.TTY)}
	switch {
	case !t.promo.Identity.AcceptsInput:
		r.InputTarget, r.SummaryText = "", "the task was not started with accepts_input=true; start it again with ExecCommand accepts_input=true"
		return r, nil
	case Terminal(snap.Status):
		r.SummaryText = "the task has already ended"
		return r, nil
	}
	p := t.promo.Process
	n, err := p.Write([]byte(text))
	r.BytesWritten = n
	if err == nil && closeInput {
		err = p.CloseInput()
	}
	if err != nil {
		r.SummaryText = "input could not be delivered: " + err.Error()
		return r, nil
	}
	r.AcceptedInput = true
	r.SummaryText = fmt.Sprintf("sent %d bytes to task %s", n, id)
	return r, nil
}

// Stop implements Controller: SIGTERM to the group, SIGKILL after the
// host's grace, and the settled snapshot.
func (h *MemHost) Stop(ctx context.Context, id string) (StopResult, error) {
	t, err := h.task(id)
	if err != nil {
		return StopResult{}, err
	}
	h.mu.Lock()
	if !Terminal(t.status) {
		t.stopping = true
	}
	h.mu.Unlock()
	sr, err := t.promo.Process.Stop(ctx, h.stopGrace)
	if err != nil {
		return StopResult{}, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return StopResult{}, ctx.Err()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return StopResult{Task: h.snapshot(t), StopRequested: sr.Requested, ForceRequested: sr.Forced}, nil
}

// List implements Controller.
func (h *MemHost) List(_ context.Context, includeTerminal bool) ([]Snapshot, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Snapshot
	for _, t := range h.sorted() {
		if includeTerminal || !Terminal(t.status) {
			out = append(out, h.snapshot(t))
		}
	}
	return out, nil
}

// sorted lists tasks in creation order; h.mu is held.
func (h *MemHost) sorted() []*memTask {
	ts := make([]*memTask, 0, len(h.tasks))
	for _, t := range h.tasks {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].seq < ts[j].seq })
	return ts
}

// Close stops every running task and waits for their watchers.
func (h *MemHost) Close() error {
	h.mu.Lock()
	h.closed = true
	ts := h.sorted()
	h.mu.Unlock()
	for _, t := range ts {
		_ = t.promo.Process.Close()
	}
	h.wg.Wait()
	return nil
}
