package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// TurnsRunner runs one side of TurnOverhead: Turns, or ProcessTurns's
// `bench turns` in a process of its own.
type TurnsRunner func(context.Context, TurnsConfig) (TurnsResult, error)

// ProcessTurns is a TurnsRunner that runs cfg as `exe --json bench turns`
// in a process of its own and reads its result: its cpu_seconds are that
// process's alone, so two sides can run at once, each measured apart
// while both see the same machine (MemoryTurnOverhead).
func ProcessTurns(exe string) TurnsRunner {
	return func(ctx context.Context, cfg TurnsConfig) (TurnsResult, error) {
		if err := cfg.Validate(); err != nil {
			return TurnsResult{}, err
		}
		args := []string{"--json", "bench", "turns", "--agents", strconv.Itoa(cfg.Agents), "--turns", strconv.Itoa(cfg.Turns),
			"--dir", cfg.Dir}
		if cfg.Memory {
			args = append(args, "--memory")
		}
		if cfg.NoMemoryIndex {
			args = append(args, "--no-memory-index")
		}
		if cfg.MemoryToolsWithoutIndex {
			args = append(args, "--memory-tools")
		}
		if cfg.Keep {
			args = append(args, "--keep")
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return TurnsResult{}, fmt.Errorf("%s %s: %w: %s", exe, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		var r TurnsResult
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			return TurnsResult{}, fmt.Errorf("%s bench turns: result: %w", exe, err)
		}
		return r, nil
	}
}
