package runtimetools_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/internal/importcheck"
)

// TestImportBoundary: no impure package is reachable from runtimetools in
// go list -deps (see agentstate's boundary test).
func TestImportBoundary(t *testing.T) {
	importcheck.Check(t, "github.com/holon-actors/holon-actors/actors/runtimetools", importcheck.Impure)
}
