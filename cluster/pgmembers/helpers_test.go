package pgmembers_test

import (
	"os"
	"strings"
)

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "membernode") }

func stringsJoin(s []string) string { return strings.Join(s, " ") }
