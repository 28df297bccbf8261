// Package clustere2e holds the black-box tests of `holon-actors run` as a
// cluster: several node processes of the built binary over one real
// PostgreSQL on loopback, driven through their control sockets. It has no
// code of its own.
package clustere2e
