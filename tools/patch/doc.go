// Package patch is the ApplyPatch tool: git-style unified diffs, with
// added, deleted, renamed and copied files, parsed and applied with
// github.com/bluekeyes/go-gitdiff inside an agent's execution root.
//
// A patch applies to all its files or to none: every file is parsed,
// checked and computed in memory first, and only then written; a write
// that fails rolls back the ones before it. Every path goes through
// tools.ExecRoot.FilePath and every file operation through os.Root, so no
// path leaves the execution root, not by "..", not absolute, not through a
// symlink; a patch cannot create symlinks or submodules.
//
// patch imports tools and messages and nothing else from this module.
package patch
