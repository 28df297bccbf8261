package actors

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/persistence"
)

// planPreviewChars bounds the preview of a plan artifact on read surfaces
// and in the prompt projection.
const planPreviewChars = 1200

// PlanArtifact describes a work item's plan file (agentstate.PlanArtifact).
type PlanArtifact = agentstate.PlanArtifact

// planPath is <agent_home>/work-items/<id>/plan.md; "" when the runtime
// has no HOLON_HOME (ToolEnv.Home empty).
func (e ToolEnv) planPath(agentID, itemID string) (string, error) {
	if e.Home == "" {
		return "", nil
	}
	home, err := persistence.AgentHome(e.Home, agentID)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "work-items", itemID, "plan.md"), nil
}

// writePlan seeds a work item's plan file (0600, its directories 0700).
func writePlan(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("plan artifact: %w", err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		return fmt.Errorf("plan artifact: %w", err)
	}
	return nil
}

// readPlanArtifact describes the plan file at path; nil when there is no
// such file (no home, or no plan was ever written).
func readPlanArtifact(path string) *PlanArtifact {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	h := sha256.New()
	head := make([]byte, planPreviewChars*utf8.UTFMax)
	n, _ := io.ReadFull(f, head)
	h.Write(head[:n])
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	preview, complete := agentstate.CutRunes(string(head[:n]), planPreviewChars)
	return &PlanArtifact{
		Path: path, Hash: "sha256:" + hex.EncodeToString(h.Sum(nil)), Bytes: fi.Size(),
		UpdatedAt: fi.ModTime().UTC(), Preview: preview, PreviewComplete: complete && int64(n) == fi.Size(),
	}
}
