package remotepb

// The Error codes only the remote surface answers with (the others are
// the HTTP API's error kinds).
const (
	// CodeClientBusy: the client certificate has as many requests in
	// flight as the node answers for one certificate at once.
	CodeClientBusy = "client_busy"
	// CodeRepliesDropped: requests answered at this reply address were
	// dropped, because the address did not read the node's earlier
	// replies; they were not run.
	CodeRepliesDropped = "replies_dropped"
)
