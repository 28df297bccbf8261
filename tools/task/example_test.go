package task_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// Example runs a command that outlives its yield time: ExecCommand
// promotes it to a task of the host, TaskInput feeds it, and TaskOutput
// waits for its result.
func Example() {
	dir, _ := os.MkdirTemp("", "holon-example")
	defer os.RemoveAll(dir)
	root, _ := tools.NewExecRoot(dir)
	arts, _ := tools.NewArtifactDir(dir + "/.artifacts")
	host := task.NewMemHost(arts, 5*time.Second, nil)
	defer host.Close()
	execCmd := exec.ExecCommand(exec.Config{Root: root, Artifacts: arts, Tasks: host})
	taskTools := task.Tools(host, tools.DefaultBudget())
	reg, _ := tools.NewRegistry(append(taskTools, execCmd)...)

	call := func(name, args string) tools.Result {
		t, _ := reg.Lookup(name)
		return t.Call(context.Background(), json.RawMessage(args))
	}
	fmt.Println(call("ExecCommand", `{"cmd":"read name; echo hello $name","accepts_input":true,"yield_time_ms":1}`).Receipt)
	fmt.Println(call("TaskInput", `{"task_id":"task_1","input":"Ada\n"}`).Receipt)
	res := call("TaskOutput", `{"task_id":"task_1","block":true}`)
	var env tools.Envelope
	_ = json.Unmarshal(res.Envelope, &env)
	var out task.OutputResult
	_ = json.Unmarshal(env.Result, &out)
	fmt.Println(out.RetrievalStatus, out.Task.Status, *out.Task.ExitStatus)
	fmt.Print(out.Task.OutputPreview)
	// Output:
	// Command promoted to background task
	// Task: task_1
	// Use TaskOutput to read its output, TaskInput to feed it, TaskStop to stop it.
	//
	// No output yet.
	// Sent 4 bytes to task task_1 via stdin
	// Use TaskOutput to read its response.
	// success completed 0
	// hello Ada
}
