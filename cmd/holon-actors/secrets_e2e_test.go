package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestSecretsReachNoSink: canary credentials (a model key in the
// environment, a key named by config.json's api_key_env, a key in a base
// URL's query, the control token) reach none of the sinks: the background
// runtime's /proc/<pid>/environ, the environment of agents' commands, the
// journal (a tail dump), briefs, task failure artifacts, the transport
// error of a failing model call, logs, or any file under the home.
func TestSecretsReachNoSink(t *testing.T) {
	t.Parallel()
	const (
		envKey   = "sk-ant-canary-env-5d1e0a93"
		cfgKey   = "sk-cfg-canary-9b77c2e4"
		urlKey   = "url-canary-key-31f0aa76"
		tokenKey = "canary-token-0123456789abcdef0123456789abcdef"
	)
	canaries := []string{envKey, cfgKey, urlKey, tokenKey}
	// The keys are in the environment of the clients below (and so of the
	// daemon daemon start starts), not in this process's, which the tests
	// running beside this one share.
	env := []string{"ANTHROPIC_API_KEY=" + envKey, "MY_GATEWAY_KEY=" + cfgKey, "HOLON_CONTROL_TOKEN=" + tokenKey}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	// Nothing listens on port 1: the gateway refuses connections. (A port
	// one of our listeners had, then closed, may be taken meanwhile by a
	// test running beside this one.)
	const closed = "127.0.0.1:1"
	config := fmt.Sprintf(`{"providers": {"gateway": {"base_url": "http://%s/v1?key=%s", "api_key_env": "MY_GATEWAY_KEY"}}}`, closed, urlKey)
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	envFile := filepath.Join(out, "command.env")
	script := writeScript(t, fmt.Sprintf(`{"steps": [
		{"text": "Looking.", "tool_calls": [
			{"name": "ExecCommand", "arguments": {"cmd": "env > %s; cat /proc/$PPID/environ >> %s 2>/dev/null; true"}},
			{"name": "ExecCommand", "arguments": {"cmd": "echo leaked %s %s"}},
			{"name": "ExecCommand", "arguments": {"cmd": "sleep 0.2; echo %s; exit 3", "yield_time_ms": 20}}
		]},
		{"text": "Done %s."}
	], "then": "echo"}`, envFile, envFile, envKey, cfgKey, cfgKey, envKey))
	if code, o, e := clientEnv(t, home, env, "daemon", "start", "--model", "scripted", "--script", script, "--listen", "127.0.0.1:0",
		"--access", "tunnel", "--log-level", "debug", "--model-retry-horizon", "0"); code != 0 { // the dead gateway fails the turn at once
		t.Fatalf("daemon start = %d %s %s", code, o, e)
	}
	t.Cleanup(func() { clientEnv(t, home, env, "daemon", "stop") })
	code, o, _ := clientEnv(t, home, env, "--json", "daemon", "status")
	var st daemonStatus
	if code != 0 || json.Unmarshal([]byte(o), &st) != nil || st.PID == 0 {
		t.Fatalf("daemon status = %d %s", code, o)
	}
	environ, err := os.ReadFile("/proc/" + strconv.Itoa(st.PID) + "/environ")
	switch {
	case errors.Is(err, fs.ErrPermission) && os.Getuid() != 0:
		environ = []byte("PATH=") // closed to its user (not dumpable); root reads it below
	case err != nil:
		t.Fatal(err)
	}
	if !strings.Contains(string(environ), "HOLON_HOME=") && !strings.Contains(string(environ), "PATH=") {
		t.Fatalf("read no environment from /proc/%d/environ: %q", st.PID, environ)
	}
	noCanary(t, "/proc/<daemon>/environ", string(environ), canaries)

	next := followEvents(t, home)
	if code, o, e := clientEnv(t, home, env, "prompt", "--wait", "check with "+envKey); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, o, e)
	}
	next(func(ev control.StreamEvent) bool { return ev.Provenance.Kind == "task_finished" })

	// A model call through the gateway fails; its error quotes the URL.
	if code, o, e := clientEnv(t, home, env, "agents", "create", "gw"); code != 0 {
		t.Fatalf("agents create = %d %s %s", code, o, e)
	}
	if code, o, e := clientEnv(t, home, env, "agents", "model", "gw", "--set", "gateway/m"); code != 0 {
		t.Fatalf("agents model = %d %s %s", code, o, e)
	}
	code, o, e := clientEnv(t, home, env, "--agent", "gw", "prompt", "--wait", "hello")
	if code != exitFailure || !strings.Contains(o+e, "connection") {
		t.Fatalf("prompt through the dead gateway = %d %q %q, want a connection failure", code, o, e)
	}
	noCanary(t, "the failure brief", o+e, canaries)

	cmdEnv, err := os.ReadFile(envFile)
	if err != nil || !strings.Contains(string(cmdEnv), "PATH=") {
		t.Fatalf("the command wrote no environment: %q %v", cmdEnv, err)
	}
	noCanary(t, "the command's environment", string(cmdEnv), canaries)
	var dump strings.Builder
	for _, agent := range []string{"main", "gw"} {
		code, o, _ := clientEnv(t, home, env, "--agent", agent, "--json", "tail", "--limit", "1000")
		if code != 0 {
			t.Fatalf("tail %s = %d", agent, code)
		}
		dump.WriteString(o)
	}
	for _, want := range []string{"leaked [redacted] [redacted]", "check with [redacted]", "failure_artifact"} {
		if !strings.Contains(dump.String(), want) {
			t.Errorf("the journal lacks %q", want)
		}
	}
	noCanary(t, "the journal", dump.String(), canaries)
	for _, args := range [][]string{{"transcript"}, {"--json", "agents", "state"}, {"briefs"}, {"--json", "daemon", "logs"}} {
		code, o, e := clientEnv(t, home, env, args...)
		if code != 0 {
			t.Fatalf("%v = %d %s", args, code, e)
		}
		noCanary(t, strings.Join(args, " "), o+e, canaries)
		if args[0] == "transcript" && !strings.Contains(o, "leaked [redacted]") {
			t.Errorf("the transcript lacks the scrubbed command output:\n%s", o)
		}
	}
	if code, o, e := clientEnv(t, home, env, "daemon", "stop"); code != 0 {
		t.Fatalf("daemon stop = %d %s %s", code, o, e)
	}
	err = filepath.WalkDir(home, func(path string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || path == filepath.Join(home, "config.json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil {
			noCanary(t, path, string(b), canaries)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func noCanary(t *testing.T, where, text string, canaries []string) {
	t.Helper()
	for _, c := range canaries {
		if strings.Contains(text, c) {
			t.Errorf("%s contains %s", where, c)
		}
	}
}

// TestForegroundCommandsLoseConfiguredKey: a foreground run keeps its
// keys in its own environment (the documented residual risk), but the
// commands its agents run inherit neither the default key variables nor
// the one config.json's api_key_env names.
func TestForegroundCommandsLoseConfiguredKey(t *testing.T) {
	t.Parallel()
	const cfgKey, envKey = "sk-fg-cfg-canary-44c1d2e0", "sk-fg-env-canary-77a0b3f1"
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	config := `{"providers": {"gateway": {"base_url": "http://127.0.0.1:1/v1", "api_key_env": "MY_FG_GATEWAY_KEY"}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	envFile := filepath.Join(t.TempDir(), "command.env")
	script := writeScript(t, fmt.Sprintf(`{"steps": [
		{"text": "Looking.", "tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "env > %s"}}]},
		{"text": "Done."}
	], "then": "echo"}`, envFile))
	d := startRunEnv(t, home, []string{"MY_FG_GATEWAY_KEY=" + cfgKey, "OPENAI_API_KEY=" + envKey, "HOLON_FG_VISIBLE=yes"},
		"--model", "scripted", "--script", script)
	if code, o, e := client(t, home, "prompt", "--wait", "look"); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, o, e)
	}
	d.stop()
	b, err := os.ReadFile(envFile)
	if err != nil || !strings.Contains(string(b), "HOLON_FG_VISIBLE=yes") {
		t.Fatalf("the command's environment = %q, %v; want the ordinary variables", b, err)
	}
	noCanary(t, "the command's environment", string(b), []string{cfgKey, envKey})
}

// TestOnceScrubsSecrets: a key of the environment, printed by a command
// and repeated by the model, is not in `once --json`'s output.
func TestOnceScrubsSecrets(t *testing.T) {
	t.Parallel()
	const key = "sk-once-canary-6b2e90d1"
	script := writeScript(t, `{"steps": [
		{"tool_calls": [{"name": "ExecCommand", "arguments": {"cmd": "echo printed `+key+`"}}]},
		{"text": "It printed `+key+`."}]}`)
	code, out, errOut := clientEnv(t, t.TempDir(), []string{"ANTHROPIC_API_KEY=" + key}, "--json", "once", "--model", "scripted", "--script", script, "print it")
	var res onceResult
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.FinalText != "It printed [redacted]." {
		t.Fatalf("once = %d %s %s", code, out, errOut)
	}
	noCanary(t, "once's output", out+errOut, []string{key})
}
