// Package remotetest speaks Proto.Actor remote's gRPC protocol by hand, for
// tests of a node: Peer is a raw message stream to a node (crafted batches,
// the known crash inputs, any certificate or none), and Inbox stands in
// for a client's own listener, where a node's replies arrive. Neither
// starts a Proto.Actor remote, so a test process can hold several of them
// without upstream's data races.
//
// Imported only from _test.go files.
package remotetest
