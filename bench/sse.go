package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// SSEDir is the sub-directory of SSEConfig.Dir that holds the store and
// the socket.
const SSEDir = "sse"

// sseAgent is the agent whose journal the subscribers follow.
const sseAgent = "sse-bench"

// The memory budget of the default SSE workload (500 subscribers, 1 MiB
// events): the peak resident set over the baseline, and the anonymous
// memory left once every stream closed.
const (
	SSEPeakBudgetBytes     = 256 << 20
	SSERetainedBudgetBytes = 16 << 20
)

// SSEConfig sets the workload of SSE.
type SSEConfig struct {
	// Dir is the parent directory; SSEDir under it must be missing or hold
	// an empty store.
	Dir string
	// Subscribers is the number of event streams held open at once, each
	// on its own connection; the server's cap is set to it.
	Subscribers int
	// Events is the number of large events appended while they follow.
	Events int
	// EventBytes is the size of each event's tool receipt.
	EventBytes int
	Keep       bool
	Logger     *slog.Logger
}

// DefaultSSEConfig is 500 subscribers following 20 events of 1 MiB.
func DefaultSSEConfig(dir string) SSEConfig {
	return SSEConfig{Dir: dir, Subscribers: 500, Events: 20, EventBytes: 1 << 20}
}

// Validate reports the first setting that cannot run.
func (c SSEConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("sse bench: dir is empty")
	case c.Subscribers < 1:
		return fmt.Errorf("sse bench: subscribers is %d, want at least 1", c.Subscribers)
	case c.Events < 1:
		return fmt.Errorf("sse bench: events is %d, want at least 1", c.Events)
	case c.EventBytes < 1 || c.EventBytes > 64<<20:
		return fmt.Errorf("sse bench: event bytes is %d, want 1 to %d", c.EventBytes, 64<<20)
	}
	return nil
}

// SSEResult is what SSE measured. Memory readings are of the whole
// process: the store, the runtime, the control server and the
// subscribers' clients, which read with a 16 KiB buffer and keep nothing.
type SSEResult struct {
	Subscribers int `json:"subscribers"`
	Events      int `json:"events"`
	EventBytes  int `json:"event_bytes"`
	// FrameBytes is the size of one event as served on the stream.
	FrameBytes int `json:"frame_bytes"`
	// Seconds is from the first append to the last event read by every
	// subscriber; MBPerSec is the bytes served to all of them over it.
	Seconds  float64 `json:"seconds"`
	MBPerSec float64 `json:"mb_per_sec"`
	// RSS (and Go heap in use) settled before the subscribers opened,
	// with them open and idle, and after they all closed. Settled means
	// after a GC and debug.FreeOSMemory.
	RSSBaselineBytes  int64  `json:"rss_baseline_bytes"`
	RSSConnectedBytes int64  `json:"rss_connected_bytes"`
	RSSAfterBytes     int64  `json:"rss_after_bytes"`
	HeapBaselineBytes uint64 `json:"heap_baseline_bytes"`
	HeapAfterBytes    uint64 `json:"heap_after_bytes"`
	// RSSPeakBytes and HeapPeakBytes are the highest readings (every 20
	// ms, not settled) while the events were served.
	RSSPeakBytes  int64  `json:"rss_peak_bytes"`
	HeapPeakBytes uint64 `json:"heap_peak_bytes"`
	// PeakOverBaselineBytes is RSSPeakBytes - RSSBaselineBytes: what
	// serving the streams cost at its worst.
	PeakOverBaselineBytes int64 `json:"peak_over_baseline_bytes"`
	// RetainedBytes is RSSAfterBytes - RSSBaselineBytes: what the streams
	// left behind once closed.
	RetainedBytes int64 `json:"retained_bytes"`
	// The anonymous part of the resident set (RssAnon: the heap, stacks),
	// at the same three points. The rest is mostly the store's value log,
	// mapped from its files: the 1 MiB events are read from there, and the
	// kernel reclaims those pages when it needs them.
	AnonBaselineBytes int64 `json:"anon_baseline_bytes"`
	AnonPeakBytes     int64 `json:"anon_peak_bytes"`
	AnonAfterBytes    int64 `json:"anon_after_bytes"`
	// ReplayPeakOverBaselineBytes is the peak resident set over the
	// baseline while, after the live run, as many streams reconnect from
	// the start of the journal and replay it all (the events appended,
	// 1 MiB each); ReplaySeconds is from the first connect to the last
	// stream's last event.
	ReplayPeakOverBaselineBytes int64   `json:"replay_peak_over_baseline_bytes"`
	ReplaySeconds               float64 `json:"replay_seconds"`
	// Refused is the status of one more stream than the cap (429).
	Refused int `json:"refused_status"`
	// WithinBudget is PeakOverBaselineBytes <= SSEPeakBudgetBytes and
	// AnonAfterBytes - AnonBaselineBytes <= SSERetainedBudgetBytes.
	WithinBudget bool `json:"within_budget"`
}

