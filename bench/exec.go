package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// ExecDir is the sub-directory of ExecConfig.Dir that holds the execution
// root and the output artifacts.
const ExecDir = "exec"

// ExecConfig sets the workload of Exec.
type ExecConfig struct {
	// Dir is the parent directory; the commands run in ExecDir under it.
	Dir string
	// Runs is the number of timed runs of each of the inline ExecCommand
	// and the bare fork/exec (alternating, after a short warm-up).
	Runs int
	// CaptureMB is the output, in MiB, of the capture run.
	CaptureMB int
	// Keep leaves ExecDir and its artifacts on disk.
	Keep bool
}

// DefaultExecConfig returns the default workload: 200 runs of each and a
// 100 MiB capture.
func DefaultExecConfig(dir string) ExecConfig {
	return ExecConfig{Dir: dir, Runs: 200, CaptureMB: 100}
}

// Validate reports the first setting that cannot run.
func (c ExecConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("exec bench: no directory")
	case c.Runs < 1:
		return fmt.Errorf("exec bench: runs is %d, want at least 1", c.Runs)
	case c.CaptureMB < 1:
		return fmt.Errorf("exec bench: capture is %d MiB, want at least 1", c.CaptureMB)
	}
	return nil
}

// ExecResult is what Exec measured.
type ExecResult struct {
	Runs  int    `json:"runs"`
	Shell string `json:"shell"`
	// InlineP50Ms is the median wall time of an inline ExecCommand of
	// `true`: argument decoding, its process group, output files, wait,
	// preview and the result envelope with its receipt.
	InlineP50Ms float64 `json:"inline_p50_ms"`
	// BareP50Ms is the median wall time of `<shell> -c true` with os/exec
	// and nothing else, in the same run.
	BareP50Ms float64 `json:"bare_p50_ms"`
	// ExecOverheadRatio is InlineP50Ms / BareP50Ms (target: at most 1.5).
	ExecOverheadRatio float64 `json:"exec_overhead_ratio"`

	CaptureBytes   int64   `json:"capture_bytes"`
	CaptureSeconds float64 `json:"capture_seconds"`
	// CaptureMBPerSec is the output captured through ExecCommand, in
	// megabytes (10^6 bytes, as go test reports MB/s) per second.
	CaptureMBPerSec float64 `json:"capture_mb_per_sec"`
}

// Exec measures command execution as agents use it, on real processes:
// the overhead of an inline ExecCommand of `true` over a bare fork/exec of
// the same shell command (runs alternate, so drift favours neither), and
// the capture throughput of one command writing cfg.CaptureMB MiB through
// ExecCommand into its artifact file with bounded memory. Every process
// has ended and, unless cfg.Keep, ExecDir is removed when it returns.
func Exec(ctx context.Context, cfg ExecConfig) (ExecResult, error) {
	if err := cfg.Validate(); err != nil {
		return ExecResult{}, err
	}
	shell, err := exec.DefaultShell()
	if err != nil {
		return ExecResult{}, fmt.Errorf("exec bench: %w", err)
	}
	dir := filepath.Join(cfg.Dir, ExecDir)
	if err := os.MkdirAll(filepath.Join(dir, "root"), 0o700); err != nil {
		return ExecResult{}, fmt.Errorf("exec bench: %w", err)
	}
	if !cfg.Keep {
		defer os.RemoveAll(dir)
	}
	root, err := tools.NewExecRoot(filepath.Join(dir, "root"))
	if err != nil {
		return ExecResult{}, err
	}
	arts, err := tools.NewArtifactDir(filepath.Join(dir, "artifacts"))
	if err != nil {
		return ExecResult{}, err
	}
	tool := exec.ExecCommand(exec.Config{Root: root, Artifacts: arts, DefaultYield: time.Minute, MaxYield: time.Hour})
	res := ExecResult{Runs: cfg.Runs, Shell: shell}
	if err := overhead(ctx, tool, shell, cfg.Runs, &res); err != nil {
		return ExecResult{}, err
	}
	if err := capture(ctx, tool, int64(cfg.CaptureMB)<<20, &res); err != nil {
		return ExecResult{}, err
	}
	return res, nil
}

// overhead times cfg.Runs inline and bare runs of `true`, alternating,
// after a warm-up of each.
func overhead(ctx context.Context, tool tools.Tool, shell string, runs int, res *ExecResult) error {
	inlineRun := func() error {
		if r := tool.Call(ctx, json.RawMessage(`{"cmd":"true"}`)); r.Status != messages.ToolOK {
			return fmt.Errorf("exec bench: ExecCommand true: %s", r.Receipt)
		}
		return nil
	}
	bareRun := func() error { return osexec.CommandContext(ctx, shell, "-c", "true").Run() }
	var inline, bare []time.Duration
	for i := range runs + 5 {
		for _, w := range []struct {
			run func() error
			out *[]time.Duration
		}{{inlineRun, &inline}, {bareRun, &bare}} {
			t0 := time.Now()
			if err := w.run(); err != nil {
				return fmt.Errorf("exec bench: %w", err)
			}
			if i >= 5 { // warm-up runs are not timed
				*w.out = append(*w.out, time.Since(t0))
			}
		}
	}
	slices.Sort(inline)
	slices.Sort(bare)
	res.InlineP50Ms, res.BareP50Ms = ms(percentile(inline, 0.5)), ms(percentile(bare, 0.5))
	if res.BareP50Ms > 0 {
		res.ExecOverheadRatio = res.InlineP50Ms / res.BareP50Ms
	}
	return nil
}

// capture runs one command writing n bytes through ExecCommand and checks
// they were all captured.
func capture(ctx context.Context, tool tools.Tool, n int64, res *ExecResult) error {
	args, _ := json.Marshal(map[string]string{"cmd": fmt.Sprintf("head -c %d /dev/zero", n)})
	t0 := time.Now()
	r := tool.Call(ctx, args)
	elapsed := time.Since(t0)
	if r.Status != messages.ToolOK {
		return fmt.Errorf("exec bench: capture: %s", r.Receipt)
	}
	var env tools.Envelope
	var out exec.ExecResult
	if err := json.Unmarshal(r.Envelope, &env); err != nil {
		return fmt.Errorf("exec bench: capture envelope: %w", err)
	}
	if err := json.Unmarshal(env.Result, &out); err != nil {
		return fmt.Errorf("exec bench: capture result: %w", err)
	}
	if out.StdoutArtifact == nil || *out.StdoutArtifact >= len(out.Artifacts) {
		return fmt.Errorf("exec bench: capture of %d bytes kept no output artifact", n)
	}
	fi, err := os.Stat(out.Artifacts[*out.StdoutArtifact].Path)
	if err != nil || fi.Size() != n {
		return fmt.Errorf("exec bench: captured %v bytes (%v), want %d", sizeOf(fi), err, n)
	}
	res.CaptureBytes, res.CaptureSeconds = n, elapsed.Seconds()
	res.CaptureMBPerSec = float64(n) / 1e6 / elapsed.Seconds()
	return nil
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return -1
	}
	return fi.Size()
}
