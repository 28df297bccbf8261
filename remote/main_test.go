package remote_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// nodeAddr and clientTLS reach the node TestMain starts for the examples.
var nodeAddr, clientTLS string

// TestMain starts a real node for ExampleDial: holon-actors, built
// WITHOUT -race (upstream protoactor-go's remote has data races the
// detector reports in a process speaking it to others), running a
// scripted model, serving remote clients with a private CA.
func TestMain(m *testing.M) {
	if os.Getenv(noNodeChild) != "" { // a test's child process: no node wanted
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "holon-remote-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	stop, err := startNode(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "start a node:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	if err := stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// startNode builds the binary, makes the certificates and starts the node
// under dir; stop ends it.
func startNode(dir string) (stop func() error, err error) {
	bin := filepath.Join(dir, "holon-actors")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/holon-actors").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build holon-actors: %w\n%s", err, out)
	}
	ca, nodeTLS := filepath.Join(dir, "ca"), filepath.Join(dir, "node")
	clientTLS = filepath.Join(dir, "client")
	now := time.Now()
	if err := tlsca.Init(ca, now); err != nil {
		return nil, err
	}
	if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleMember, Name: "node-1", Out: nodeTLS, Now: now}); err != nil {
		return nil, err
	}
	if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleClient, Name: "example", Out: clientTLS, Now: now}); err != nil {
		return nil, err
	}
	script := filepath.Join(dir, "script.json")
	if err := os.WriteFile(script, []byte(`{"steps": [{"text": "Hello from the node."}]}`), 0o600); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	nodeAddr = l.Addr().String()
	l.Close()
	home := filepath.Join(dir, "home")
	logf, err := os.Create(filepath.Join(dir, "node.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--home", home, "run", "--model", "scripted", "--script", script,
		"--remote-listen", nodeAddr, "--tls-dir", nodeTLS, "--shutdown-timeout", "5s")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logf.Close() }() // ends with the node
	stop = func() error {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			return err
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			return errors.Join(errors.New("the node did not stop within a minute of SIGTERM"), <-exited)
		}
	}
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	for deadline := time.Now().Add(time.Minute); ; {
		if _, err := c.RuntimeStatus(context.Background()); err == nil {
			return stop, nil
		}
		select {
		case err := <-exited:
			out, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("the node exited (%v):\n%s", err, out)
		case <-time.After(20 * time.Millisecond): // polling another process
		}
		if time.Now().After(deadline) {
			return nil, errors.Join(errors.New("the node's control socket did not answer within a minute"), stop())
		}
	}
}
