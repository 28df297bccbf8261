package patch_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/patch"
)

// TestConformanceWithGit makes random edits in a temporary git repository
// (modified, added, deleted, renamed files; missing final newlines; new
// directories), takes `git diff`, and applies it to two fresh copies of
// the original tree: one with `git apply`, one with patch.Apply. The two
// trees must be byte-identical.
func TestConformanceWithGit(t *testing.T) {
	if _, err := osexec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	if n, err := strconv.Atoi(os.Getenv("HOLON_PATCH_SEEDS")); err == nil && n > 0 {
		seeds = n // a longer hunt: HOLON_PATCH_SEEDS=2000 go test -run Conformance ./tools/patch
	}
	var seen sync.Map // which kinds of change the diffs exercised
	t.Cleanup(func() {
		for _, k := range []string{"rename from", "new file mode", "deleted file mode", "new mode 100755", "\\ No newline at end of file"} {
			if _, ok := seen.Load(k); !ok && !t.Failed() {
				t.Errorf("no random diff contained %q; the edits do not cover it", k)
			}
		}
	})
	for seed := range seeds {
		t.Run(fmt.Sprintf("seed_%d", seed), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(seed), 42))
			base := t.TempDir()
			orig := randomTree(rng)
			repo := filepath.Join(base, "repo")
			writeTree(t, repo, orig)
			git(t, repo, nil, "init", "-q")
			git(t, repo, nil, "add", "-A")
			git(t, repo, nil, "commit", "-q", "-m", "start")
			editTree(t, rng, repo, orig)
			git(t, repo, nil, "add", "-A")
			diff := git(t, repo, nil, "diff", "--cached", "-M", "--no-color", "--no-ext-diff")
			if len(diff) == 0 {
				t.Skip("the random edits changed nothing")
			}
			for _, k := range []string{"rename from", "new file mode", "deleted file mode", "new mode 100755", "\\ No newline at end of file"} {
				if bytes.Contains(diff, []byte(k)) {
					seen.Store(k, true)
				}
			}
			want := filepath.Join(base, "git-apply")
			writeTree(t, want, orig)
			git(t, want, diff, "apply", "-")
			got := filepath.Join(base, "apply-patch")
			writeTree(t, got, orig)
			root, err := tools.NewExecRoot(got)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := patch.Apply(root, string(diff)); err != nil {
				t.Fatalf("Apply: %v\npatch:\n%s", err, diff)
			}
			if w, g := snapshotTree(t, want), snapshotTree(t, got); w != g {
				t.Fatalf("trees differ\n--- git apply\n%s\n--- ApplyPatch\n%s\npatch:\n%s", w, g, diff)
			}
		})
	}
}

var words = []string{"alpha", "beta", "gamma", "delta", "", "}", "{", "return nil", "x := 1", "// comment"}

func randomLines(rng *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = words[rng.IntN(len(words))]
		if rng.IntN(3) == 0 {
			lines[i] += fmt.Sprintf(" %d", rng.IntN(100))
		}
	}
	return lines
}

func join(lines []string, finalNewline bool) string {
	s := strings.Join(lines, "\n")
	if finalNewline && len(lines) > 0 {
		s += "\n"
	}
	return s
}

func randomTree(rng *rand.Rand) map[string]string {
	tree := map[string]string{}
	for i := range 3 + rng.IntN(6) {
		dir := []string{"", "src/", "src/pkg/", "docs/"}[rng.IntN(4)]
		tree[fmt.Sprintf("%sfile%d.txt", dir, i)] = join(randomLines(rng, 1+rng.IntN(60)), rng.IntN(8) != 0)
	}
	return tree
}

// editTree applies random edits to the working tree of repo.
func editTree(t *testing.T, rng *rand.Rand, repo string, tree map[string]string) {
	names := make([]string, 0, len(tree))
	for n := range tree {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, name := range names {
		p := filepath.Join(repo, name)
		switch rng.IntN(6) {
		case 0: // untouched
		case 1:
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		case 2: // rename, maybe with a small edit
			to := filepath.Join(repo, fmt.Sprintf("moved/renamed%d.txt", i))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				t.Fatal(err)
			}
			body := tree[name]
			if rng.IntN(2) == 0 && len(body) > 40 {
				body = strings.Replace(body, "\n", "\nchanged line\n", 1)
			}
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			writeFile(t, to, body)
		case 3: // mode change, sometimes with an edit
			if rng.IntN(2) == 0 {
				writeFile(t, p, mutate(rng, tree[name]))
			}
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			writeFile(t, p, mutate(rng, tree[name]))
		}
	}
	for i := range rng.IntN(3) {
		writeFile(t, filepath.Join(repo, fmt.Sprintf("new/dir%d/added%d.txt", i, i)), join(randomLines(rng, 1+rng.IntN(20)), rng.IntN(4) != 0))
	}
}

// mutate inserts, deletes and replaces lines, and sometimes toggles the
// final newline.
func mutate(rng *rand.Rand, body string) string {
	final := strings.HasSuffix(body, "\n")
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	for range 1 + rng.IntN(6) {
		i := rng.IntN(len(lines) + 1)
		switch rng.IntN(3) {
		case 0:
			lines = append(lines[:i], append(randomLines(rng, 1+rng.IntN(3)), lines[i:]...)...)
		case 1:
			if i < len(lines) && len(lines) > 1 {
				lines = append(lines[:i], lines[i+1:]...)
			}
		default:
			if i < len(lines) {
				lines[i] = "edited " + lines[i]
			}
		}
	}
	if rng.IntN(6) == 0 {
		final = !final
	}
	return join(lines, final)
}

func writeTree(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for name, body := range tree {
		writeFile(t, filepath.Join(dir, name), body)
	}
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshotTree lists every regular file under dir (not .git) with its
// mode and content.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "== %s %v\n%q\n", rel, fi.Mode(), body)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func git(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := osexec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, stderr.String())
	}
	return out
}
