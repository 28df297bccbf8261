package supervision_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/supervision"
)

func ExampleBackoff() {
	p := supervision.DefaultPolicy()
	noJitter := func() float64 { return 0 } // the top of the jitter range
	var delays []string
	for failures := 1; failures <= 10; failures++ {
		delays = append(delays, supervision.Backoff(p, failures, noJitter).String())
	}
	fmt.Println(strings.Join(delays, " "))
	fullJitter := func() float64 { return 1 } // the bottom of the range
	fmt.Println(supervision.Backoff(p, 1000, fullJitter))
	// Output:
	// 100ms 200ms 400ms 800ms 1.6s 3.2s 6.4s 12.8s 25.6s 30s
	// 24s
}

func ExampleTracker() {
	p := supervision.DefaultPolicy() // 5 restarts within 60 s
	p.Jitter = 0
	tr := supervision.NewTracker(p, nil)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for range 6 {
		now = now.Add(5 * time.Second)
		fmt.Printf("%+v\n", tr.Record(now))
	}
	// A minute later the burst has left the window.
	fmt.Printf("%+v\n", tr.Record(now.Add(time.Minute)))
	// Output:
	// {Restart:true Delay:100ms FailuresInWindow:1 GiveUp:false}
	// {Restart:true Delay:200ms FailuresInWindow:2 GiveUp:false}
	// {Restart:true Delay:400ms FailuresInWindow:3 GiveUp:false}
	// {Restart:true Delay:800ms FailuresInWindow:4 GiveUp:false}
	// {Restart:true Delay:1.6s FailuresInWindow:5 GiveUp:false}
	// {Restart:false Delay:0s FailuresInWindow:6 GiveUp:true}
	// {Restart:true Delay:100ms FailuresInWindow:1 GiveUp:false}
}

// quarantined is what a parent tells itself when the strategy gives up.
type quarantined struct {
	who      *actor.PID
	failures int
}

func ExampleNewStrategy() {
	system := actor.NewActorSystem()
	agents := actor.NewPID(system.Address(), "agents") // the supervising parent
	strategy, err := supervision.NewStrategy(supervision.DefaultPolicy(),
		supervision.WithGiveUp(func(who *actor.PID, _ any, failures int) {
			// Runs on the supervisor's goroutine: hand over, don't block.
			system.Root.Send(agents, quarantined{who: who, failures: failures})
		}))
	if err != nil {
		panic(err)
	}
	props := actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case *actor.Terminated:
			strategy.Forget(m.Who) // a child's budget ends with it
		case quarantined:
			_ = m // record the quarantine durably and notify the operator
		}
	}, actor.WithSupervisor(strategy))
	if _, err := system.Root.SpawnNamed(props, agents.Id); err != nil {
		panic(err)
	}
	// ... spawn agents as children of agents; at shutdown:
	_ = system.Root.StopFuture(agents).Wait()
	system.Shutdown()
}
