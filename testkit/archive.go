package testkit

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"testing"
)

// Rearchive rewrites the agent archive src with change applied to its
// files (path to content; manifest.json is not among them) and a manifest
// whose checksums match the result: an archive changed by someone who
// knows the format, which only its content can give away.
func Rearchive(t testing.TB, src []byte, change func(files map[string][]byte)) []byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var order []string
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[hdr.Name] = b
		order = append(order, hdr.Name)
	}
	var manifest map[string]any
	if err := json.Unmarshal(files["manifest.json"], &manifest); err != nil {
		t.Fatal(err)
	}
	delete(files, "manifest.json")
	change(files)
	var out bytes.Buffer
	gw := gzip.NewWriter(&out)
	tw := tar.NewWriter(gw)
	var list []map[string]any
	write := func(name string, b []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range sortedNames(order, files) {
		sum := sha256.Sum256(files[name])
		list = append(list, map[string]any{"path": name, "size": len(files[name]), "sha256": hex.EncodeToString(sum[:])})
		write(name, files[name])
	}
	manifest["files"] = list
	b, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	write("manifest.json", b)
	if tw.Close() != nil || gw.Close() != nil {
		t.Fatal("close the rewritten archive")
	}
	return out.Bytes()
}

// sortedNames is the names of files: those of order first, as they were,
// then the new ones.
func sortedNames(order []string, files map[string][]byte) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range order {
		if _, ok := files[n]; ok && !seen[n] {
			out = append(out, n)
			seen[n] = true
		}
	}
	var added []string
	for n := range files {
		if !seen[n] {
			added = append(added, n)
		}
	}
	slices.Sort(added)
	return append(out, added...)
}
