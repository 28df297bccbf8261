package bench

import (
	"errors"
	"fmt"
)

// count is one numeric setting of a workload, named as its error says it.
type count struct {
	name string
	n    int
}

// checkWorkload reports the first setting of a bench's workload that
// cannot run: an empty dir, or a count below 1 ("turns bench: agents is 0,
// want at least 1").
func checkWorkload(bench, dir string, counts ...count) error {
	if dir == "" {
		return errors.New(bench + " bench: dir is empty")
	}
	for _, c := range counts {
		if c.n < 1 {
			return fmt.Errorf("%s bench: %s is %d, want at least 1", bench, c.name, c.n)
		}
	}
	return nil
}
