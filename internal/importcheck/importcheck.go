// Package importcheck holds the import-boundary check the pure packages'
// tests run: what a package may reach in `go list -deps`. Tests only.
package importcheck

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Impure are the imports that would make a package impure: the actor
// system, storage, logging, clocks, processes and the network (a module
// with everything below it; net itself, which every package that talks on
// a network imports, while parsers like net/url do not).
var Impure = []string{
	"github.com/asynkron/protoactor-go",
	"github.com/holon-actors/holon-actors/persistence",
	"github.com/rs/zerolog",
	"github.com/jonboulle/clockwork",
	"github.com/dgraph-io/badger",
	"os/exec",
	"net",
}

// Check fails t when a package of forbidden is reachable from self in
// `go list -deps`, except through a package of notYetSplit (this module's
// packages whose data types self uses but which also hold I/O code), and
// when a package of notYetSplit is no longer reached (it leaves the list).
func Check(t testing.TB, self string, forbidden, notYetSplit []string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	isForbidden := func(pkg string) bool {
		return slices.ContainsFunc(forbidden, func(f string) bool {
			return pkg == f || strings.Contains(f, ".") && strings.HasPrefix(pkg, f+"/")
		})
	}
	seen := map[string]bool{self: true}
	for queue := []string{self}; len(queue) > 0; queue = queue[1:] {
		for _, dep := range imports[queue[0]] {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if isForbidden(dep) {
				t.Errorf("%s depends on %s (through %s); keep the actor system, storage, logging, clocks, processes and the network out of it", self, dep, queue[0])
			}
			if !slices.Contains(notYetSplit, dep) {
				queue = append(queue, dep)
			}
		}
	}
	for _, p := range notYetSplit {
		if !seen[p] {
			t.Errorf("%s no longer imports %s: remove it from notYetSplit", self, p)
		}
	}
}
