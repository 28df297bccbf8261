package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
)

// tmux drives a program in a detached tmux session of its own server.
type tmux struct {
	t      *testing.T
	socket string // -L: a tmux server of this test only
}

func newTmux(t *testing.T, width, height int, command ...string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	x := &tmux{t: t, socket: fmt.Sprintf("holon-tui-%d", time.Now().UnixNano())}
	args := append([]string{"new-session", "-d", "-s", "console", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)}, command...)
	x.run(args...)
	x.run("set-option", "-t", "console", "remain-on-exit", "on") // the last screen stays to be read
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", x.socket, "kill-server").Run() })
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends keys (tmux key names, or literal text with -l).
func (x *tmux) keys(keys ...string) {
	x.run(append([]string{"send-keys", "-t", "console"}, keys...)...)
}

// typeLine types text literally and presses Enter.
func (x *tmux) typeLine(text string) {
	x.keys("-l", text)
	x.keys("Enter")
}

func (x *tmux) screen() string { return x.run("capture-pane", "-p", "-t", "console") }

// waitScreen polls the pane until cond holds on it: the console's
// process is not ours to wait on, so its screen is what we watch.
func (x *tmux) waitScreen(what string, cond func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := x.screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the console did not show %s within %s; screen:\n%s", what, e2eWait, s)
		}
		<-time.After(50 * time.Millisecond) // polling another process's screen
	}
}

// waitText waits until the screen shows every one of texts.
func (x *tmux) waitText(texts ...string) string {
	x.t.Helper()
	return x.waitScreen(strings.Join(texts, ", "), func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// highestSeqs reads the highest event_seq of each agent.
func highestSeqs(t *testing.T, home string, agents ...string) map[string]uint64 {
	t.Helper()
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	out := map[string]uint64{}
	for _, id := range agents {
		p, err := c.LastEvents(context.Background(), id, 1)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = p.HighestSeq
	}
	return out
}

// TestTUIEndToEnd runs `holon-actors tui --no-alt-screen` in tmux at
// 80×24 against a live runtime with the scripted model: a prompt and its
// brief, a question answered with its choices, a switch of agent, the
// runtime restarted under the console (it reconnects and resumes), and
// leaving it, which writes nothing to any journal.
func TestTUIEndToEnd(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [
		{"text": "Hello from the script."},
		{"text": "I need a decision.", "tool_calls": [{"name": "RequestOperatorInput", "arguments": {
			"question": "Refund order #12345?", "timeout_seconds": 3600,
			"choices": [{"value": "approve", "label": "Approve refund"}, {"value": "deny", "label": "Deny refund"}]}}]},
		{"text": "Refund denied."}
	], "then": "echo"}`)
	args := []string{"--model", "scripted", "--script", script}
	d := startRun(t, home, args...)
	if code, out, errOut := client(t, home, "agents", "create", "ops"); code != 0 {
		t.Fatalf("agents create = %d %q %q", code, out, errOut)
	}

	x := newTmux(t, 80, 24, binary, "--home", home, "tui", "--no-alt-screen")
	x.waitText("holon-actors · main", "awake_idle", "online")

	x.typeLine("hi")
	x.waitText("you › hi", "main › Hello from the script.")

	x.typeLine("handle the refund")
	x.waitText("Refund order #12345?", "question(s): Ctrl+Q")
	x.keys("C-q")
	x.waitText("Open questions", "Refund order #12345?  (susp_")
	x.keys("Enter")
	x.waitText("approve      Approve refund", "deny         Deny refund")
	x.keys("Down", "Enter")
	x.waitText("main › Refund denied.")

	x.typeLine("/agent ops")
	x.waitText("holon-actors · ops")
	x.typeLine("ping ops")
	x.waitText("you › ping ops", "ops › Hello from the script.") // the script's steps are per agent

	x.typeLine("/agent main")
	x.waitText("holon-actors · main", "main › Refund denied.")

	d.stop() // the console stays on main's stream and resumes it after the restart
	x.waitText("offline")
	startRun(t, home, args...)
	x.waitScreen("online again", func(s string) bool { return strings.Contains(s, "│ online") })
	x.typeLine("after the restart")
	s := x.waitText("you › after the restart", "main › echo: after the restart")
	if n := strings.Count(s, "main › Refund denied."); n != 1 {
		t.Errorf("the brief before the restart shows %d times, want once:\n%s", n, s)
	}

	before := highestSeqs(t, home, "main", "ops")
	x.keys("C-c")
	x.waitScreen("the console's exit", func(string) bool {
		return strings.TrimSpace(x.run("display-message", "-p", "-t", "console", "#{pane_dead}")) == "1"
	})
	if s := x.screen(); !strings.Contains(s, "main › echo: after the restart") {
		t.Errorf("--no-alt-screen: the last screen is gone from the terminal:\n%s", s)
	}
	if after := highestSeqs(t, home, "main", "ops"); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("leaving the console changed the journals: %v before, %v after", before, after)
	}
}

// TestTUIShowsChildren: the agents overlay lists a parent's running
// private children under it, and Enter on one shows its conversation
// (its brief comes when its 30 s command ends, if it has not yet).
func TestTUIShowsChildren(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	startRun(t, home, "--model", "scripted", "--script", writeScript(t, delegationScript)) // each child runs sleep 30
	if code, out, errOut := client(t, home, "prompt", "--wait", "delegate"); code != 0 {
		t.Fatalf("prompt --wait = %d %q %q", code, out, errOut)
	}
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	var children []string
	deadline := time.Now().Add(e2eWait)
	for len(children) < 2 {
		agents, err := c.Agents(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range agents {
			if a.ID == "main" {
				children = a.ActiveChildren
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("main has children %v after %s, want 2", children, e2eWait)
		}
		<-time.After(20 * time.Millisecond) // polling another process
	}

	x := newTmux(t, 80, 24, binary, "--home", home, "tui")
	x.waitText("holon-actors · main", "you › delegate")
	x.keys("C-a")
	x.waitText("── Agents", "└ "+children[0], "└ "+children[1])
	x.keys("Down", "Enter")
	x.waitText("holon-actors · "+children[0], children[0]+" › worker finished") // its brief, live or already there
}
