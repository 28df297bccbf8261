package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	toolexec "github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/task"
)

// tamper rewrites the archive at src into dst with change applied to the
// entry named name (its checksum in the manifest left as it was).
func tamper(t *testing.T, src, dst, name string, change func([]byte) []byte) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	gw := gzip.NewWriter(&out)
	tw := tar.NewWriter(gw)
	tr := tar.NewReader(gz)
	found := false
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Name == name {
			b, found = change(b), true
		}
		hdr.Size = int64(len(b))
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if !found {
		t.Fatalf("no %s in the archive", name)
	}
	if tw.Close() != nil || gw.Close() != nil {
		t.Fatal("close the tampered archive")
	}
	if err := os.WriteFile(dst, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// publicAgents lists the agents of home's runtime.
func publicAgents(t *testing.T, home string) []string {
	t.Helper()
	code, out, errOut := client(t, home, "--json", "agents", "list")
	var list []agentstate.AgentInfo
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("agents list = %d %s %s", code, out, errOut)
	}
	var ids []string
	for _, in := range list {
		ids = append(ids, in.ID)
	}
	return ids
}

// TestAgentsExportImport: an agent exported from one runtime is imported
// by another, keeps its history and answers there; a missing, cut or
// changed archive, an unknown agent and an id in use are refused with a
// clear error and change nothing.
func TestAgentsExportImport(t *testing.T) {
	t.Parallel()
	homeA, homeB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	script := writeScript(t, `{"then": "echo"}`)
	a := startRun(t, homeA, "--model", "scripted", "--script", script)
	if code, _, errOut := client(t, homeA, "agents", "create", "worker"); code != 0 {
		t.Fatalf("create = %d %s", code, errOut)
	}
	if code, out, errOut := client(t, homeA, "--agent", "worker", "prompt", "--wait", "remember the plan"); code != 0 || !strings.Contains(out, "echo: remember the plan") {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	dir := t.TempDir()
	archive := filepath.Join(dir, "worker.tar.gz")
	if code, out, errOut := client(t, homeA, "agents", "export", "worker", "-o", archive); code != 0 || !strings.Contains(out, "exported worker") {
		t.Fatalf("export = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := client(t, homeA, "agents", "export", "worker", "-o", archive); code != exitUsage || !strings.Contains(errOut, "--force") {
		t.Errorf("export over an existing file = %d %q, want a usage error naming --force", code, errOut)
	}
	ghost := filepath.Join(dir, "ghost.tar.gz")
	if code, _, errOut := client(t, homeA, "agents", "export", "ghost", "-o", ghost); code != exitFailure || !strings.Contains(errOut, `no agent "ghost"`) {
		t.Errorf("export ghost = %d %q, want no agent", code, errOut)
	}
	if _, err := os.Stat(ghost); err == nil {
		t.Errorf("a refused export left %s", ghost)
	}
	a.stop()

	b := startRun(t, homeB, "--model", "scripted", "--script", script)
	raw, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.tar.gz")
	if err := os.WriteFile(cut, raw[:len(raw)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "changed.tar.gz")
	tamper(t, archive, changed, "agents/worker/events.jsonl", func(b []byte) []byte {
		return bytes.Replace(b, []byte("remember the plan"), []byte("forget all of it"), 1)
	})
	garbage := filepath.Join(dir, "garbage.tar.gz")
	if err := os.WriteFile(garbage, []byte("not an archive"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file string
		code       int
		want       string
	}{
		{"missing file", filepath.Join(dir, "nope.tar.gz"), exitUsage, "no archive"},
		{"cut short", cut, exitFailure, "not a valid agent archive"},
		{"changed", changed, exitFailure, "does not match its checksum"},
		{"not gzip", garbage, exitFailure, "not gzip-compressed"},
	} {
		code, _, errOut := client(t, homeB, "agents", "import", c.file)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("import %s = %d %q, want exit %d saying %q", c.name, code, errOut, c.code, c.want)
		}
	}
	if ids := publicAgents(t, homeB); strings.Contains(strings.Join(ids, ","), "worker") {
		t.Fatalf("agents after refused imports = %v, want no worker", ids)
	}

	code, out, errOut := client(t, homeB, "agents", "import", archive)
	if code != 0 || !strings.Contains(out, "imported worker") {
		t.Fatalf("import = %d %q %q", code, out, errOut)
	}
	if code, _, errOut := client(t, homeB, "agents", "import", archive); code != exitFailure || !strings.Contains(errOut, "already exists") {
		t.Errorf("import again = %d %q, want the id in use refused", code, errOut)
	}
	if code, out, _ := client(t, homeB, "--agent", "worker", "briefs"); code != 0 || !strings.Contains(out, "echo: remember the plan") {
		t.Fatalf("imported briefs = %d %q, want its history", code, out)
	}
	if code, out, errOut := client(t, homeB, "--agent", "worker", "prompt", "--wait", "still there?"); code != 0 || !strings.Contains(out, "echo: still there?") {
		t.Fatalf("prompt to the imported agent = %d %q %q", code, out, errOut)
	}
	b.stop()
}

// TestAgentsDelete: delete refuses an agent with work in flight unless
// --force, and refuses the default agent and unknown ones; --force stops
// the agent, its private child and the child's command, archives them in
// the trash and removes them: not listed, not recovered by the next start,
// their id not reused. The trash archive imports on another runtime, and
// the retention sweep removes it.
func TestAgentsDelete(t *testing.T) {
	t.Parallel()
	home, other := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "other")
	script := writeScript(t, `{
  "steps": [
    {"tool_calls": [{"name": "SpawnAgent", "arguments": {"initial_message": "worker: job A"}}]},
    {"text": "Delegated."}],
  "then": "echo",
  "roles": {"worker": {"steps": [
    {"tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "sleep 30", "yield_time_ms": 10}}]},
    {"text": "started"},
    {"text": "worker finished"}]}}
}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	if code, _, errOut := client(t, home, "agents", "create", "boss"); code != 0 {
		t.Fatalf("create = %d %s", code, errOut)
	}
	if code, _, errOut := client(t, home, "--agent", "boss", "prompt", "delegate the job"); code != 0 {
		t.Fatalf("prompt = %d %s", code, errOut)
	}
	ev := waitEvents(t, c, "boss", messages.EventTaskStarted, 1)[0]
	var ts messages.TaskStarted
	var child agentstate.ChildTaskRecord
	if json.Unmarshal(ev.Payload, &ts) != nil || json.Unmarshal(ts.Record, &child) != nil || child.ChildAgentID == "" {
		t.Fatalf("task_started = %s", ev.Payload)
	}
	var cmd task.CommandRecord
	ev = waitEvents(t, c, child.ChildAgentID, messages.EventTaskStarted, 1)[0]
	if json.Unmarshal(ev.Payload, &ts) != nil || json.Unmarshal(ts.Record, &cmd) != nil || cmd.Pgid <= 0 {
		t.Fatalf("child task_started = %s", ev.Payload)
	}
	t.Cleanup(func() { toolexec.KillGroup(cmd.Pgid) })

	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"running", []string{"agents", "delete", "boss"}, "--force"},
		{"unknown", []string{"agents", "delete", "ghost"}, `no agent "ghost"`},
		{"default", []string{"agents", "delete", "main"}, "default agent"},
		{"private child", []string{"agents", "delete", child.ChildAgentID}, "deleted with it"},
	} {
		code, _, errOut := client(t, home, c.args...)
		if code != exitFailure || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "Hint:") {
			t.Errorf("delete %s = %d %q, want refused saying %q with a hint", c.name, code, errOut, c.want)
		}
	}
	if !testkit.GroupLive(cmd.Pgid) {
		t.Fatalf("a refused delete stopped the child's command")
	}

	code, out, errOut := client(t, home, "--json", "agents", "delete", "boss", "--force")
	var res actors.DeleteResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Deleted) != 2 || res.Deleted[1] != child.ChildAgentID {
		t.Fatalf("delete --force = %d %s %s, want boss and its child deleted", code, out, errOut)
	}
	if filepath.Dir(res.Archive) != filepath.Join(home, "trash") || res.RetainedUntil.Before(time.Now().Add(6*24*time.Hour)) {
		t.Fatalf("archive %s kept until %s; want it in HOME/trash for the default 7 days", res.Archive, res.RetainedUntil)
	}
	if _, err := os.Stat(res.Archive); err != nil {
		t.Fatal(err)
	}
	if testkit.GroupLive(cmd.Pgid) {
		t.Fatalf("the child's command group %d survived the delete", cmd.Pgid)
	}
	for _, id := range []string{"boss", child.ChildAgentID} {
		if code, _, errOut := client(t, home, "status", id); code != exitFailure || !strings.Contains(errOut, "no agent") {
			t.Errorf("status %s after delete = %d %q, want no agent", id, code, errOut)
		}
	}
	if code, _, errOut := client(t, home, "agents", "create", "boss"); code != exitFailure || !strings.Contains(errOut, "not reused") {
		t.Errorf("create boss again = %d %q, want the id refused", code, errOut)
	}

	d.stop()
	d = startRun(t, home, "--model", "scripted", "--script", script)
	if ids := publicAgents(t, home); len(ids) != 1 || ids[0] != "main" {
		t.Fatalf("agents after a restart = %v, want main only", ids)
	}
	if _, err := os.Stat(res.Archive); err != nil {
		t.Fatalf("the archive went before its retention: %v", err)
	}
	d.stop()
	if code, _, errOut := client(t, home, "run", "--trash-retention=-1s"); code != exitUsage || !strings.Contains(errOut, "--trash-retention -1s is negative") {
		t.Errorf("run --trash-retention -1s = %d %q, want a usage error", code, errOut)
	}

	o := startRun(t, other, "--model", "scripted", "--script", writeScript(t, `{"then": "echo"}`))
	if code, out, errOut := client(t, other, "agents", "import", res.Archive); code != 0 || !strings.Contains(out, "imported boss (2 agents") {
		t.Fatalf("import of the trash archive = %d %q %q", code, out, errOut)
	}
	if code, out, _ := client(t, other, "status", "boss"); code != 0 || !strings.Contains(out, "stopped") {
		t.Fatalf("imported boss = %d %q, want it as it was deleted: stopped", code, out)
	}
	o.stop()

	d = startRun(t, home, "--model", "scripted", "--script", script, "--trash-retention", "1ns")
	if _, err := os.Stat(res.Archive); err == nil {
		t.Fatalf("the archive outlived --trash-retention 1ns")
	}
	if code, _, _ := client(t, home, "status", "boss"); code != exitFailure {
		t.Errorf("boss came back after the sweep")
	}
	d.stop()
}
