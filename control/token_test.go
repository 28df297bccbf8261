package control_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
)

// TestLoadOrCreateToken: the first call generates a 0600 token file, the
// next ones read the same token; a file other users may read is refused.
func TestLoadOrCreateToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), control.TokenFileName)
	tok, created, err := control.LoadOrCreateToken(path)
	if err != nil || !created || len(tok) < control.MinTokenLen {
		t.Fatalf("LoadOrCreateToken = %q, %v, %v; want a new token", tok, created, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode = %v, %v; want 0600", fi.Mode(), err)
	}
	again, created, err := control.LoadOrCreateToken(path)
	if err != nil || created || again != tok {
		t.Fatalf("second LoadOrCreateToken = %q, %v, %v; want the same token", again, created, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("the directory holds %d files, want the token file alone", len(entries))
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := control.LoadOrCreateToken(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a world-readable token file = %v, want a refusal saying chmod 600", err)
	}
}

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := strings.Repeat("a", control.MinTokenLen)
	tests := []struct {
		name, path, want, wantErr string
	}{
		{"good, with a newline", write("good", good+"\n", 0o600), good, ""},
		{"group-readable", write("group", good, 0o640), "", "chmod 600"},
		{"short", write("short", "abc", 0o600), "", "at least 32"},
		{"missing", filepath.Join(dir, "none"), "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := control.ReadTokenFile(tt.path)
			if got != tt.want || (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("ReadTokenFile = %q, %v; want %q, error %q", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
