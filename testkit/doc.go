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
// testkit may import actors, messages and the other packages it fakes. It
// is imported only from _test.go files: production code, cmd included,
// never imports it.
package testkit
