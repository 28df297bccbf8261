package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"text/tabwriter"

	"github.com/holon-actors/holon-actors/bench"
)

// benchCmd groups the load generators of package bench.
type benchCmd struct {
	Journal         benchJournalCmd         `cmd:"" help:"Append throughput and latency of the journal, durable and unsynced."`
	PG              benchPGCmd              `cmd:"" name:"pg" help:"Durable append throughput and latency of the PostgreSQL journal (group commit across streams) on a database you give."`
	JournalRecovery benchJournalRecoveryCmd `cmd:"" name:"journal-recovery" help:"Time to reopen the journal and recover every stream from its snapshot and tail."`
	Mailbox         benchMailboxCmd         `cmd:"" help:"Throughput of the four-band agent mailbox against protoactor's default, in the same run."`
	Turns           benchTurnsCmd           `cmd:"" help:"Turn throughput and latency of agents on a durable runtime, zero-latency model, and RSS per idle agent."`
	Children        benchChildrenCmd        `cmd:"" help:"Private children spawned, run and rejoined per second (zero-latency model, durable journal), and memory per live child."`
	Recovery        benchRecoveryCmd        `cmd:"" help:"Time from opening the store to every agent of a runtime recovered and ready."`
	Transport       benchTransportCmd       `cmd:"" help:"Overhead of one model round through the runtime's provider path against a bare net/http round trip, same loopback server."`
	API             benchAPICmd             `cmd:"" name:"api" help:"Prompts admitted durably per second through the control socket, and admit latency."`
	Exec            benchExecCmd            `cmd:"" help:"Overhead of an inline ExecCommand over a bare fork/exec, in the same run, and output capture throughput."`
	SSE             benchSSECmd             `cmd:"" name:"sse" help:"Memory of many event streams on one agent with large events: peak while served, left after they close."`
	Remote          benchRemoteCmd          `cmd:"" help:"Prompts admitted durably per second over the cluster protocol (mTLS) and over the control socket of the same node, in the same run, and their admit latency."`
	Cluster         benchClusterCmd         `cmd:"" help:"Three nodes and PostgreSQL on loopback: failover after kill -9 of an agent's owner, PostgreSQL durable events/s, turns/s against one node over Badger, acknowledged prompts lost."`
	Timers          benchTimersCmd          `cmd:"" help:"Timer service under 10,000 agents with a recurring timer each: fires per second sustained, lateness after the due time, memory per pending timer."`
	Memory          benchMemoryCmd          `cmd:"" help:"An agent's memory search index of 100,000 records: full rebuild records per second, bytes per record, search latency p50/p99."`
	MCP             benchMCPCmd             `cmd:"" name:"mcp" help:"Overhead of a no-op MCP tool call through the runtime against the same call with the SDK client directly, same stdio server, same run."`
	MCPServer       benchMCPServerCmd       `cmd:"" name:"mcp-server" hidden:"" help:"The no-op MCP server bench mcp starts (stdio)."`
	TUI             benchTUICmd             `cmd:"" name:"tui" help:"The operator console against an agent of 100,000 events with 20 agents busy: first paint after connecting, keystroke to repaint."`
	Storage         benchStorageCmd         `cmd:"" help:"Disk used by 100,000 turns on one agent with journal retention and without, and the agent listing and runtime status at 1 GB of journal."`
	Observability   benchObservabilityCmd   `cmd:"" help:"Cost of traces (OTLP to a loopback receiver) and metrics: the bench turns workload with them off and on, alternating; prints observability_overhead_ratio."`
}

// benchFlags are the flags of every bench command.
type benchFlags struct {
	Dir        string `help:"Directory for the stores (default: a new temporary directory, removed afterwards unless --keep)." env:"HOLON_BENCH_DIR" type:"path" placeholder:"DIR"`
	Keep       bool   `help:"Keep the stores written under --dir."`
	CPUProfile string `name:"cpu-profile" help:"Write a CPU profile of the whole run to FILE." type:"path" placeholder:"FILE"`
}

// benchJournalCmd runs bench.Journal.
type benchJournalCmd struct {
	benchFlags `embed:""`

	Streams int `help:"Concurrent writers, one stream each." default:"100"`
	Events  int `help:"Events appended to each stream." default:"1000"`
	Batch   int `help:"Events per Append call." default:"1"`
}

// Run measures the journal and prints the result.
func (c *benchJournalCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.JournalConfig{Dir: dir, Streams: c.Streams, Events: c.Events, Batch: c.Batch, Keep: c.Keep, Logger: e.log}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Journal(ctx, cfg)
		return r, journalRows(r), err
	})
}

func journalRows(r bench.JournalResult) [][2]string {
	return [][2]string{
		{"workload", fmt.Sprintf("%d streams × %d events, %d per append", r.Streams, r.Events, r.Batch)},
		{"total events", fmt.Sprint(r.TotalEvents)},
		{"durable events/s", fmt.Sprintf("%.0f", r.DurableEventsPerSec)},
		{"durable run", fmt.Sprintf("%.2f s", r.DurableSeconds)},
		{"append p50", fmt.Sprintf("%.2f ms", r.AppendP50Ms)},
		{"append p99", fmt.Sprintf("%.2f ms", r.AppendP99Ms)},
		{"append max", fmt.Sprintf("%.2f ms", r.AppendMaxMs)},
		{"unsynced events/s", fmt.Sprintf("%.0f (not durable: ceiling only)", r.UnsyncedEventsPerSec)},
		{"unsynced run", fmt.Sprintf("%.2f s", r.UnsyncedSeconds)},
		{"bytes per event", fmt.Sprintf("%.0f", r.BytesPerEvent)},
	}
}

