// Package tools owns what an agent can do besides talking: the Tool
// interface and its optional abilities, the registry, argument schemas
// derived from Go structs, the canonical result envelope with its family
// renderers, artifacts and head/tail truncation, and the execution root
// every file and command tool works inside.
//
// A tool is usually built with Typed from an argument struct: the schema
// comes from the struct, and bad arguments become invalid_tool_input
// failures with details.field, details.parse_error and a recovery_hint
// before the tool runs. Every result is an Envelope (the canonical record
// the journal keeps) plus the receipt the model sees, rendered from the
// envelope by the tool family's Renderer: Confirmation for small tools,
// JSONResult for structured ones, the command receipts of tools/exec and
// tools/task; failures share the bounded JSON error receipt. Large
// payloads become path-only ArtifactRefs in an ArtifactDir and bounded
// previews (HeadTail) within a Budget, whose env overrides the runtime
// reads with Budget.WithEnv.
//
// The built-in tools live in sub-packages: tools/exec (ExecCommand,
// ExecCommandBatch and the Process handle), tools/patch (ApplyPatch),
// tools/task (the task tools over a runtime Controller) and tools/agent
// (AgentGet over a runtime Inspector); tools/builtin lists them all and
// binds an agent's runtime pieces to a call's context.
//
// A Tool is shared by every agent that has it, so it must be safe for
// concurrent use and keep no per-call state; per-agent bindings (the
// execution root, the task host) arrive in the call's context
// (builtin.Bind, or WithExecRoot, exec.WithConfig, task.WithController,
// agent.WithInspector). A call's side
// effects are bounded by the context it receives. The registry is
// immutable once built.
//
// tools imports messages and nothing else from this module: never
// persistence, providers, supervision, actors, cmd or testkit, and not
// protoactor. Tool execution is scheduled by actors, not by tools.
package tools
