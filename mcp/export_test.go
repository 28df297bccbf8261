package mcp

// SetTestHook makes every server actor of m call f with each message
// before handling it (tests panic in it). Call it before Spawn.
func SetTestHook(m *Manager, f func(any)) { m.testHook = f }
