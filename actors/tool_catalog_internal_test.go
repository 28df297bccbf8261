package actors

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/tools"
)

type catalogTool string

func (c catalogTool) Spec() tools.Spec {
	return tools.Spec{Name: string(c), Description: "a tool", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (catalogTool) Call(context.Context, json.RawMessage) tools.Result { return tools.Result{} }

// The catalog is built every model round: it is one slice of the right
// size, not one grown as the specs are appended (what the runtime's own
// tools and the registry's specs allocate themselves aside).
func TestToolCatalogAllocatesOnce(t *testing.T) {
	reg, err := tools.NewRegistry(catalogTool("echo"), catalogTool("grep"), catalogTool("read"))
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{deps: AgentDeps{Tools: reg}, wire: wiring{opTools: runtimetools.Tools(true), memory: newMemoryService(t.TempDir(), nil)}}
	parts := testing.AllocsPerRun(50, func() {
		for _, tl := range a.wire.opTools {
			_ = tl.Spec()
		}
		_ = a.deps.Tools.Specs()
	})
	got := testing.AllocsPerRun(50, func() { _ = a.toolCatalog() })
	if got != parts+1 {
		t.Errorf("toolCatalog allocates %v times, its parts %v: want the parts and one slice", got, parts)
	}
	if n := len(a.toolCatalog()); n != len(a.wire.opTools)+3 {
		t.Errorf("catalog of %d tools, want %d (every runtime tool, memory's included, and the registry's)", n, len(a.wire.opTools)+3)
	}
}
