package exec_test

import (
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// TestRecovered: a lone command that exited by itself while the runtime
// was down is a completed result with its real status and output; killed
// ones, or one ended by a signal, make the call interrupted, saying what
// happened to each.
func TestRecovered(t *testing.T) {
	e := newEnv(t)
	out := exec.OutputFiles{Stdout: "exec/cmd_1/stdout.log", Stderr: "exec/cmd_1/stderr.log"}
	f, err := e.cfg.Artifacts.Create(out.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("deployed\n")
	f.Close()
	l := exec.Launch{ExecID: "cmd_1", Cmd: "make deploy", Output: out}
	for _, tc := range []struct {
		name   string
		found  []exec.Settlement
		status messages.ToolStatus
		want   []string
	}{
		{"exited", []exec.Settlement{{Launch: l, Finished: true, Exit: exec.ExitStatus{Code: 2}}}, messages.ToolOK,
			[]string{"finished by itself while the runtime was down", "Process exited with code 2", "deployed"}},
		{"killed", []exec.Settlement{{Launch: l, Killed: 2}}, messages.ToolInterrupted,
			[]string{"$ make deploy", "still running, so it was killed (2 processes)", "deployed"}},
		{"signalled", []exec.Settlement{{Launch: l, Finished: true, Exit: exec.ExitStatus{Code: -1, Signal: "SIGTERM"}}}, messages.ToolInterrupted,
			[]string{"ended while the runtime was down: killed by signal SIGTERM"}},
		{"never ran", []exec.Settlement{{Launch: l}}, messages.ToolInterrupted,
			[]string{"left no exit status"}},
	} {
		r := exec.Recovered(exec.ExecCommandName, e.cfg.Artifacts, tc.found, 1000)
		if r.Status != tc.status {
			t.Errorf("%s: status %s, want %s: %s", tc.name, r.Status, tc.status, r.Receipt)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.Receipt, w) {
				t.Errorf("%s: receipt lacks %q:\n%s", tc.name, w, r.Receipt)
			}
		}
	}
}
