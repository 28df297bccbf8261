package clustere2e

import (
	"os"
	"testing"
)

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	node.Remove()
	os.Exit(code)
}