// benchJournalRecoveryCmd runs bench.JournalRecovery.
type benchJournalRecoveryCmd struct {
	benchFlags `embed:""`

	Streams       int `help:"Streams (agents) to recover." default:"10000"`
	Events        int `help:"Events in each stream; the snapshot sits at events - events/10." default:"100"`
	SnapshotBytes int `help:"Size of each stream's snapshot." default:"1024"`
	Workers       int `help:"Streams recovered at once (0: GOMAXPROCS)." default:"0"`
}

// Run measures recovery and prints the result.
func (c *benchJournalRecoveryCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.JournalRecoveryConfig{
			Dir: dir, Streams: c.Streams, Events: c.Events, SnapshotBytes: c.SnapshotBytes,
			Workers: c.Workers, Keep: c.Keep, Logger: e.log,
		}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.JournalRecovery(ctx, cfg)
		return r, recoveryRows(r), err
	})
}

func recoveryRows(r bench.JournalRecoveryResult) [][2]string {
	return [][2]string{
		{"workload", fmt.Sprintf("%d streams × %d events, snapshot at seq %d", r.Streams, r.EventsPerStream, r.SnapshotSeq)},
		{"recovery", fmt.Sprintf("%.1f ms", r.RecoveryMs)},
		{"open", fmt.Sprintf("%.1f ms", r.OpenMs)},
		{"snapshots loaded", fmt.Sprint(r.SnapshotsLoaded)},
		{"events read", fmt.Sprint(r.EventsRead)},
		{"workers", fmt.Sprint(r.Workers)},
		{"populate (untimed)", fmt.Sprintf("%.2f s", r.PopulateSeconds)},
	}
}

// benchExecCmd runs bench.Exec.
type benchExecCmd struct {
	benchFlags `embed:""`

	Runs      int `help:"Timed runs of each of the inline ExecCommand and the bare fork/exec of true; the medians are compared." default:"200"`
	CaptureMB int `name:"capture-mb" help:"Output of the capture run, in MiB." default:"100"`
}

// Run measures command execution and prints the result.
func (c *benchExecCmd) Run(ctx context.Context, e *env) error {
	return c.do(e, func(dir string) (any, [][2]string, error) {
		cfg := bench.ExecConfig{Dir: dir, Runs: c.Runs, CaptureMB: c.CaptureMB, Keep: c.Keep}
		if err := cfg.Validate(); err != nil {
			return nil, nil, usage(err)
		}
		r, err := bench.Exec(ctx, cfg)
		return r, [][2]string{
			{"workload", fmt.Sprintf("%d runs of true each (%s), %d MiB captured", r.Runs, r.Shell, c.CaptureMB)},
			{"inline ExecCommand p50", fmt.Sprintf("%.2f ms", r.InlineP50Ms)},
			{"bare fork/exec p50", fmt.Sprintf("%.2f ms", r.BareP50Ms)},
			{"exec overhead ratio", fmt.Sprintf("%.2f (target <= 1.5)", r.ExecOverheadRatio)},
			{"capture", fmt.Sprintf("%.0f MB/s (%.2f s)", r.CaptureMBPerSec, r.CaptureSeconds)},
		}, err
	})
}

// do runs measure in the bench directory, with the CPU profile if asked,
// and prints its result as JSON or as a table.
func (f benchFlags) do(e *env, measure func(dir string) (any, [][2]string, error)) (err error) {
	dir, cleanup, err := f.dir()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, cleanup()) }()
	if f.CPUProfile != "" {
		stop, perr := startCPUProfile(f.CPUProfile)
		if perr != nil {
			return perr
		}
		defer func() { err = errors.Join(err, stop()) }()
	}
	result, rows, err := measure(dir)
	if err != nil {
		return err
	}
	if f.Keep {
		fmt.Fprintf(e.stderr, "holon-actors: stores kept in %s\n", dir)
	}
	return printResult(e, result, rows)
}

// printResult prints a bench result as indented JSON with --json, else as
// an aligned table.
func printResult(e *env, result any, rows [][2]string) error {
	if e.JSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(result)
	}
	return printTable(e.stdout, rows)
}

// dir returns --dir, or a new temporary directory and a cleanup that removes
// it unless --keep.
func (f benchFlags) dir() (string, func() error, error) {
	if f.Dir != "" {
		return f.Dir, func() error { return nil }, nil
	}
	dir, err := os.MkdirTemp("", "holon-bench-")
	if err != nil {
		return "", nil, fmt.Errorf("bench directory: %w", err)
	}
	if f.Keep {
		return dir, func() error { return nil }, nil
	}
	return dir, func() error { return os.RemoveAll(dir) }, nil
}

func startCPUProfile(path string) (stop func() error, err error) {
	out, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		return nil, errors.Join(fmt.Errorf("cpu profile: %w", err), out.Close())
	}
	return func() error {
		pprof.StopCPUProfile()
		return out.Close()
	}, nil
}

// printTable writes rows as two aligned columns.
func printTable(w io.Writer, rows [][2]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", r[0], r[1])
	}
	return tw.Flush()
}
