// Package guard protects a Proto.Actor remote gRPC server from its peers:
// its interceptors recover panics in the handlers, refuse the diagnostic
// RPCs that crash upstream remote (ListProcesses, GetProcessDiagnostics),
// check every message batch before remote decodes it (known type names,
// indexes in range, the protobuf serializer, no nil PID: the inputs that
// crash the pinned protoactor-go), limit client-role peers to a list of
// message types sent to one actor, and stamp each envelope with the peer
// certificate's name and role (HeaderPeer, HeaderRole), replacing what the
// peer sent. Every target is readdressed to the server's own system
// (Bind), so a server never relays a peer's message to another address.
//
// A peer's identity is its verified TLS certificate (package tlsca): the
// server must require client certificates of the CA.
//
// guard imports remote/tlsca, protoactor-go's remote and gRPC; it knows
// nothing of the runtime, so a client's own listener uses it too.
package guard
