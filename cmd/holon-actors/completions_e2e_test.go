package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallCompletions: install-completions writes the bash, zsh and
// fish files into the user's completion directories, again changes
// nothing, leaves a file it did not write alone, and --uninstall removes
// its own.
func TestInstallCompletions(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := append(filteredEnv("XDG_DATA_HOME", "XDG_CONFIG_HOME"), "HOME="+home)
	run := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(binary, append([]string{"install-completions"}, args...)...)
		cmd.Env = env
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String(), errb.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, out.String(), errb.String()
	}
	files := map[string]string{
		"bash": filepath.Join(home, ".local/share/bash-completion/completions/holon-actors"),
		"zsh":  filepath.Join(home, ".local/share/zsh/site-functions/_holon-actors"),
		"fish": filepath.Join(home, ".config/fish/completions/holon-actors.fish"),
	}
	if code, out, errOut := run(); code != 0 || strings.Count(out, "installed ") != 3 {
		t.Fatalf("install = %d %q %q", code, out, errOut)
	}
	for shell, path := range files {
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), binary) {
			t.Fatalf("%s file %s = %q, %v; want it to run %s", shell, path, b, err, binary)
		}
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		out, err := exec.Command(bash, "-c", "source "+files["bash"]+" && complete -p holon-actors").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "complete -C") {
			t.Fatalf("bash loading the file = %q, %v", out, err)
		}
	}
	if code, out, _ := run(); code != 0 || strings.Count(out, "already installed") != 3 {
		t.Fatalf("second install = %d %q, want nothing changed", code, out)
	}
	if code, out, _ := run("--uninstall", "--shell", "bash,zsh"); code != 0 || strings.Count(out, "removed") != 2 {
		t.Fatalf("uninstall bash,zsh = %d %q", code, out)
	}
	if _, err := os.Stat(files["bash"]); !os.IsNotExist(err) {
		t.Fatalf("bash file after uninstall: %v", err)
	}
	if _, err := os.Stat(files["fish"]); err != nil {
		t.Fatalf("fish file went with --shell bash,zsh: %v", err)
	}
	// A file someone else wrote is neither replaced nor removed.
	if err := os.WriteFile(files["fish"], []byte("complete -c holon-actors -a mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run("--shell", "fish"); code != exitFailure || !strings.Contains(errOut, "not written by install-completions") {
		t.Fatalf("install over a foreign file = %d %q", code, errOut)
	}
	if code, _, errOut := run("--uninstall", "--shell", "fish"); code != exitFailure || !strings.Contains(errOut, "left as it is") {
		t.Fatalf("uninstall of a foreign file = %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(files["fish"]); string(b) != "complete -c holon-actors -a mine\n" {
		t.Fatalf("the foreign file changed: %q", b)
	}
	if code, _, errOut := run("--shell", "tcsh"); code != exitUsage {
		t.Fatalf("--shell tcsh = %d %q, want a usage error", code, errOut)
	}
}
