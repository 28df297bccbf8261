package node

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
)

// Files under $HOLON_HOME/run.
const (
	SocketName      = "control.sock"
	RuntimeFileName = "runtime.json"      // who is running: pid, socket, fingerprint
	CleanMarkerName = "clean-shutdown"    // written last by a clean shutdown
	FailureFileName = "last-failure.json" // the last startup or shutdown failure
)

// RuntimeFile is $HOLON_HOME/run/runtime.json.
type RuntimeFile struct {
	PID               int       `json:"pid"`
	HomeDir           string    `json:"home_dir"`
	SocketPath        string    `json:"socket_path"`
	HTTPAddr          string    `json:"http_addr,omitempty"`
	RemoteAddr        string    `json:"remote_addr,omitempty"` // remote clients' address (--remote-listen)
	ConfigFingerprint string    `json:"config_fingerprint"`
	Version           string    `json:"version"`
	StartedAt         time.Time `json:"started_at"`
}

// WriteJSONFile writes v to path atomically (temp file, then rename).
func WriteJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadFailure reads the failure recorded in home's run directory, or nil.
func ReadFailure(home string) *control.Failure {
	var f control.Failure
	b, err := os.ReadFile(filepath.Join(persistence.RunDir(home), FailureFileName))
	if err != nil || json.Unmarshal(b, &f) != nil {
		return nil
	}
	return &f
}
