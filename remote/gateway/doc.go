// Package gateway is the node side of remote clients: Start runs
// Proto.Actor remote on its own actor system, with mutual TLS and a guard
// on every gRPC stream, and spawns the gateway actor (GatewayName) that
// answers the holon.remote.v1 wire messages (package remotepb) through
// control.Operator, the same runtime calls, checks and errors as the HTTP
// control API.
//
// Security: a peer must present a certificate of the node's CA (package
// tlsca). The stream guard (package guard) recovers panics in the gRPC
// handlers, refuses the diagnostic RPCs that crash upstream remote, checks
// every message batch before remote decodes it, and lets a client-role
// peer send only the remote request messages (RequestTypes), only to the
// gateway; a member-role peer has full access. It stamps each envelope
// with the peer's certificate name and role, replacing whatever the peer
// sent: the gateway records that name as the operator of a remote
// client's prompts and answers.
//
// Replies: the node answers at the sender's address by dialling it, so
// the gateway first checks that the address holds the requester's own
// certificate (the connection remote dialled there, or a TLS handshake
// with it): a request naming another client's endpoint is dropped
// unanswered and not run. It counts the replies remote has yet to send
// to each address (remote's writer queues without bound for a connection
// that does not read): past Config.MaxQueuedReplies for one certificate,
// requests are dropped unanswered, the stuck connections closed, and the
// address's next request is answered replies_dropped. One certificate
// has at most Config.MaxInFlightPerClient requests in flight; one more
// is answered client_busy.
//
// Admission only: the gateway answers once the runtime has decided, never
// after a turn; results come back through ReadEvents. Each request runs in
// a goroutine the gateway owns (at most Config.MaxInFlight at once; one
// more is refused with backpressure); stopping the gateway cancels them
// and Node.Stop waits for them.
//
// The actor system here holds nothing but the gateway and remote's own
// actors: remote peers cannot address the runtime's agents.
//
// gateway imports control, remote/remotepb, remote/guard and remote/tlsca;
// only cmd imports it.
package gateway
