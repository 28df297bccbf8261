package pgmembers_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/internal/proctest"
)

// The membership tests run each node as its own process (the membernode
// command), on 127.0.0.1: Proto.Actor's remote has data races when several
// run in one process (upstream), so the nodes are built WITHOUT -race and
// the race detector stays on for this test process.

// nodeLine is one line a membernode prints.
type nodeLine struct {
	Event   string   `json:"event"`
	ID      string   `json:"id"`
	Members []string `json:"members"`
}

type memberNode struct {
	cmd   *exec.Cmd
	id    string
	log   string // its stderr
	lines chan nodeLine
	exit  chan error
	// members is the last topology read from lines.
	members []string
}

// memberNode is the member test program, built without -race.
var memberProgram = proctest.New("./internal/membernode", "membernode")

func startMember(t *testing.T, db string) *memberNode {
	t.Helper()
	return startMemberLease(t, db, "2s")
}

func startMemberLease(t *testing.T, db, lease string) *memberNode {
	t.Helper()
	cmd := exec.Command(memberProgram.Path(t), "-db", db, "-lease", lease)
	logf, err := os.Create(filepath.Join(t.TempDir(), "node.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logf
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	n := &memberNode{cmd: cmd, log: logf.Name(), lines: make(chan nodeLine, 256), exit: make(chan error, 1)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var l nodeLine
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				n.lines <- l
			}
		}
		close(n.lines)
		n.exit <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		for range n.lines { // drain, so the reader ends
		}
		<-n.exit
	})
	n.id = n.await(t, "started", func(l nodeLine) bool { return l.Event == "started" }).ID
	return n
}

// await returns the first line of n matching ok, failing t after 20s.
func (n *memberNode) await(t *testing.T, what string, ok func(nodeLine) bool) nodeLine {
	t.Helper()
	deadline := time.After(20 * time.Second)
	var seen []nodeLine
	for {
		select {
		case l, open := <-n.lines:
			if !open {
				t.Fatalf("node %s exited before %s; it printed %v", n.id, what, seen)
			}
			if l.Event == "topology" {
				n.members = l.Members
			}
			if ok(l) {
				return l
			}
			seen = append(seen, l)
		case <-deadline:
			logs, _ := os.ReadFile(n.log)
			t.Fatalf("node %s: no %s within 20s; it printed %v and logged\n%s", n.id, what, seen, logs)
		}
	}
}

// awaitMembers waits until n's topology is exactly ids.
func (n *memberNode) awaitMembers(t *testing.T, ids ...string) {
	t.Helper()
	slices.Sort(ids)
	if slices.Equal(n.members, ids) {
		return
	}
	n.await(t, "topology "+stringsJoin(ids), func(l nodeLine) bool {
		return l.Event == "topology" && slices.Equal(l.Members, ids)
	})
}

// TestMembershipLostNodeAndRejoin: three member processes on one lease
// table see each other; a node killed with SIGKILL is dropped by the
// others within a few seconds; a node frozen (SIGSTOP) past its lease is
// dropped too, and once resumed finds its lease lost and exits (it must
// not go on as a member the others dropped); restarted, it rejoins under
// a new id and everyone sees it.
func TestMembershipLostNodeAndRejoin(t *testing.T) {
	db := pg.NewDatabase(t)
	a, b, c := startThree(t, db, "2s")

	// Lost node: kill -9.
	detect := killAndAwaitDropped(t, c, a, b)
	t.Logf("a killed node left the topology after %s", detect.Round(time.Millisecond))
	if detect > 5*time.Second {
		t.Errorf("a killed node was dropped after %s, want within 5s (lease 2s)", detect)
	}

	// Partition: b frozen past its lease.
	if err := b.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	a.awaitMembers(t, a.id)
	if err := b.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	b.await(t, "lost", func(l nodeLine) bool { return l.Event == "lost" })
	for range b.lines {
	}
	var ee *exec.ExitError
	if err := <-b.exit; !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("the node that lost its lease exited with %v, want status 3", err)
	}
	b.exit <- nil // for the cleanup

	// Rejoin: restarted, under a new id.
	b2 := startMember(t, db)
	if b2.id == b.id {
		t.Fatalf("the restarted node reused id %s", b.id)
	}
	a.awaitMembers(t, a.id, b2.id)
	b2.awaitMembers(t, a.id, b2.id)
}

// TestKilledMemberEvictedBeforeItsLeaseLapses: with a 20 s lease, a member
// killed with SIGKILL is dropped by the others within a few seconds: its
// port refuses connections (probed before each poll, and when a
// connection to it ends), and a survivor ends its lease in the table.
func TestKilledMemberEvictedBeforeItsLeaseLapses(t *testing.T) {
	db := pg.NewDatabase(t)
	a, b, c := startThree(t, db, "20s")
	detect := killAndAwaitDropped(t, c, a, b)
	t.Logf("a killed member left the topology after %s (lease 20s)", detect.Round(time.Millisecond))
	if detect > 8*time.Second {
		t.Errorf("a killed member was dropped after %s, want well within its 20s lease", detect)
	}
}

// startThree starts three members with lease on db and waits until each
// sees all three.
func startThree(t *testing.T, db, lease string) (a, b, c *memberNode) {
	t.Helper()
	a, b, c = startMemberLease(t, db, lease), startMemberLease(t, db, lease), startMemberLease(t, db, lease)
	for _, n := range []*memberNode{a, b, c} {
		n.awaitMembers(t, a.id, b.id, c.id)
	}
	return a, b, c
}

// killAndAwaitDropped kills victim with SIGKILL and returns how long it
// took until both survivors see only themselves.
func killAndAwaitDropped(t *testing.T, victim, a, b *memberNode) time.Duration {
	t.Helper()
	killed := time.Now()
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	a.awaitMembers(t, a.id, b.id)
	b.awaitMembers(t, a.id, b.id)
	return time.Since(killed)
}
