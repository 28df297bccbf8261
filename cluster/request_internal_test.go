package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	pacluster "github.com/asynkron/protoactor-go/cluster"
)

// TestAttemptAbandonedWhenAMemberLeaves: an attempt waiting for an answer
// is given up as soon as the topology drops a member (its owner may be
// the one gone), not when its timeout runs out; a topology that only
// adds members leaves it waiting.
func TestAttemptAbandonedWhenAMemberLeaves(t *testing.T) {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	left, unwatch := newDepartures(sys)
	defer unwatch()
	n := &Node{left: left}

	pending := left.next()
	sys.EventStream.Publish(&pacluster.ClusterTopology{Joined: []*pacluster.Member{{Id: "new"}}})
	select {
	case <-pending:
		t.Fatal("a topology that only added a member abandoned the attempt")
	default:
	}

	never := make(chan answer)
	recheck := make(chan time.Time)
	expire := make(chan time.Time) // never fires: only a departure can end the wait
	got := make(chan error, 1)
	go func() {
		_, err := n.await(context.Background(), never, pending, recheck, expire)
		got <- err
	}()
	sys.EventStream.Publish(&pacluster.ClusterTopology{Left: []*pacluster.Member{{Id: "gone"}}})
	select {
	case err := <-got:
		if !errors.Is(err, errMemberLeft) || !retryable(err) {
			t.Fatalf("await = %v, want errMemberLeft, retried", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a member left and the attempt still waits")
	}
	if next := left.next(); next == pending {
		t.Fatal("the next attempt got the closed channel: it would be abandoned at once")
	}
}
