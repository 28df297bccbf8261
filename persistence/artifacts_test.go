package persistence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArtifactPutOpen(t *testing.T) {
	home := t.TempDir()
	a := NewArtifactStore(home)
	data := bytes.Repeat([]byte("line of output\n"), 1000)
	art, err := a.Put("task_1/stdout.log", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := Artifact{Path: "task_1/stdout.log", Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	if art != want {
		t.Fatalf("Put = %+v, want %+v", art, want)
	}
	if got := filepath.Join(home, ".holon", "artifacts", "task_1", "stdout.log"); !fileExists(got) {
		t.Fatalf("artifact not at %s", got)
	}
	f, err := a.Open(art.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, _ := io.ReadAll(f)
	if !bytes.Equal(got, data) {
		t.Fatalf("Open read %d bytes, want %d", len(got), len(data))
	}
	st, _ := os.Stat(filepath.Join(a.Dir(), art.Path))
	if st.Mode().Perm() != 0o600 {
		t.Errorf("artifact mode = %v, want 0600", st.Mode().Perm())
	}
	// Put replaces atomically and leaves no temporary file behind.
	if _, err := a.Put(art.Path, strings.NewReader("v2")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(a.Dir(), "task_1"))
	if len(entries) != 1 {
		t.Fatalf("task_1 holds %d files, want 1 (no temporaries)", len(entries))
	}
}

func TestArtifactStreaming(t *testing.T) {
	a := NewArtifactStore(t.TempDir())
	w, err := a.Create("task_2/output.log")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("partial ")); err != nil {
		t.Fatal(err)
	}
	// Readable while being written, as TaskOutput needs.
	f, err := a.Open("task_2/output.log")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if string(got) != "partial " {
		t.Fatalf("read while writing = %q, want %q", got, "partial ")
	}
	w.Write([]byte("done"))
	art, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if art.Bytes != int64(len("partial done")) {
		t.Fatalf("Bytes = %d, want %d", art.Bytes, len("partial done"))
	}
	if _, err := a.Create("task_2/output.log"); err == nil {
		t.Fatal("Create over an existing artifact succeeded, want an error")
	}
	w2, _ := a.Create("task_2/aborted.log")
	w2.Abort()
	if _, err := a.Open("task_2/aborted.log"); err == nil {
		t.Fatal("aborted artifact still exists")
	}
}

func TestArtifactPathTraversal(t *testing.T) {
	home := t.TempDir()
	a := NewArtifactStore(home)
	outside := filepath.Join(home, "secret")
	os.WriteFile(outside, []byte("secret"), 0o600)
	// A symlink planted inside the artifact directory must not be followed out.
	os.MkdirAll(a.Dir(), 0o700)
	os.Symlink(home, filepath.Join(a.Dir(), "escape"))
	cases := []string{
		"", "/etc/passwd", "../secret", "a/../../secret", "./x", "a//b", `a\b`, "a/./b", "..", ".",
		"escape/secret", "x.tmp-1", "a/\x00b",
	}
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := a.Put(name, strings.NewReader("x")); err == nil {
				t.Errorf("Put(%q) succeeded, want refusal", name)
			}
			if f, err := a.Open(name); err == nil {
				f.Close()
				t.Errorf("Open(%q) succeeded, want refusal", name)
			}
		})
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Fatalf("file outside the store changed: %q", b)
	}
	if _, err := a.Put("..", strings.NewReader("x")); !errors.Is(err, ErrInvalidArtifactPath) {
		t.Errorf("Put(..) error = %v, want ErrInvalidArtifactPath", err)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
