package messages

// Priority is a scheduling hint, not a trust signal.
type Priority string

// The priorities, most urgent first.
const (
	// PriorityInterject is the highest class. A trusted operator prompt with
	// it may be spliced into the running turn at the next safe point; any
	// other message only jumps to the front of the queue.
	PriorityInterject Priority = "interject"
	// PriorityNext runs after the current turn, before normal work.
	PriorityNext Priority = "next"
	// PriorityNormal is default foreground work.
	PriorityNormal Priority = "normal"
	// PriorityBackground is low-urgency or deferred work.
	PriorityBackground Priority = "background"
)

var priorities = enum[Priority]{
	name:    "priority",
	values:  []Priority{PriorityInterject, PriorityNext, PriorityNormal, PriorityBackground},
	aliases: map[string]Priority{"interrupt": PriorityInterject}, // legacy spelling
}

// String returns the Priority as spelled in JSON.
func (p Priority) String() string { return string(p) }

// Valid reports whether p is one of the spec's priorities.
func (p Priority) Valid() bool { return priorities.valid(p) }

// UnmarshalText parses a priority, accepting the legacy alias "interrupt" for
// interject and rejecting unknown values.
func (p *Priority) UnmarshalText(text []byte) error { return priorities.unmarshal(p, text) }

// ParsePriority returns the Priority spelled s (or its legacy alias) or an
// error wrapping ErrUnknownValue.
func ParsePriority(s string) (Priority, error) { return priorities.parse(s) }

// Rank orders priorities for scheduling: 0 for interject, the most urgent,
// up to 3 for background. An invalid priority ranks after all valid ones.
func (p Priority) Rank() int {
	for i, v := range priorities.values {
		if p == v {
			return i
		}
	}
	return len(priorities.values)
}
