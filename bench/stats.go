package bench

import (
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// percentile returns the nearest-rank p-th percentile (0 < p <= 1) of sorted.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// latencySummary sorts all in place and returns its p50, p99 and maximum.
func latencySummary(all []time.Duration) (p50, p99, maxLatency time.Duration) {
	slices.Sort(all)
	if len(all) == 0 {
		return 0, 0, 0
	}
	return percentile(all, 0.50), percentile(all, 0.99), all[len(all)-1]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// storeBytes is the on-disk size of a closed Badger directory: its SSTables
// (*.sst), value-log files (*.vlog) and MANIFEST, i.e. the data and the index
// that persist. It leaves out the lock file, KEYREGISTRY, and DISCARD (a
// fixed-size preallocated file), and memtable WAL files (*.mem), which a clean
// Close flushes into SSTables.
func storeBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".sst") && !strings.HasSuffix(name, ".vlog") && name != "MANIFEST" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		return nil
	})
	return total, err
}
