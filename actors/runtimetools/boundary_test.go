package runtimetools_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const self = "github.com/holon-actors/holon-actors/actors/runtimetools"

// forbidden are the imports that would make agentstate impure: the actor
// system, storage, logging, clocks, processes and the network (a module
// with everything below it; net itself, which every package that talks on
// a network imports, while parsers like net/url do not).
var forbidden = []string{
	"github.com/asynkron/protoactor-go",
	"github.com/holon-actors/holon-actors/persistence",
	"github.com/rs/zerolog",
	"github.com/jonboulle/clockwork",
	"github.com/dgraph-io/badger",
	"os/exec",
	"net",
}

// notYetSplit are packages of this module runtimetools (through agentstate) takes data types from
// (providers.Item, exec.Launch, task.CommandRecord, worktree.Info) whose
// packages also hold I/O code. What they import is not agentstate's; each
// leaves this list when its data types get a package of their own.
var notYetSplit = []string{
	"github.com/holon-actors/holon-actors/providers",
	"github.com/holon-actors/holon-actors/tools/exec",
	"github.com/holon-actors/holon-actors/tools/task",
	"github.com/holon-actors/holon-actors/tools/worktree",
}

func isForbidden(pkg string) bool {
	return slices.ContainsFunc(forbidden, func(f string) bool {
		return pkg == f || strings.Contains(f, ".") && strings.HasPrefix(pkg, f+"/")
	})
}

// TestImportBoundary: no forbidden package is reachable from runtimetools
// in go list -deps, except through a package of notYetSplit; and every
// package of notYetSplit is still imported (else it leaves the list).
func TestImportBoundary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	seen := map[string]bool{self: true}
	for queue := []string{self}; len(queue) > 0; queue = queue[1:] {
		for _, dep := range imports[queue[0]] {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if isForbidden(dep) {
				t.Errorf("runtimetools depends on %s (through %s); keep the actor system, storage, logging, clocks, processes and the network out of it", dep, queue[0])
			}
			if !slices.Contains(notYetSplit, dep) {
				queue = append(queue, dep)
			}
		}
	}
	for _, p := range notYetSplit {
		if !seen[p] {
			t.Errorf("runtimetools no longer imports %s: remove it from notYetSplit", p)
		}
	}
}
