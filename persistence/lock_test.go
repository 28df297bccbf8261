package persistence

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLockedByOtherProcessChild is the second process of TestLockedByOtherProcess.
func TestLockedByOtherProcessChild(t *testing.T) {
	dir := os.Getenv("HOLON_LOCK_CHILD_DIR")
	if dir == "" {
		t.Skip("child of TestLockedByOtherProcess")
	}
	s, err := Open(DefaultOptions(dir))
	if err == nil {
		s.Close()
		os.Stdout.WriteString("OPENED\n")
		return
	}
	if errors.Is(err, ErrLocked) {
		os.Stdout.WriteString("LOCKED " + err.Error() + "\n")
	}
}

func TestLockedByOtherProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s, err := Open(DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := dirListing(t, dir)

	cmd := exec.Command(os.Args[0], "-test.run=^TestLockedByOtherProcessChild$", "-test.v")
	cmd.Env = append(os.Environ(), "HOLON_LOCK_CHILD_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	line := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "LOCKED ") || l == "OPENED" {
			line = l
		}
	}
	if !strings.HasPrefix(line, "LOCKED ") {
		t.Fatalf("second process: %q, want a locked error\n%s", line, out)
	}
	msg := strings.TrimPrefix(line, "LOCKED ")
	if !strings.Contains(msg, dir) || !strings.Contains(msg, "pid "+strconv.Itoa(os.Getpid())) {
		t.Errorf("error %q should name %s and pid %d", msg, dir, os.Getpid())
	}
	if after := dirListing(t, dir); after != before {
		t.Errorf("locked-out process touched the directory:\nbefore %s\nafter  %s", before, after)
	}
}

func TestLockReleasedOnClose(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(DefaultOptions(dir))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(DefaultOptions(dir))
	var le *LockedError
	if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.PID != os.Getpid() || le.Dir != dir {
		t.Fatalf("second Open = %v, want a LockedError naming %s and pid %d", err, dir, os.Getpid())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(DefaultOptions(dir))
	if err != nil {
		t.Fatalf("Open after Close = %v", err)
	}
	s2.Close()
}

// dirListing describes every file's name, size and modification time.
func dirListing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + ":" + strconv.FormatInt(info.Size(), 10) + ":" + info.ModTime().String() + ";")
		}
		return nil
	})
	return b.String()
}

func TestLockHolder(t *testing.T) {
	dir := t.TempDir()
	if _, held, err := LockHolder(dir); err != nil || held {
		t.Fatalf("LockHolder of a fresh dir = %v, %v; want not held", held, err)
	}
	l, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file description, so a second
	// description in this process sees the lock as held.
	if pid, held, err := LockHolder(dir); err != nil || !held || pid != os.Getpid() {
		t.Fatalf("LockHolder while locked = %d, %v, %v; want our pid, held", pid, held, err)
	}
	if err := l.unlock(); err != nil {
		t.Fatal(err)
	}
	if _, held, err := LockHolder(dir); err != nil || held {
		t.Fatalf("LockHolder after unlock = %v, %v; want not held", held, err)
	}
}

// TestLockDataDirExcludesOpen: the lock a database-backed runtime takes on
// its home's data directory keeps a Badger store (another runtime) out,
// and lets it in once released.
func TestLockDataDirExcludesOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	unlock, err := LockDataDir(dir)
	if err != nil {
		t.Fatalf("LockDataDir(%s) = %v", dir, err)
	}
	if _, err := Open(testBadgerOptions(dir)); !errors.Is(err, ErrLocked) {
		t.Fatalf("Open while LockDataDir holds %s = %v, want ErrLocked", dir, err)
	}
	if _, err := LockDataDir(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second LockDataDir(%s) = %v, want ErrLocked", dir, err)
	}
	if err := unlock(); err != nil {
		t.Fatalf("unlock() = %v", err)
	}
	openBadger(t, testBadgerOptions(dir))
}
