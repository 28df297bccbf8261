// Command holon-actors is the runtime for long-lived LLM agents. Today it
// offers the version and bench commands; run with --help for the list.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
