package exec

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// KindPolicyDenied is the error kind of a command refused by the agent's
// command policy.
const KindPolicyDenied = "command_policy_denied"

// policyDepth bounds how deep `sh -c '…'` and eval strings are parsed.
const policyDepth = 4

// alwaysAllowed are shell builtins an allow-list need not name: they run
// nothing and read or write no file by themselves.
var alwaysAllowed = []string{"cd", "echo", "printf", "true", "false", "test", "[", "pwd", "exit", ":",
	"export", "unset", "set", "shift", "return", "wait", "read", "local"}

// wrappers run the command among their arguments.
var wrappers = []string{"env", "command", "exec", "builtin", "nohup", "nice", "time", "timeout", "xargs",
	"sudo", "doas", "stdbuf", "setsid", "chrt", "ionice", "taskset", "unbuffer"}

// shells are the ones whose -c string the check parses too.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh"}

// violation is why a policy refuses a command.
type violation struct {
	word, rule, message, hint string
}

// checkPolicy refuses spec when cfg.Policy forbids it, with the failure
// the model sees; nil when the command may run. It looks at the command
// line as the shell will parse it: every simple command's executable, and
// with ConfineToRoot every literal path among the words and redirections.
func checkPolicy(cfg Config, tool string, spec ProcessSpec) *tools.Result {
	p := cfg.Policy
	if p == nil || p.IsZero() {
		return nil
	}
	v := policyCheck{p: p, spec: spec, root: cfg.Root.Dir(), path: envValue(spec.Env, "PATH")}
	var bad *violation
	if spec.Shell != "" && !slices.Contains(shells[:3], filepath.Base(spec.Shell)) {
		bad = &violation{word: spec.Shell, rule: "shell", message: fmt.Sprintf("shell %q cannot be checked against the command policy", spec.Shell),
			hint: "omit shell (bash) or use sh: the policy reads commands as POSIX shell"}
	} else {
		bad = v.script(spec.Cmd, 0)
	}
	if bad == nil {
		return nil
	}
	r := tools.Failure(tool, messages.ToolError, tools.ToolError{
		Kind:    KindPolicyDenied,
		Message: "the agent's command policy refuses this command: " + bad.message,
		Details: mustJSON(map[string]any{"cmd": spec.Cmd, "word": bad.word, "rule": bad.rule, "policy": p,
			"execution_root": v.root}),
		RecoveryHint: bad.hint + "; the operator sets the policy (config.json command_policy, agents create --policy)",
	})
	return &r
}

// policyCheck is one command line checked against a policy.
type policyCheck struct {
	p    *messages.CommandPolicy
	spec ProcessSpec
	root string
	path string // PATH of the command's environment
}

// script parses src and checks every simple command in it, including
// those in substitutions, functions and nested `sh -c` strings.
func (v policyCheck) script(src string, depth int) *violation {
	if depth > policyDepth {
		return &violation{word: src, rule: "nesting", message: "shell strings nested too deep to check",
			hint: "run the inner command directly"}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return &violation{word: src, rule: "parse", message: fmt.Sprintf("the command does not parse as shell (%v)", err),
			hint: "fix the shell syntax"}
	}
	var bad *violation
	syntax.Walk(f, func(n syntax.Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			bad = v.call(n, depth)
		case *syntax.Redirect:
			bad = v.redirect(n)
		case *syntax.Assign:
			if n.Name != nil {
				bad = v.assign(n.Name.Value)
			}
		case *syntax.Lit:
			bad = hiddenSubst(n.Value)
		case *syntax.SglQuoted:
			bad = hiddenSubst(n.Value)
		}
		return bad == nil
	})
	return bad
}

// hiddenSubst refuses quoted or escaped text holding an array subscript
// with a command substitution ('a[$(cmd)]'): bash runs that command when a
// builtin takes the text as a variable name (printf -v, read, unset,
// declare, let, a nameref) or evaluates it as arithmetic, and no simple
// command of the line shows it.
func hiddenSubst(text string) *violation {
	open := strings.IndexByte(text, '[')
	if open < 0 {
		return nil
	}
	rest := text[open:]
	for _, esc := range []string{`\x24`, `\044`, `\u0024`, `\U00000024`} {
		rest = strings.ReplaceAll(rest, esc, "$") // $'…' spells $ so too
	}
	if !strings.Contains(rest, "$(") && !strings.Contains(rest, "`") {
		return nil
	}
	return &violation{word: text, rule: "subscript",
		message: "quoted text holds an array subscript with a command substitution, which bash runs where the policy cannot see it",
		hint:    "run the command directly, not inside a quoted subscript"}
}

