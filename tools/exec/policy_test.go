package exec_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// TestCommandPolicy: each command either runs or is refused before it
// starts with command_policy_denied, the rule and the offending word.
func TestCommandPolicy(t *testing.T) {
	allow := &messages.CommandPolicy{Allow: []string{"ls", "cat", "/usr/*/env"}}
	deny := &messages.CommandPolicy{Deny: []string{"touch", "wget"}}
	confine := &messages.CommandPolicy{ConfineToRoot: true}
	allowChmod := &messages.CommandPolicy{Allow: []string{"ls", "chmod", "env"}}
	tests := []struct {
		name   string
		policy *messages.CommandPolicy
		cmd    string
		shell  string
		rule   string // "" means it runs
		word   string
	}{
		{"no policy runs anything", nil, "touch made", "", "", ""},
		{"zero policy runs anything", &messages.CommandPolicy{}, "touch made", "", "", ""},
		{"denied executable", deny, "touch made", "", "deny", "touch"},
		{"denied inside a pipeline", deny, "echo hi | touch made", "", "deny", "touch"},
		{"denied inside a substitution", deny, "echo $(touch made)", "", "deny", "touch"},
		{"denied behind env", deny, "env FOO=1 touch made", "", "deny", "touch"},
		{"denied behind timeout", deny, "timeout 5 touch made", "", "deny", "touch"},
		{"denied in sh -c", deny, "sh -c 'touch made'", "", "deny", "touch"},
		{"denied in eval", deny, "eval touch made", "", "deny", "touch"},
		{"denied by path", &messages.CommandPolicy{Deny: []string{"/*/touch", "/*/*/touch"}}, "touch made", "", "deny", "touch"},
		{"computed name", deny, "T=touch; $T made", "", "computed_name", "$T"},
		{"other executables run under a deny-list", deny, "echo fine", "", "", ""},
		{"allowed executable", allow, "ls", "", "", ""},
		{"allowed by path pattern", allow, "echo x | /usr/bin/env true", "", "", ""},
		{"builtins need no entry", allow, "cd sub && echo ok", "", "", ""},
		{"not allowed", allow, "touch made", "", "allow", "touch"},
		{"not allowed after an allowed one", allow, "ls && touch made", "", "allow", "touch"},
		{"unknown shell", allow, "print('x')", "python3", "shell", "python3"},
		{"confined: inside", confine, "cat sub/../sub/../x 2>/dev/null; ls ./sub > out.txt", "", "", ""},
		{"confined: absolute path", confine, "cat /etc/hostname", "", "confine_to_root", "/etc/hostname"},
		{"confined: dot-dot", confine, "ls ../outside", "", "confine_to_root", "../outside"},
		{"confined: redirect out", confine, "echo x > ../outside/f", "", "confine_to_root", "../outside/f"},
		{"confined: cd out", confine, "cd /tmp && touch made", "", "confine_to_root", "/tmp"},
		{"confined: bare cd", confine, "cd; touch made", "", "confine_to_root", "cd"},
		{"confined: home", confine, "ls ~", "", "confine_to_root", "~"},
		{"confined: option value", confine, "ls --hide=/etc .", "", "confine_to_root", "/etc"},
		{"subscript behind printf -v", allow, "printf -v 'a[$(touch made)]' x", "", "subscript", "a[$(touch made)]"},
		{"subscript behind read", allow, "read 'a[`touch made`]' <<< x", "", "subscript", "a[`touch made`]"},
		{"subscript behind unset", allow, `unset "a[\$(touch made)]"`, "", "subscript", `a[\$(touch made)]`},
		{"subscript behind declare", allow, "declare 'a[$(touch made)]=1'", "", "subscript", "a[$(touch made)]=1"},
		{"subscript behind let", allow, "let 'a[$(touch made)]=1'", "", "subscript", "a[$(touch made)]=1"},
		{"subscript in arithmetic", allow, "x='a[$(touch made)]'; echo $(( x ))", "", "subscript", "a[$(touch made)]"},
		{"subscript spelled with $'…'", allow, `x=$'a[\x24(touch made)]'; (( x ))`, "", "subscript", `a[\x24(touch made)]`},
		{"subscripts without substitution run", allow, "a=(x y); i=1; echo \"${a[$i]}\" '[$x]'", "", "", ""},
		{"an allowed name written into the root", allowChmod, "printf 'touch made' > ls; chmod +x ls; ./ls", "", "allow", "./ls"},
		{"an allowed name found on a PATH set inline", allowChmod, "printf 'touch made' > ls; chmod +x ls; PATH=.:$PATH ls", "", "allow", "PATH"},
		{"an allowed name found on an exported PATH", allowChmod, "export PATH=.:$PATH; ls", "", "allow", "PATH"},
		{"an allowed name found on env's PATH", allowChmod, "env PATH=. ls", "", "allow", "PATH"},
		{"an allowed name by its PATH directory", allowChmod, "/usr/bin/chmod --version >/dev/null || /bin/chmod --version", "", "", ""},
		{"unparsable", deny, "echo 'unterminated", "", "parse", "echo 'unterminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.cfg.Policy = tt.policy
			res, env := call(t, exec.ExecCommand(e.cfg), map[string]any{"cmd": tt.cmd, "shell": tt.shell})
			made := filepath.Join(e.cfg.Root.Dir(), "made")
			if tt.rule == "" {
				if env.Status != tools.StatusSuccess {
					t.Fatalf("%q refused: %+v", tt.cmd, env.Error)
				}
				return
			}
			if res.Status != messages.ToolError || env.Error == nil || env.Error.Kind != exec.KindPolicyDenied {
				t.Fatalf("%q = %s %+v, want %s", tt.cmd, res.Status, env.Error, exec.KindPolicyDenied)
			}
			var d struct{ Rule, Word string }
			if err := json.Unmarshal(env.Error.Details, &d); err != nil || d.Rule != tt.rule || d.Word != tt.word {
				t.Errorf("details = %s, want rule %s word %q", env.Error.Details, tt.rule, tt.word)
			}
			if !strings.Contains(env.Error.RecoveryHint, "agents create --policy") {
				t.Errorf("hint %q does not say who sets the policy", env.Error.RecoveryHint)
			}
			if _, err := os.Stat(made); err == nil {
				t.Error("the refused command ran")
			}
		})
	}
}

// TestCommandPolicyBatch: a refused item of a batch fails alone.
func TestCommandPolicyBatch(t *testing.T) {
	e := newEnv(t)
	e.cfg.Policy = &messages.CommandPolicy{Deny: []string{"touch"}}
	_, env := call(t, exec.ExecCommandBatch(e.cfg), map[string]any{"items": []map[string]any{
		{"cmd": "echo first"}, {"cmd": "touch made"}, {"cmd": "echo third"}}})
	if !strings.Contains(string(env.Result), exec.KindPolicyDenied) || !strings.Contains(string(env.Result), "third") {
		t.Fatalf("batch = %s %s", env.Status, env.Result)
	}
	if _, err := os.Stat(filepath.Join(e.cfg.Root.Dir(), "made")); err == nil {
		t.Error("the refused item ran")
	}
}
