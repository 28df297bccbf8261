// Package remote is the Go client of a holon-actors runtime over the
// Proto.Actor cluster protocol: Dial starts a small remote endpoint of its
// own (the node answers by dialling back to it, so it must be reachable
// from the node: Options.Listen and Options.Advertise) and talks to the
// node's gateway actor with the messages of remote/remotepb, over mutual
// TLS with certificates of the runtime's private CA (remote/tlsca).
//
// The Client's methods answer with the shapes of the HTTP control client
// (control.PromptResponse, control.AgentSummary, control.StreamEvent …), so
// a program or the CLI prints the same thing whichever surface it used.
// Admission only: Prompt returns once the prompt is durable; a turn's
// results come back through Events, an iterator that resumes by event_seq
// across broken connections and node restarts with no gap and no
// duplicate. Prompt retries an admission the node did not answer with the
// same message_id, so the prompt is admitted once.
//
// A Client is safe for concurrent use. Close stops its endpoint; an Events
// iterator ends when its context does or its consumer stops.
//
// remote imports control, actors and messages for their shapes, and never
// cmd or testkit.
package remote