// call checks one simple command: its executable, what it wraps, and its
// paths.
func (v policyCheck) call(c *syntax.CallExpr, depth int) *violation {
	if len(c.Args) == 0 {
		return nil
	}
	name, ok := literal(c.Args[0])
	if !ok {
		return &violation{word: wordText(c.Args[0]), rule: "computed_name",
			message: "the executable's name is computed ($VAR, $(…) or a glob), so the policy cannot check it",
			hint:    "name the executable literally"}
	}
	args := literals(c.Args[1:])
	if bad := v.executable(name, true); bad != nil {
		return bad
	}
	if bad := v.wrapped(name, args, depth); bad != nil {
		return bad
	}
	if v.p.ConfineToRoot {
		return v.confined(name, c.Args[1:])
	}
	return nil
}

// executable checks name against Deny, then (when allow) Allow.
func (v policyCheck) executable(name string, allow bool) *violation {
	resolved := v.resolve(name)
	if e, ok := matchAny(v.p.Deny, name, resolved); ok {
		return &violation{word: name, rule: "deny", message: fmt.Sprintf("%s matches denied %q", describe(name, resolved), e),
			hint: "do it without " + name}
	}
	if !allow || len(v.p.Allow) == 0 || slices.Contains(alwaysAllowed, name) {
		return nil
	}
	entries := v.p.Allow
	if strings.Contains(name, "/") && !v.onPath(resolved) {
		entries = slices.DeleteFunc(slices.Clone(entries), func(e string) bool { return !strings.Contains(e, "/") })
	}
	if _, ok := matchAny(entries, name, resolved); !ok {
		return &violation{word: name, rule: "allow", message: fmt.Sprintf("%s is not among the allowed executables %q", describe(name, resolved), v.p.Allow),
			hint: "use one of the allowed executables"}
	}
	return nil
}

// onPath reports whether file resolved lies in one of the directories of
// the command's PATH: a name entry of an allow-list ("ls") allows the
// program found there, not a file of that name elsewhere (./ls, written
// by the agent).
func (v policyCheck) onPath(resolved string) bool {
	if resolved == "" {
		return false
	}
	for _, dir := range filepath.SplitList(v.path) {
		if filepath.IsAbs(dir) && filepath.Clean(dir) == filepath.Dir(resolved) {
			return true
		}
	}
	return false
}

// assign refuses, under an allow-list, setting PATH: the names the list
// allows would then be found elsewhere (PATH=.:$PATH ls).
func (v policyCheck) assign(name string) *violation {
	if name != "PATH" || len(v.p.Allow) == 0 {
		return nil
	}
	return &violation{word: name, rule: "allow", message: "setting PATH would make the allowed names run other programs",
		hint: "run commands with the PATH they are given"}
}

// wrapped checks what a wrapper (env, xargs, timeout, …), a shell's -c
// string or eval would run.
func (v policyCheck) wrapped(name string, args []string, depth int) *violation {
	base := filepath.Base(name)
	switch {
	case slices.Contains(shells, base):
		if i := slices.Index(args, "-c"); i >= 0 && i+1 < len(args) {
			return v.script(args[i+1], depth+1)
		}
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			return v.executable(args[0], false) // a script file
		}
	case base == "eval":
		return v.script(strings.Join(args, " "), depth+1)
	case slices.Contains(wrappers, base):
		first := true
		for _, a := range args {
			if k, _, ok := strings.Cut(a, "="); ok && base == "env" {
				if bad := v.assign(k); bad != nil {
					return bad
				}
			}
			if strings.HasPrefix(a, "-") || strings.Contains(a, "=") || strings.Trim(a, "0123456789.smhd") == "" {
				continue
			}
			if bad := v.executable(a, first); bad != nil {
				return bad
			}
			first = false
		}
	}
	return nil
}

