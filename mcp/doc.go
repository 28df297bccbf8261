// Package mcp gives agents the tools of MCP (Model Context Protocol)
// servers, through the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Config is config.json's mcp_servers (stdio: command, args, env from
// named environment variables, cwd; Streamable HTTP: url, headers from
// named environment variables; per-server allow and deny lists of tools)
// and mcp_agents (which agents use which servers: all, none, a list).
// ParseConfig refuses a bad field by name (ErrConfig).
//
// A Manager holds one Server per configured server, shared by the agents
// that use it. A Server starts on first use, lists its tools and lists
// them again on notifications/tools/list_changed, restarts after a crash
// with a doubling backoff and is quarantined after repeated crashes (the
// agents that used it are told, OnQuarantine). A stdio server runs in a
// process group of its own, killed whole when its connection closes and
// killed with the runtime (the leader's parent-death signal); the groups
// are recorded in a ProcTable that the next start sweeps, like the
// processes of commands.
//
// Each server tool becomes a tools.Tool named mcp__<server>__<tool>, its
// input schema normalized for the providers' strict and relaxed modes
// (NormalizeSchema). A call's result is the canonical envelope
// (CallResult): text within the output budget (the whole of it as an
// artifact when cut), images, audio and resources as artifacts with a
// text receipt; isError, timeouts, cancellation and an unreachable server
// are error results.
//
// Manager.Spawn makes each Server a protoactor-go actor (mcp/<server>
// under a supervisor mcp, with a supervision.Strategy): agents ask the
// actor for the session and call the tool off the actor; a panic in the
// actor restarts it with the strategy's backoff (the Server, its
// connection and crash count, outlive the restart); a spent budget
// quarantines the server; stopping the actor closes the server. Without
// Spawn (tests of the package) agents use the Server directly.
//
// mcp imports messages, supervision, tools and tools/exec; never actors,
// persistence or providers. Its goroutines are owned by the Server that
// starts them (the actor's connects included) and end with its Close.
package mcp
