package patch_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/patch"
)

var update = flag.Bool("update", false, "rewrite the golden receipts in testdata")

// newRoot makes an execution root with files, a symlink leading outside,
// and a symlink to a file inside.
func newRoot(t *testing.T, files map[string]string) (tools.ExecRoot, string) {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	for _, d := range []string{dir, filepath.Join(base, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "outside", "secret"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	r, err := tools.NewExecRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, base
}

func read(t *testing.T, root tools.ExecRoot, name string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(root.Dir(), name))
	return string(b), err == nil
}

func callPatch(t *testing.T, root tools.ExecRoot, args json.RawMessage) (tools.Result, tools.Envelope) {
	t.Helper()
	res := patch.ApplyPatch(patch.Config{Root: root}).Call(context.Background(), args)
	var env tools.Envelope
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	return res, env
}

func jsonArgs(p string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"patch": p})
	return b
}

const gitPatch = `diff --git a/src/main.go b/src/main.go
index 1111111..2222222 100644
--- a/src/main.go
+++ b/src/main.go
@@ -1,3 +1,3 @@
 package main
-func old() {}
+func renamed() {}
 // end
diff --git a/docs/new.md b/docs/new.md
new file mode 100755
index 0000000..3333333
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# New
+text
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 4444444..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old/name.txt b/new/name.txt
similarity index 80%
rename from old/name.txt
rename to new/name.txt
index 5555555..6666666 100644
--- a/old/name.txt
+++ b/new/name.txt
@@ -1,2 +1,2 @@
 keep
-before
+after
`

var startFiles = map[string]string{
	"src/main.go":  "package main\nfunc old() {}\n// end\n",
	"gone.txt":     "bye\n",
	"old/name.txt": "keep\nbefore\n",
}

func TestApplyGitPatch(t *testing.T) {
	for _, form := range []string{"json", "freeform", "json string"} {
		t.Run(form, func(t *testing.T) {
			root, _ := newRoot(t, startFiles)
			args := map[string]json.RawMessage{"json": jsonArgs(gitPatch), "freeform": json.RawMessage(gitPatch)}[form]
			if form == "json string" {
				args, _ = json.Marshal(gitPatch)
			}
			res, env := callPatch(t, root, args)
			if res.Status != messages.ToolOK {
				t.Fatalf("result = %s", res.Receipt)
			}
			want := map[string]string{"src/main.go": "package main\nfunc renamed() {}\n// end\n", "docs/new.md": "# New\ntext\n", "new/name.txt": "keep\nafter\n"}
			for name, body := range want {
				if got, _ := read(t, root, name); got != body {
					t.Errorf("%s = %q, want %q", name, got, body)
				}
			}
			for _, gone := range []string{"gone.txt", "old/name.txt", "old"} {
				if _, ok := read(t, root, gone); ok {
					t.Errorf("%s still exists", gone)
				}
			}
			if fi, err := os.Stat(filepath.Join(root.Dir(), "docs/new.md")); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("new file mode = %v, %v", fi.Mode(), err)
			}
			if env.SummaryText != "patch applied: 4 files changed" {
				t.Errorf("summary = %q", env.SummaryText)
			}
			if form == "json" {
				golden(t, "apply_patch", res.Receipt)
			}
		})
	}
}

func TestApplyPlainUnifiedDiff(t *testing.T) {
	root, _ := newRoot(t, map[string]string{"a.txt": "one\ntwo\n"})
	res, _ := callPatch(t, root, jsonArgs("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n"))
	if got, _ := read(t, root, "a.txt"); res.Status != messages.ToolOK || got != "one\nthree\n" {
		t.Fatalf("a.txt = %q, receipt %s", got, res.Receipt)
	}
	res, _ = callPatch(t, root, jsonArgs("--- /dev/null\n+++ b/dir/b.txt\n@@ -0,0 +1 @@\n+b\n"))
	if got, _ := read(t, root, "dir/b.txt"); res.Status != messages.ToolOK || got != "b\n" {
		t.Fatalf("dir/b.txt = %q, receipt %s", got, res.Receipt)
	}
}

