package actors_test

import (
	"fmt"

	"github.com/holon-actors/holon-actors/actors"
)

// ExampleBuiltinTools builds the tool set a runtime gives its agents:
// every call is bound to the calling agent's execution root, artifacts,
// tasks and inspector by AgentDeps.ToolEnv. The runtime adds Sleep.
func ExampleBuiltinTools() {
	budget, err := actors.BuiltinBudget() // HOLON_DEFAULT_TOOL_OUTPUT_TOKENS, HOLON_MAX_TOOL_OUTPUT_TOKENS
	if err != nil {
		fmt.Println(err)
		return
	}
	reg, err := actors.BuiltinTools(budget)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = actors.AgentDeps{Tools: reg, ToolEnv: actors.ToolEnv{Home: "/var/lib/holon", Budget: budget}}
	fmt.Println(reg.Names())
	// Output: [AgentGet ApplyPatch ExecCommand ExecCommandBatch TaskInput TaskList TaskOutput TaskStatus TaskStop]
}
