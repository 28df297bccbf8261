// Command filecycles measures how the files of a Go package depend on each
// other: an arrow runs from file A to file B when A uses a package-level
// name, a method or a field declared in B. It prints each package's file
// count, arrow count and its largest cycle (strongly connected component),
// the measure the actors redesign tracks. Test files are left out. With -v
// it also prints the arrows inside the largest cycle and the names that
// make each one, which is where to cut.
//
//	go run ./internal/filecycles [-v] ./actors ./actors/agentstate
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "print the arrows inside the largest cycle and the names behind them")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/filecycles [-v] DIR...")
		os.Exit(2)
	}
	for _, dir := range flag.Args() {
		if err := measure(dir, *verbose); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			os.Exit(1)
		}
	}
}

func measure(dir string, verbose bool) error {
	bp, err := build.ImportDir(dir, 0) // the files this platform builds
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range append(bp.GoFiles, bp.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	{
		name := bp.Name
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
		tp, err := conf.Check(name, fset, files, info)
		if err != nil {
			return err
		}
		edges := map[string]map[string]bool{}
		why := map[[2]string]map[string]bool{} // the names behind each arrow
		add := func(from token.Pos, obj types.Object) {
			if obj == nil || obj.Pkg() != tp || !obj.Pos().IsValid() {
				return
			}
			a, b := fset.File(from).Name(), fset.File(obj.Pos()).Name()
			if a == b {
				return
			}
			if edges[a] == nil {
				edges[a] = map[string]bool{}
			}
			edges[a][b] = true
			if why[[2]string{a, b}] == nil {
				why[[2]string{a, b}] = map[string]bool{}
			}
			why[[2]string{a, b}][obj.Name()] = true
		}
		for id, obj := range info.Uses {
			if obj.Parent() == tp.Scope() || isMember(obj) {
				add(id.Pos(), obj)
			}
		}
		for sel, s := range info.Selections {
			add(sel.Sel.Pos(), s.Obj())
		}
		arrows := 0
		for _, to := range edges {
			arrows += len(to)
		}
		largest := largestSCC(files, fset, edges)
		sort.Strings(largest)
		var inside []string
		if verbose {
			in := map[string]bool{}
			for _, f := range largest {
				in[f] = true
			}
			for _, a := range largest {
				for b := range edges[a] {
					if in[b] {
						inside = append(inside, fmt.Sprintf("  %s -> %s: %s", filepath.Base(a), filepath.Base(b), strings.Join(sortedKeys(why[[2]string{a, b}]), " ")))
					}
				}
			}
			sort.Strings(inside)
		}
		for i := range largest {
			largest[i] = filepath.Base(largest[i])
		}
		fmt.Printf("%s: %d files, %d arrows, largest cycle %d files", dir, len(files), arrows, len(largest))
		if len(largest) > 1 {
			fmt.Printf(": %s", strings.Join(largest, " "))
		}
		fmt.Println()
		for _, line := range inside {
			fmt.Println(line)
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// isMember reports a method or a struct field.
func isMember(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		return o.Type().(*types.Signature).Recv() != nil
	case *types.Var:
		return o.IsField()
	}
	return false
}

// largestSCC is the largest strongly connected component (Tarjan).
func largestSCC(files []*ast.File, fset *token.FileSet, edges map[string]map[string]bool) []string {
	index, low, onStack := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack, best []string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range edges[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > len(best) {
				best = comp
			}
		}
	}
	for _, f := range files {
		if name := fset.File(f.Pos()).Name(); index[name] == 0 && !onStack[name] {
			if _, seen := index[name]; !seen {
				visit(name)
			}
		}
	}
	return best
}