// SSE starts a runtime and its control server on a unix socket over a
// durable store, writes one agent's journal, opens cfg.Subscribers event
// streams on it, appends cfg.Events events of cfg.EventBytes one after
// another, each read by every subscriber before the next, and samples the
// process's memory throughout. It checks that one stream more than the
// cap is refused, closes the streams and reads the memory again.
func SSE(ctx context.Context, cfg SSEConfig) (SSEResult, error) {
	if err := cfg.Validate(); err != nil {
		return SSEResult{}, err
	}
	return withControlStore(ctx, filepath.Join(cfg.Dir, SSEDir), cfg.Keep, cfg.Logger,
		func(st *persistence.BadgerStore, sock string) (SSEResult, error) { return sseRun(ctx, cfg, st, sock) })
}

func sseRun(ctx context.Context, cfg SSEConfig, st *persistence.BadgerStore, sock string) (res SSEResult, err error) {
	rt, err := newBenchRuntime(st, cfg.Logger)
	if err != nil {
		return SSEResult{}, err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	srv, stop, err := serveControl(control.Config{Runtime: rt, Store: st, MaxEventStreams: cfg.Subscribers}, sock)
	if err != nil {
		return SSEResult{}, err
	}
	defer func() { err = errors.Join(err, stop()) }()
	if _, err := st.Append(ctx, sseAgent, []messages.Event{sseEvent(0, "start")}); err != nil {
		return SSEResult{}, err
	}
	res = SSEResult{Subscribers: cfg.Subscribers, Events: cfg.Events, EventBytes: cfg.EventBytes}
	base := restingMemory(ctx)
	res.RSSBaselineBytes, res.HeapBaselineBytes, res.AnonBaselineBytes = base.rss, base.heap, anonBytes()

	subs, err := openSubscribers(ctx, sock, cfg.Subscribers)
	defer subs.close()
	if err != nil {
		return SSEResult{}, err
	}
	if err := subs.waitAll(ctx, 1); err != nil {
		return SSEResult{}, err
	}
	res.RSSConnectedBytes = settledMemory().rss
	if res.Refused, err = refusedStatus(ctx, sock); err != nil {
		return SSEResult{}, err
	}

	peak := startPeakSampler()
	servedBefore := subs.bytes.Load()
	began := time.Now()
	receipt := strings.Repeat("build log line: \"ok\"\tall good\n", cfg.EventBytes/30+1)[:cfg.EventBytes]
	for i := range cfg.Events {
		if _, err := st.Append(ctx, sseAgent, []messages.Event{sseEvent(i+1, receipt)}); err != nil {
			return SSEResult{}, errors.Join(err, peak.stop())
		}
		if err := subs.waitAll(ctx, uint64(i+2)); err != nil {
			return SSEResult{}, errors.Join(err, peak.stop())
		}
	}
	elapsed := time.Since(began)
	if err := peak.stop(); err != nil {
		return SSEResult{}, err
	}
	res.RSSPeakBytes, res.HeapPeakBytes, res.AnonPeakBytes = peak.rss, peak.heap, peak.anon
	res.Seconds = elapsed.Seconds()
	got := subs.bytes.Load() - servedBefore
	res.FrameBytes = int(got / int64(cfg.Subscribers) / int64(cfg.Events))
	res.MBPerSec = float64(got) / 1e6 / res.Seconds

	subs.close()
	if err := waitStreamsClosed(ctx, srv); err != nil {
		return SSEResult{}, err
	}
	replay, err := replayAll(ctx, sock, srv, cfg.Subscribers, uint64(cfg.Events+1))
	if err != nil {
		return SSEResult{}, err
	}
	res.ReplayPeakOverBaselineBytes, res.ReplaySeconds = replay.rss-res.RSSBaselineBytes, replay.seconds
	after := restingMemory(ctx)
	res.RSSAfterBytes, res.HeapAfterBytes, res.AnonAfterBytes = after.rss, after.heap, anonBytes()
	res.PeakOverBaselineBytes = res.RSSPeakBytes - res.RSSBaselineBytes
	res.RetainedBytes = res.RSSAfterBytes - res.RSSBaselineBytes
	res.WithinBudget = res.PeakOverBaselineBytes <= SSEPeakBudgetBytes &&
		res.AnonAfterBytes-res.AnonBaselineBytes <= SSERetainedBudgetBytes
	return res, nil
}

// sseEvent is the i-th tool result of the bench agent, with receipt.
func sseEvent(i int, receipt string) messages.Event {
	ev, err := messages.NewEvent(sseAgent, time.Now(), messages.ToolExecuted{
		TurnID: "turn-1", CallID: "call-" + strconv.Itoa(i), ToolName: "exec_command",
		Status: messages.ToolOK, Envelope: []byte(`{}`), Receipt: receipt})
	if err != nil {
		panic(err) // a fixed, valid payload
	}
	return ev
}

// subscribers are the bench's event streams; each counts the events it read.
type subscribers struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	seqs   []atomic.Uint64 // the last event_seq each one read
	bytes  atomic.Int64    // read by all of them
	moved  chan struct{}   // signalled (buffer 1) when any one reads an event
	failed atomic.Pointer[error]
}

