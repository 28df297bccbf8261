// Package procfs reads the Linux process table under /proc: a process's
// stat line (state, parent, group, start time), the pids listed, and the
// two walks over the process tree (up a parent chain, down a subtree of
// children). Off Linux every read fails: a Stat is not found, a walk finds
// nothing.
//
// procfs imports the standard library only.
package procfs