func TestApplyAllOrNothing(t *testing.T) {
	cases := []struct {
		name, patch, kind string
	}{
		{"conflict in second file", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-not b\n+B\n", patch.KindPatchConflict},
		{"missing file", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-c\n+C\n", patch.KindFileNotFound},
		{"added file exists", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+b\n", patch.KindFileExists},
		{"not a diff", "please change a to A", patch.KindInvalidPatch},
		{"empty", "", patch.KindInvalidPatch},
		{"bad hunk counts", "--- a/a.txt\n+++ b/a.txt\n@@ -1,5 +1,5 @@\n-a\n+A\n", patch.KindInvalidPatch},
		{"symlink created", "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n", patch.KindInvalidPatch},
		{"same file twice", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n", patch.KindInvalidPatch},
		{"delete with other content", "--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", patch.KindPatchConflict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, _ := newRoot(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
			res, env := callPatch(t, root, jsonArgs(c.patch))
			if res.Status != messages.ToolError || env.Error.Kind != c.kind || env.Error.RecoveryHint == "" {
				t.Fatalf("result = %s", res.Envelope)
			}
			if a, _ := read(t, root, "a.txt"); a != "a\n" {
				t.Errorf("a.txt changed to %q by a failed patch", a)
			}
			if _, ok := read(t, root, "l"); ok {
				t.Error("a symlink was created")
			}
		})
	}
}

func TestApplyInvalidJSONArgs(t *testing.T) {
	root, _ := newRoot(t, nil)
	res, env := callPatch(t, root, json.RawMessage(`{"diff":"x"}`))
	if res.Status != messages.ToolError || env.Error.Kind != tools.KindInvalidToolInput {
		t.Fatalf("result = %s", res.Envelope)
	}
}

// TestApplyPathTraversalCorpus runs every escaping path as the source or
// target of each kind of change; none may touch anything outside.
func TestApplyPathTraversalCorpus(t *testing.T) {
	corpus := []string{"../x", "../../etc/passwd", "/etc/passwd", "/tmp/x", "a/../../x", "./../x", "escape/secret", "escape/new",
		".git/config", "a/../../../x", "..", "a\\..\\..\\x"}
	for _, p := range corpus {
		patches := map[string]string{
			"add":     "--- /dev/null\n+++ " + p + "\n@@ -0,0 +1 @@\n+pwned\n",
			"modify":  "--- " + p + "\n+++ " + p + "\n@@ -1 +1 @@\n-x\n+pwned\n",
			"delete":  "--- " + p + "\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
			"git add": "diff --git a/" + p + " b/" + p + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + p + "\n@@ -0,0 +1 @@\n+pwned\n",
			"rename":  "diff --git a/in.txt b/" + p + "\nsimilarity index 100%\nrename from in.txt\nrename to " + p + "\n",
		}
		for kind, text := range patches {
			root, base := newRoot(t, map[string]string{"in.txt": "x\n"})
			res, env := callPatch(t, root, jsonArgs(text))
			if res.Status == messages.ToolOK {
				t.Errorf("%s %q was applied: %s", kind, p, res.Receipt)
			} else if k := env.Error.Kind; k != tools.KindExecutionRootViolation && k != patch.KindInvalidPatch && k != patch.KindFileNotFound {
				t.Errorf("%s %q failed with %s, want a path refusal: %s", kind, p, k, res.Receipt)
			}
			if b, _ := os.ReadFile(filepath.Join(base, "outside", "secret")); string(b) != "x\n" {
				t.Fatalf("%s %q changed a file outside the root", kind, p)
			}
			if _, err := os.Stat(filepath.Join(base, "outside", "new")); err == nil {
				t.Fatalf("%s %q created a file outside the root", kind, p)
			}
			if in, _ := read(t, root, "in.txt"); in != "x\n" {
				t.Fatalf("%s %q changed in.txt", kind, p)
			}
		}
	}
}

func TestApplyRefusesSymlinkTargets(t *testing.T) {
	root, _ := newRoot(t, map[string]string{"real.txt": "x\n"})
	if err := os.Symlink("real.txt", filepath.Join(root.Dir(), "link.txt")); err != nil {
		t.Fatal(err)
	}
	res, env := callPatch(t, root, jsonArgs("--- a/link.txt\n+++ b/link.txt\n@@ -1 +1 @@\n-x\n+y\n"))
	if res.Status != messages.ToolError || env.Error.Kind != patch.KindNotRegular {
		t.Fatalf("result = %s", res.Envelope)
	}
}

func TestFreeformGrammar(t *testing.T) {
	tool := patch.ApplyPatch(patch.Config{})
	ff, ok := tool.(tools.Freeform)
	if !ok || ff.Grammar().Syntax != "lark" || !strings.Contains(ff.Grammar().Definition, "hunk") {
		t.Fatal("ApplyPatch is not a freeform tool with a grammar")
	}
}

// golden compares got with testdata/receipts/name.txt (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	testkit.CheckFile(t, filepath.Join("testdata", "receipts", name+".txt"), []byte(got), *update)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{gitPatch, "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n", "", "@@ -1 +1 @@\n", "diff --git a/x b/y\nrename from x\nrename to y\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		changes, err := patch.Parse(text)
		if err != nil {
			return
		}
		for _, c := range changes {
			if c.OldPath == "" && c.NewPath == "" {
				t.Errorf("change without paths from %q", text)
			}
			if c.File == nil {
				t.Errorf("change without file from %q", text)
			}
		}
	})
}

// FuzzApply applies arbitrary patch text in a root next to a directory it
// must never touch.
func FuzzApply(f *testing.F) {
	f.Add(gitPatch)
	f.Add("--- /dev/null\n+++ b/../outside/x\n@@ -0,0 +1 @@\n+x\n")
	f.Add("diff --git a/in.txt b/escape/in.txt\nsimilarity index 100%\nrename from in.txt\nrename to escape/in.txt\n")
	f.Fuzz(func(t *testing.T, text string) {
		root, base := newRoot(t, map[string]string{"in.txt": "x\n"})
		_, _ = patch.Apply(root, text)
		entries, err := os.ReadDir(filepath.Join(base, "outside"))
		if err != nil || len(entries) != 1 {
			t.Fatalf("the patch touched the outside directory: %v %v\n%q", entries, err, text)
		}
		if b, _ := os.ReadFile(filepath.Join(base, "outside", "secret")); string(b) != "x\n" {
			t.Fatalf("the patch changed a file outside the root:\n%q", text)
		}
	})
}