// openSubscribers opens n event streams on the bench agent from the start
// of its journal, each on its own connection.
func openSubscribers(ctx context.Context, sock string, n int) (*subscribers, error) {
	ctx, cancel := context.WithCancel(ctx)
	s := &subscribers{cancel: cancel, seqs: make([]atomic.Uint64, n), moved: make(chan struct{}, 1)}
	for i := range n {
		resp, err := openStream(ctx, sock)
		if err != nil {
			return s, fmt.Errorf("subscriber %d: %w", i, err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return s, fmt.Errorf("subscriber %d: HTTP %d", i, resp.StatusCode)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer resp.Body.Close()
			// read ends only with an error: the stream broke, or it was
			// closed (ctx), which is no failure.
			if err := s.read(i, resp); ctx.Err() == nil {
				s.failed.CompareAndSwap(nil, &err)
				s.signal()
			}
		}()
	}
	return s, nil
}

// openStream sends one GET of the bench agent's event stream on a new
// connection.
func openStream(ctx context.Context, sock string) (*http.Response, error) {
	tr := &http.Transport{DisableKeepAlives: true, ReadBufferSize: 16 << 10,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://holon/agents/"+sseAgent+"/events", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	return tr.RoundTrip(req)
}

// read counts the events of one stream by their id lines, without keeping
// their data, until the stream ends; it returns why.
func (s *subscribers) read(i int, resp *http.Response) error {
	br := bufio.NewReaderSize(resp.Body, 16<<10)
	lineStart := true
	var id uint64 // of the event being read; it counts once its blank line is
	for {
		line, err := br.ReadSlice('\n')
		s.bytes.Add(int64(len(line)))
		switch {
		case lineStart && bytes.HasPrefix(line, []byte("id: ")):
			seq, perr := strconv.ParseUint(string(bytes.TrimSpace(line[len("id: "):])), 10, 64)
			if perr != nil {
				return fmt.Errorf("subscriber %d: bad id line %q", i, line)
			}
			id = seq
		case lineStart && string(line) == "\n" && id > 0:
			s.seqs[i].Store(id)
			id = 0
			s.signal()
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			lineStart = false
		case err != nil:
			return err
		default:
			lineStart = true
		}
	}
}

func (s *subscribers) signal() {
	select {
	case s.moved <- struct{}{}:
	default:
	}
}

// waitAll waits until every subscriber has read event seq.
func (s *subscribers) waitAll(ctx context.Context, seq uint64) error {
	for {
		if p := s.failed.Load(); p != nil {
			return *p
		}
		done := true
		for i := range s.seqs {
			if s.seqs[i].Load() < seq {
				done = false
				break
			}
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.moved:
		}
	}
}

// close ends every stream and waits for their readers.
func (s *subscribers) close() {
	s.cancel()
	s.wg.Wait()
}

// replayed is what replayAll measured.
type replayed struct {
	rss     int64 // peak resident set
	seconds float64
}

// replayAll opens n streams from the start of the journal, one after
// another as a reconnecting crowd would, waits until each has read up to
// seq, closes them and returns the peak resident set meanwhile.
func replayAll(ctx context.Context, sock string, srv *control.Server, n int, seq uint64) (replayed, error) {
	peak := startPeakSampler()
	began := time.Now()
	subs, err := openSubscribers(ctx, sock, n)
	if err == nil {
		err = subs.waitAll(ctx, seq)
	}
	elapsed := time.Since(began)
	subs.close()
	err = errors.Join(err, peak.stop(), waitStreamsClosed(ctx, srv))
	return replayed{rss: peak.rss, seconds: elapsed.Seconds()}, err
}

// refusedStatus opens one stream more than the cap and returns its status.
func refusedStatus(ctx context.Context, sock string) (int, error) {
	resp, err := openStream(ctx, sock)
	if err != nil {
		return 0, fmt.Errorf("stream over the cap: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		return resp.StatusCode, fmt.Errorf("stream over the cap: HTTP %d, want 429", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// waitStreamsClosed waits until the server has let go of every stream.
func waitStreamsClosed(ctx context.Context, srv *control.Server) error {
	return srv.WaitEventStreams(ctx, 0)
}

// peakSampler reads the resident set and the heap every 20 ms and keeps
// the highest.
type peakSampler struct {
	rss  int64
	anon int64
	heap uint64
	done chan struct{} // closed by stop
	quit chan struct{} // closed by the sampler when it returns
}

func startPeakSampler() *peakSampler {
	p := &peakSampler{done: make(chan struct{}), quit: make(chan struct{})}
	go func() {
		defer close(p.quit)
		heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			p.rss = max(p.rss, residentBytes())
			p.anon = max(p.anon, anonBytes())
			metrics.Read(heap)
			p.heap = max(p.heap, heap[0].Value.Uint64())
			select {
			case <-p.done:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// stop ends the sampler; its readings are final when stop returns.
func (p *peakSampler) stop() error {
	close(p.done)
	<-p.quit
	return nil
}

// anonBytes is RssAnon of /proc/self/status, or 0 when it cannot be read.
func anonBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
