package secrets_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/secrets"
)

// TestMain lets the test binary play the child of a handoff.
func TestMain(m *testing.M) {
	if os.Getenv("SECRETS_TEST_CHILD") == "1" {
		vars, err := secrets.Receive()
		environ, _ := os.ReadFile("/proc/self/environ")
		out, _ := json.Marshal(map[string]any{"vars": vars, "err": errString(err), "environ": string(environ),
			"still_named": os.Getenv(secrets.HandoffEnv)})
		os.Stdout.Write(out)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestHandoffReachesChildOutsideItsEnvironment: a real child process gets
// the credentials through the pipe, and they are not in its
// /proc/self/environ.
func TestHandoffReachesChildOutsideItsEnvironment(t *testing.T) {
	const canary = "sk-handoff-canary-0123456789"
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SECRETS_TEST_CHILD=1")
	h, err := secrets.NewHandoff(cmd, map[string]string{"OPENAI_API_KEY": canary})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		h.Close()
		t.Fatal(err)
	}
	if err := h.Send(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Vars       map[string]string
		Err        string
		Environ    string
		StillNamed string `json:"still_named"`
	}
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatalf("child printed %q: %v", out.String(), err)
	}
	if got.Err != "" || got.Vars["OPENAI_API_KEY"] != canary {
		t.Fatalf("child received %v (%s), want the key", got.Vars, got.Err)
	}
	if strings.Contains(got.Environ, canary) {
		t.Fatal("the key is in the child's /proc/self/environ")
	}
	if got.StillNamed != "" {
		t.Errorf("%s still set after Receive: %q", secrets.HandoffEnv, got.StillNamed)
	}
}

func TestReceiveWithoutHandoff(t *testing.T) {
	if vars, err := secrets.Receive(); vars != nil || err != nil {
		t.Fatalf("Receive without a handoff = %v, %v", vars, err)
	}
}

func TestReceiveBadDescriptor(t *testing.T) {
	t.Setenv(secrets.HandoffEnv, "stdin")
	if _, err := secrets.Receive(); !errors.Is(err, secrets.ErrHandoff) || !strings.Contains(err.Error(), secrets.HandoffEnv) {
		t.Fatalf("Receive = %v, want ErrHandoff naming %s", err, secrets.HandoffEnv)
	}
}
