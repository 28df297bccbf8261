// Command holon-actors is the runtime for long-lived LLM agents: `run`
// owns the runtime in the foreground, every other command is a control
// client or a tool; run with --help for the list.
package main

import (
	"os"

	"github.com/rs/zerolog"
)

func main() {
	// protoactor logs a "message" attribute of its own; keep ours apart.
	zerolog.MessageFieldName = "msg"
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
