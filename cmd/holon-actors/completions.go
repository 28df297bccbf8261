package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// completionsCmd is `holon-actors install-completions`: it writes one
// completion file per shell into the user's completion directories, or
// removes them. Each file makes the shell run this binary with COMP_LINE
// set, which kongplete answers (see run).
type completionsCmd struct {
	Shell     []string `help:"Shells to install for (comma-separated)." default:"bash,zsh,fish" enum:"bash,zsh,fish"`
	Uninstall bool     `help:"Remove the completion files instead."`
}

// completionFile is where a shell looks for the completion of a command,
// and what goes there.
type completionFile struct {
	shell, path, content, note string
}

// completionFiles are the files for bin, in the user's directories: the
// XDG ones of bash-completion and fish (loaded on demand, no rc edit), and
// a zsh function directory the note says how to put on $fpath.
func completionFiles(bin string) ([]completionFile, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("find the home directory: %w", err)
	}
	data := envOr("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	config := envOr("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	q := shellQuote(bin)
	zshDir := filepath.Join(data, "zsh", "site-functions")
	return []completionFile{
		{shell: "bash", path: filepath.Join(data, "bash-completion", "completions", "holon-actors"),
			content: completionHeader + "complete -C " + q + " holon-actors\n"},
		{shell: "zsh", path: filepath.Join(zshDir, "_holon-actors"),
			content: "#compdef holon-actors\n" + completionHeader +
				"local -a matches\nmatches=(\"${(@f)$(COMP_LINE=\"${words[1,CURRENT]}\" " + q + " 2>/dev/null)}\")\ncompadd -a matches\n",
			note: "zsh loads it when " + zshDir + " is on $fpath: add 'fpath=(" + zshDir + " $fpath)' before compinit in ~/.zshrc if it is not"},
		{shell: "fish", path: filepath.Join(config, "fish", "completions", "holon-actors.fish"),
			content: completionHeader + "function __complete_holon_actors\n    set -lx COMP_LINE (commandline -cp)\n" +
				"    test -z (commandline -ct)\n    and set COMP_LINE \"$COMP_LINE \"\n    " + q + "\nend\n" +
				"complete -f -c holon-actors -a \"(__complete_holon_actors)\"\n"},
	}, nil
}

// completionHeader marks a file as ours: uninstall removes only such files.
const completionHeader = "# holon-actors shell completion, written by 'holon-actors install-completions'.\n"

// Run installs or removes the files of the chosen shells.
func (c *completionsCmd) Run(e *env) error {
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the holon-actors binary: %w", err)
	}
	if bin, err = filepath.EvalSymlinks(bin); err != nil {
		return fmt.Errorf("find the holon-actors binary: %w", err)
	}
	files, err := completionFiles(bin)
	if err != nil {
		return err
	}
	for _, f := range files {
		if !slices.Contains(c.Shell, f.shell) {
			continue
		}
		what, err := c.apply(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %s %s\n", f.shell, what, f.path)
		if f.note != "" && !c.Uninstall {
			fmt.Fprintf(e.stdout, "  %s\n", f.note)
		}
	}
	return nil
}

// apply installs or removes f and says what it did.
func (c *completionsCmd) apply(f completionFile) (string, error) {
	old, err := os.ReadFile(f.path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read %s: %w", f.path, err)
	}
	ours := exists && bytes.Contains(old, []byte(completionHeader))
	switch {
	case c.Uninstall && !exists:
		return "nothing to remove at", nil
	case c.Uninstall && !ours:
		return "", fmt.Errorf("%s was not written by install-completions: left as it is; remove it yourself if you want", f.path)
	case c.Uninstall:
		if err := os.Remove(f.path); err != nil {
			return "", fmt.Errorf("remove %s: %w", f.path, err)
		}
		return "removed", nil
	case exists && string(old) == f.content:
		return "already installed at", nil
	case exists && !ours:
		return "", fmt.Errorf("%s exists and was not written by install-completions: move it away, or skip this shell with --shell", f.path)
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(f.path), err)
	}
	if err := os.WriteFile(f.path, []byte(f.content), 0o644); err != nil {
		return "", fmt.Errorf("write %s: %w", f.path, err)
	}
	return "installed", nil
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

// shellQuote quotes s for bash, zsh and fish alike.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
