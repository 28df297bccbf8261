package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIUsageErrors: a console asked for with bad flags says what is
// wrong before it takes the terminal, and exits 2.
func TestTUIUsageErrors(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"display not a mode", []string{"tui", "--display", "7"}, "use info (3), verbose (4) or debug (5)"},
		{"display trace", []string{"tui", "--display", "trace"}, "use /events"},
		{"over --remote", []string{"--remote", "127.0.0.1:1", "tui"}, "not --remote"},
		{"url without token", []string{"--url", "http://127.0.0.1:1", "tui"}, "needs --url-token-file"},
		{"token file without url", []string{"--url-token-file", filepath.Join(home, "t"), "tui"}, "without --url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOLON_CONTROL_TOKEN", "")
			code, out, errOut := runCLI(t, append([]string{"--home", home}, tt.args...)...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "holon-actors tui --help") {
				t.Errorf("run(%q) = %d %q %q; want exit %d saying %q and the help hint", tt.args, code, out, errOut, exitUsage, tt.want)
			}
		})
	}
}
