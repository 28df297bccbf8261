// Package bench holds the load generators behind `holon-actors bench`: each
// one drives a real building block of the runtime (today the journal; later
// the mailbox, the turn loop, the API and command execution) with a
// reproducible workload and returns its measurements as a JSON-ready result.
//
// A generator owns every goroutine and store it starts and has stopped and
// closed them all before it returns. It writes only under the directory its
// config names, into sub-directories it reports; removing them is the
// caller's choice. Results are plain structs; printing them is cmd's job.
//
// bench may import messages, persistence and, later, actors. Production code
// never imports bench: only cmd/holon-actors and its tests do.
package bench