// confined refuses literal paths outside the root among args, and a cd
// whose target cannot be read.
func (v policyCheck) confined(name string, words []*syntax.Word) *violation {
	if name == "cd" && (len(words) == 0 || !isLiteral(words[0])) {
		return &violation{word: "cd", rule: "confine_to_root", message: "cd without a literal directory may leave the execution root",
			hint: "cd to a literal directory inside the execution root"}
	}
	for _, w := range words {
		s, ok := literal(w)
		if !ok {
			continue
		}
		if name == "cd" && s != "-" {
			s = asPath(s) // any cd target is a path
		}
		if bad := v.inside(s); bad != nil {
			return bad
		}
	}
	return nil
}

func (v policyCheck) redirect(r *syntax.Redirect) *violation {
	if !v.p.ConfineToRoot || r.Word == nil {
		return nil
	}
	switch r.Op {
	case syntax.DplIn, syntax.DplOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return nil
	}
	s, ok := literal(r.Word)
	if !ok {
		return &violation{word: wordText(r.Word), rule: "confine_to_root", message: "a redirection to a computed path may leave the execution root",
			hint: "redirect to a literal path inside the execution root"}
	}
	return v.inside(asPath(s))
}

// asPath makes a word known to be a path look like one.
func asPath(s string) string {
	if pathLike(s) {
		return s
	}
	return "./" + s
}

// inside refuses s when it is a path outside the root.
func (v policyCheck) inside(s string) *violation {
	if _, after, ok := strings.Cut(s, "="); ok && strings.HasPrefix(s, "-") {
		s = after // --output=/x
	}
	if !pathLike(s) || device(s) {
		return nil
	}
	p := s
	switch {
	case strings.HasPrefix(p, "~"):
		p = filepath.Join(envValue(v.spec.Env, "HOME"), strings.TrimPrefix(p, "~"))
	case !filepath.IsAbs(p):
		p = filepath.Join(v.spec.Dir, p)
	}
	if rel, err := filepath.Rel(v.root, filepath.Clean(p)); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return nil
	}
	return &violation{word: s, rule: "confine_to_root", message: fmt.Sprintf("%q is outside the execution root %s", s, v.root),
		hint: "work on paths inside the execution root"}
}

// pathLike reports whether a literal word names a path that could leave
// the working directory.
func pathLike(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || s == ".." || strings.HasPrefix(s, "../") ||
		strings.Contains(s, "/../") || strings.HasSuffix(s, "/..") || strings.HasPrefix(s, "./")
}

func device(s string) bool {
	switch s {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/urandom":
		return true
	}
	return strings.HasPrefix(s, "/dev/fd/")
}

// resolve finds name the way the shell would: a name with a slash from
// the working directory, else the first executable on PATH; "" when not
// found.
func (v policyCheck) resolve(name string) string {
	if strings.Contains(name, "/") {
		if filepath.IsAbs(name) {
			return filepath.Clean(name)
		}
		return filepath.Join(v.spec.Dir, name)
	}
	for _, dir := range filepath.SplitList(v.path) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(v.spec.Dir, dir)
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// matchAny returns the first entry matching the executable: an entry
// with a slash against the resolved path (and the name as written), any
// other against the base name.
func matchAny(entries []string, name, resolved string) (string, bool) {
	for _, e := range entries {
		if strings.Contains(e, "/") {
			for _, p := range []string{resolved, name} {
				if ok, _ := path.Match(e, p); ok && p != "" {
					return e, true
				}
			}
			continue
		}
		if ok, _ := path.Match(e, filepath.Base(name)); ok {
			return e, true
		}
	}
	return "", false
}

func describe(name, resolved string) string {
	if resolved == "" || resolved == name {
		return fmt.Sprintf("executable %q", name)
	}
	return fmt.Sprintf("executable %q (%s)", name, resolved)
}

// literal is w's value when it is only literal text and quotes.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				return "", false // a glob: its expansion is unknown
			}
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

func isLiteral(w *syntax.Word) bool {
	_, ok := literal(w)
	return ok
}

// literals are the literal values among ws, in order.
func literals(ws []*syntax.Word) []string {
	var out []string
	for _, w := range ws {
		if s, ok := literal(w); ok {
			out = append(out, s)
		}
	}
	return out
}

func wordText(w *syntax.Word) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// envValue is name's value in env; this process's when env is nil.
func envValue(env []string, name string) string {
	if env == nil {
		return os.Getenv(name)
	}
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}
