// Package testkit is the deterministic harness for testing actors and the
// runtime: a manual clock, a scripted provider, recording tools, the memory
// journal, crash and restart of a runtime over the same data directory,
// assertions on emitted messages and golden event streams. Its fakes are
// hand-written, not generated.
//
// A harness belongs to one test: it registers its own cleanup and fails the
// test on leaked goroutines. Nothing in it sleeps for timing: tests wait for
// events and advance the clock.
//
// A test drives a real runtime (real Badger store on a temporary
// HOLON_HOME, real actors) through a Harness, scripts the model, waits for
// journal events, and can crash and restart the runtime at an exact step:
//
//	h := testkit.New(t,
//		testkit.Reply("Checking.", testkit.Call("call_1", "echo", `{"text":"ping"}`)),
//		testkit.Reply("Done."),
//	)
//	h.Store().CrashAfter(testkit.OfType(messages.EventToolCallStarted)) // optional
//	h.Prompt("main", "Echo ping.")
//	<-h.Store().Died()
//	h.Restart() // a new runtime over the same data, recovered without requests
//	h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal))
//	testkit.CheckGolden(t, "my_scenario", h.Events("main"))
//
// Time is a fake clock (h.Clock): advance it to fire timers. Golden event
// streams normalize generated ids and times (Normalize).
//
// testkit may import actors, messages and the other packages it fakes. It
// is imported only from _test.go files: production code, cmd included,
// never imports it.
package testkit
