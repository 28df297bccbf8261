package bench

import (
	"os"
	"testing"
	"time"
)

// TestProcessCPU: this process's CPU time grows while it spins, and an
// unknown process is an error.
func TestProcessCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	before, err := processCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // a failure bound: the machine may be busy
	for {
		after, err := processCPU(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if after-before >= 3*clockTick {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("CPU time grew %s in a minute of spinning", after-before)
		}
	}
	if _, err := processCPU(-1); err == nil {
		t.Fatal("processCPU(-1) = nil error")
	}
}
