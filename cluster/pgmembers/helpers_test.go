package pgmembers_test

import (
	"strings"
)

func stringsJoin(s []string) string { return strings.Join(s, " ") }
