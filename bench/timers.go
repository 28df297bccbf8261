package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// TimersConfig sets the workload of Timers.
type TimersConfig struct {
	// Timers is the number of agents, one recurring timer each.
	Timers int
	// Interval is each timer's period. The target workload is every
	// minute; the default runs it compressed 60× (every second), so the
	// service carries 60 times the fires per second of the real schedule.
	Interval time.Duration
	// Duration is the measured window, after one Interval of warm-up.
	Duration time.Duration
	// Logger receives protoactor's logs; nil discards them.
	Logger *slog.Logger
}

// DefaultTimersConfig is 10,000 timers every second for 10 s.
func DefaultTimersConfig() TimersConfig {
	return TimersConfig{Timers: 10_000, Interval: time.Second, Duration: 10 * time.Second}
}

// Validate reports the first setting that cannot run.
func (c TimersConfig) Validate() error {
	switch {
	case c.Timers < 1:
		return fmt.Errorf("timers bench: timers is %d, want at least 1", c.Timers)
	case c.Interval < time.Millisecond:
		return fmt.Errorf("timers bench: interval is %v, want at least 1ms", c.Interval)
	case c.Duration < c.Interval:
		return fmt.Errorf("timers bench: duration %v is shorter than the interval %v", c.Duration, c.Interval)
	}
	return nil
}

// TimersResult is what Timers measured.
type TimersResult struct {
	Timers     int     `json:"timers"`
	IntervalMs float64 `json:"interval_ms"`
	Seconds    float64 `json:"seconds"`
	Fires      int     `json:"fires"`
	// TimerFiresPerSec is the fires delivered per second in the window;
	// ExpectedFiresPerSec is what the schedule asks for.
	TimerFiresPerSec    float64 `json:"timer_fires_per_sec"`
	ExpectedFiresPerSec float64 `json:"expected_fires_per_sec"`
	// Lateness is each fire's delay after its due time.
	FireLatenessP50Ms float64 `json:"fire_lateness_p50_ms"`
	FireLatenessP99Ms float64 `json:"fire_lateness_p99_ms"`
	FireLatenessMaxMs float64 `json:"fire_lateness_max_ms"`
	// BytesPerPendingTimer is the timer service's heap per armed timer;
	// StateBytesPerTimer is a created timer's share of the agent's
	// snapshot (its UserTimer JSON).
	BytesPerPendingTimer float64 `json:"bytes_per_pending_timer"`
	StateBytesPerTimer   int     `json:"state_bytes_per_timer"`
	// CPUMicrosPerFire is the process's CPU time over the window per
	// fire (0 where /proc is not readable).
	CPUMicrosPerFire float64 `json:"cpu_us_per_fire"`
}

// timerRecorder collects the fires' lateness inside the window.
type timerRecorder struct {
	mu        sync.Mutex
	from, to  time.Time
	lateness  []time.Duration
	rearm     func(timers.Fire)
	realClock clockwork.Clock
}

func (r *timerRecorder) fire(f timers.Fire) {
	now := r.realClock.Now()
	r.mu.Lock()
	if !now.Before(r.from) && now.Before(r.to) {
		r.lateness = append(r.lateness, now.Sub(f.DueAt))
	}
	r.mu.Unlock()
	r.rearm(f)
}

// Timers runs the timer service as the runtime does, on the real clock:
// cfg.Timers timers, one per agent, spread evenly over one interval, each
// re-armed at its next due time when it fires (as an agent re-arms after
// journaling the fire). It measures the fires per second sustained over
// cfg.Duration, each fire's lateness after its due time, and the service's
// memory per pending timer. The journal and the turns a fire starts are
// not in it: bench turns measures those.
func Timers(ctx context.Context, cfg TimersConfig) (TimersResult, error) {
	if err := cfg.Validate(); err != nil {
		return TimersResult{}, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return logger }))
	defer sys.Shutdown()
	clock := clockwork.NewRealClock()
	rec := &timerRecorder{realClock: clock}
	var pid *actor.PID
	rec.rearm = func(f timers.Fire) {
		sys.Root.Send(pid, timers.Schedule{AgentID: f.AgentID, TimerID: f.TimerID, DueAt: f.DueAt.Add(cfg.Interval)})
	}
	start := clock.Now().Add(cfg.Interval)
	rec.from, rec.to = start.Add(cfg.Interval), start.Add(cfg.Interval+cfg.Duration)

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pid = sys.Root.Spawn(timers.ServiceProps(clock, rec.fire))
	defer func() { _ = sys.Root.PoisonFuture(pid).Wait() }()
	for i := range cfg.Timers {
		due := start.Add(time.Duration(int64(cfg.Interval) * int64(i) / int64(cfg.Timers)))
		sys.Root.Send(pid, timers.Schedule{AgentID: "agent-" + strconv.Itoa(i), TimerID: "tmr_" + strconv.Itoa(i), DueAt: due})
	}
	if _, err := sys.Root.RequestFuture(pid, timers.Pending{}, time.Minute).Result(); err != nil {
		return TimersResult{}, fmt.Errorf("timers bench: arm: %w", err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)

	var cpuFrom time.Duration
	select {
	case <-ctx.Done():
		return TimersResult{}, ctx.Err()
	case <-clock.After(rec.from.Sub(clock.Now())):
		cpuFrom = selfCPU()
	}
	select {
	case <-ctx.Done():
		return TimersResult{}, ctx.Err()
	case <-clock.After(rec.to.Sub(clock.Now())):
	}
	cpu := selfCPU() - cpuFrom
	rec.mu.Lock()
	late := rec.lateness
	rec.lateness = nil
	rec.mu.Unlock()

	p50, p99, worst := latencySummary(late)
	secs := cfg.Duration.Seconds()
	res := TimersResult{Timers: cfg.Timers, IntervalMs: ms(cfg.Interval), Seconds: secs, Fires: len(late),
		TimerFiresPerSec: float64(len(late)) / secs, ExpectedFiresPerSec: float64(cfg.Timers) / cfg.Interval.Seconds(),
		FireLatenessP50Ms: ms(p50), FireLatenessP99Ms: ms(p99), FireLatenessMaxMs: ms(worst),
		BytesPerPendingTimer: float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(cfg.Timers),
		StateBytesPerTimer:   userTimerBytes(cfg.Interval)}
	if len(late) > 0 {
		res.CPUMicrosPerFire = float64(cpu.Microseconds()) / float64(len(late))
	}
	return res, nil
}

// userTimerBytes is the JSON size of a typical created timer in an agent's
// state (its share of the snapshot).
func userTimerBytes(every time.Duration) int {
	now := time.Now().UTC()
	ut := agentstate.UserTimer{Record: messages.TimerRecord{TimerID: messages.NewID("tmr"), Message: "Post the daily report.",
		Priority: messages.PriorityNormal, EveryMS: every.Milliseconds(), Start: now, Missed: messages.MissedRunOnce,
		Overlap: messages.OverlapQueue, CreatedBy: "operator", CreatedAt: now}, NextDueAt: now, Fires: 100,
		LastFireAt: &now, LastFireID: messages.NewID("tmr") + "@1779000000000000000", LastMessageID: messages.NewID("msg")}
	b, _ := json.Marshal(ut)
	return len(b)
}

// selfCPU is this process's CPU time so far; 0 when /proc cannot tell.
func selfCPU() time.Duration {
	d, err := processCPU(os.Getpid())
	if err != nil {
		return 0
	}
	return d
}
