package persistence

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// HOLON_HOME layout. Everything the runtime keeps lives under one directory:
//
//	$HOLON_HOME/data/                  the Badger store (journals, snapshots), locked while open
//	$HOLON_HOME/agents/<agent_id>/     an agent's home; artifacts in .holon/artifacts/
//	$HOLON_HOME/run/                   control socket and pid file of the daemon
//	$HOLON_HOME/logs/                  daemon logs
const (
	homeEnv      = "HOLON_HOME"
	defaultHome  = ".holon"
	dataDirName  = "data"
	agentsDir    = "agents"
	runDirName   = "run"
	logsDirName  = "logs"
	artifactsRel = ".holon/artifacts"
)

// ResolveHome returns the runtime home: flagValue when set, else $HOLON_HOME,
// else ~/.holon. The result is absolute.
func ResolveHome(flagValue string) (string, error) {
	home := flagValue
	if home == "" {
		home = os.Getenv(homeEnv)
	}
	if home == "" {
		userHome, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("resolve home: set --home or %s: %w", homeEnv, err)
		}
		home = filepath.Join(userHome, defaultHome)
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("resolve home %s: %w", home, err)
	}
	return abs, nil
}

// DataDir is the Badger store's directory under home.
func DataDir(home string) string { return filepath.Join(home, dataDirName) }

// RunDir holds the daemon's socket and pid file.
func RunDir(home string) string { return filepath.Join(home, runDirName) }

// LogsDir holds the daemon's logs.
func LogsDir(home string) string { return filepath.Join(home, logsDirName) }

// AgentHome is the home directory of one agent. It fails for an agent id
// that is not a single safe path element.
func AgentHome(home, agentID string) (string, error) {
	if err := checkPathElement(agentID); err != nil {
		return "", fmt.Errorf("agent home for %q: %w", agentID, err)
	}
	return filepath.Join(home, agentsDir, agentID), nil
}

// ArtifactsDir is where an agent's artifacts live: <agent_home>/.holon/artifacts.
func ArtifactsDir(agentHome string) string { return filepath.Join(agentHome, artifactsRel) }

var errBadElement = errors.New("must be a non-empty name without '/', '\\', NUL, '.' or '..'")

func checkPathElement(s string) error {
	if s == "" || s == "." || s == ".." || len(s) > 200 {
		return errBadElement
	}
	for _, c := range s {
		if c == '/' || c == '\\' || c == 0 {
			return errBadElement
		}
	}
	return nil
}
