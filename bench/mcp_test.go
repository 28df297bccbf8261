package bench_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/bench"
)

func TestMCPComparesBothPaths(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcptest-server")
	if out, err := exec.Command("go", "build", "-o", bin, "../internal/mcptest/mcptest-server").CombinedOutput(); err != nil {
		t.Fatalf("build the test server: %v\n%s", err, out)
	}
	r, err := bench.MCP(context.Background(), bench.MCPConfig{Server: []string{bin}, Calls: 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.Calls != 20 || r.RuntimeP50Us <= 0 || r.DirectP50Us <= 0 || r.MCPCallOverheadRatio <= 0 {
		t.Fatalf("result = %+v, want both paths timed", r)
	}
	if err := (bench.MCPConfig{Server: []string{bin}, Calls: 3}).Validate(); err == nil {
		t.Fatal("3 calls accepted")
	}
}
