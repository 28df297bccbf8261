// Package task is the model-facing task tools: TaskStatus, TaskOutput,
// TaskInput, TaskStop and TaskList, with their canonical results and
// textual receipts as the runtime spec's Command Family Tool Envelopes
// define them.
//
// The tools validate arguments and shape results; the work is done by a
// Controller, implemented by the runtime (package actors) over its task
// actors and TaskRecords. A Controller is bound per call with
// WithController or given at construction.
//
// The task records (statuses, CommandRecord, ChildSupervision,
// OutputTask) are tools/task/taskspec's, re-exported here. task imports
// tools, messages, tools/exec and taskspec, and nothing else from this
// module.
package task
