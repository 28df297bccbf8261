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
// `go list -deps`, naming the path it is reached by.
func Check(t testing.TB, self string, forbidden []string) {
	t.Helper()
	imports := Imports(t, self)
	for _, v := range Violations(imports, self, forbidden) {
		t.Errorf("%s; keep the actor system, storage, logging, clocks, processes and the network out of %s", v, self)
	}
}

// Imports is the import graph below self, as `go list -deps` reports it:
// each package and the packages it imports.
func Imports(t testing.TB, self string) map[string][]string {
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
	return imports
}

// Violations lists each package of forbidden reachable from self in
// imports, with the chain of imports that reaches it, in the order a
// breadth-first walk finds them.
func Violations(imports map[string][]string, self string, forbidden []string) []string {
	isForbidden := func(pkg string) bool {
		return slices.ContainsFunc(forbidden, func(f string) bool {
			return pkg == f || strings.Contains(f, ".") && strings.HasPrefix(pkg, f+"/")
		})
	}
	via := map[string]string{self: ""}
	var out []string
	for queue := []string{self}; len(queue) > 0; queue = queue[1:] {
		for _, dep := range imports[queue[0]] {
			if _, seen := via[dep]; seen {
				continue
			}
			via[dep] = queue[0]
			if isForbidden(dep) {
				out = append(out, "imports "+dep+" through "+chain(via, queue[0]))
				continue
			}
			queue = append(queue, dep)
		}
	}
	return out
}

// chain is the import path from the root of via down to pkg.
func chain(via map[string]string, pkg string) string {
	path := []string{pkg}
	for p := via[pkg]; p != ""; p = via[p] {
		path = append(path, p)
	}
	slices.Reverse(path)
	return strings.Join(path, " → ")
}
