package clustere2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if build.path != "" {
		_ = os.RemoveAll(filepath.Dir(build.path))
	}
	os.Exit(code)
}
