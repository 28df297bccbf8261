package memory

import "errors"

var (
	// ErrBadRef is returned by Get for a source_ref this index did not issue: malformed, altered,
	// forged or issued for another agent.
	ErrBadRef = errors.New("memory: source_ref is not valid for this agent; copy a source_ref from a MemorySearch result")
	// ErrNotFound is returned by Get for a valid source_ref whose record no longer exists.
	ErrNotFound = errors.New("memory: the record this source_ref names no longer exists")
	// ErrMaxChars is returned by Get when maxChars is outside 1..50,000 (0 means the default).
	ErrMaxChars = errors.New("memory: max_chars must be between 1 and 50000")
	// ErrEmptyQuery is returned by Search when the query has no word to search for.
	ErrEmptyQuery = errors.New("memory: query has no words to search for; give one or more words")
	// ErrLimit is returned by Search when Query.Limit is negative or above MaxLimit.
	ErrLimit = errors.New("memory: limit must be between 1 and 100 (0 means 10)")
	// ErrKind is returned by Search for a Query.Kinds entry that is not one of Kinds.
	ErrKind = errors.New("memory: unknown kind")
	// ErrInvalidDoc is returned by Upsert for a Doc without a Kind or Key, or with an unknown scope.
	ErrInvalidDoc = errors.New("memory: invalid doc")
	// ErrClosed is returned by calls on a closed Index.
	ErrClosed = errors.New("memory: index closed")
)
