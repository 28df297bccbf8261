package patch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// ApplyPatchName is the model-facing name of the ApplyPatch tool.
const ApplyPatchName = "ApplyPatch"

// Error kinds of ApplyPatch.
const (
	KindInvalidPatch  = "invalid_patch"
	KindPatchConflict = "patch_conflict"
	KindFileNotFound  = "file_not_found"
	KindFileExists    = "file_exists"
	KindNotRegular    = "not_regular_file"
)

// maxListed bounds the changed paths a receipt lists.
const maxListed = 200

// Args is the strict JSON form of ApplyPatch.
type Args struct {
	Patch string `json:"patch" jsonschema:"a unified diff (git diff format): --- a/path, +++ b/path, @@ hunks; /dev/null adds or deletes a file"`
}

// Result is the canonical result of ApplyPatch.
type Result struct {
	Changed      []FileResult `json:"changed"`
	FilesChanged int          `json:"files_changed"`
}

// Config is what ApplyPatch needs from the runtime.
type Config struct {
	Root tools.ExecRoot // overridden by tools.WithExecRoot on the call's context
}

type applyPatch struct {
	cfg      Config
	spec     tools.Spec
	resolved *jsonschema.Resolved
}

// ApplyPatch is the ApplyPatch tool. It is a tools.Freeform: Call takes
// the strict JSON form {"patch": "..."} or the raw diff text of the
// freeform grammar form; both carry the same diff to Apply.
func ApplyPatch(cfg Config) tools.Tool {
	s, err := tools.SchemaFor[Args]()
	if err != nil {
		panic(fmt.Sprintf("patch: schema: %v", err)) // programmer error
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("patch: schema: %v", err)) // programmer error
	}
	raw, _ := json.Marshal(s)
	return &applyPatch{cfg: cfg, resolved: resolved, spec: tools.Spec{
		Name: ApplyPatchName,
		Description: "Edit files with a unified diff, as git diff prints it: modified, added (--- /dev/null), deleted " +
			"(+++ /dev/null) and renamed files. Paths are relative to the execution root. All files change or none.",
		Parameters: raw,
	}}
}

func (t *applyPatch) Spec() tools.Spec { return t.spec }

// Grammar is the freeform input grammar.
func (t *applyPatch) Grammar() tools.Grammar {
	return tools.Grammar{Syntax: "lark", Definition: Grammar}
}

func (t *applyPatch) Call(ctx context.Context, args json.RawMessage) tools.Result {
	text, fe := patchText(t.resolved, args)
	if fe != nil {
		return tools.InvalidInput(ApplyPatchName, fe)
	}
	root := t.cfg.Root
	if r, ok := tools.ExecRootFrom(ctx); ok {
		root = r
	}
	if root.Dir() == "" {
		return tools.Failure(ApplyPatchName, messages.ToolError, tools.ToolError{
			Kind: "runtime_misconfigured", Message: "ApplyPatch has no execution root",
			RecoveryHint: "this is a runtime problem, not a problem with the call; tell the operator",
		})
	}
	changed, err := Apply(root, text)
	if err != nil {
		return failure(err)
	}
	res := Result{Changed: changed, FilesChanged: len(changed)}
	summary := fmt.Sprintf("patch applied: %d file%s changed", len(changed), plural(len(changed)))
	return tools.Build(tools.SuccessEnvelope(ApplyPatchName, summary, res), Receipt)
}

// patchText extracts the diff from the strict JSON form, a JSON string,
// or raw freeform text.
func patchText(resolved *jsonschema.Resolved, args json.RawMessage) (string, *tools.FieldError) {
	trimmed := bytes.TrimSpace(args)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '{':
		a, fe := tools.DecodeArgs[Args](resolved, trimmed)
		if fe != nil {
			return "", fe
		}
		return a.Patch, nil
	case len(trimmed) > 0 && trimmed[0] == '"':
		var s string
		if err := json.Unmarshal(trimmed, &s); err == nil {
			return s, nil
		}
	}
	return string(args), nil
}

func failure(err error) tools.Result {
	te := tools.ToolError{Message: err.Error()}
	var pe *tools.PathError
	var ce *ConflictError
	switch {
	case errors.As(err, &pe):
		te = pe.ToolError()
	case errors.As(err, &ce):
		te.Kind = KindPatchConflict
		te.Details = mustJSON(map[string]string{"path": ce.Path, "error": ce.Err.Error()})
		te.RecoveryHint = "read the current content of " + ce.Path + " (sed -n start,endp) and make the hunk's context and removed lines match it exactly"
	case errors.Is(err, ErrInvalidPatch):
		te.Kind = KindInvalidPatch
		te.Details = mustJSON(map[string]string{"field": "patch", "parse_error": err.Error()})
		te.RecoveryHint = "send a unified diff: --- a/path and +++ b/path headers, then @@ -start,count +start,count @@ hunks whose counts match their lines"
	case errors.Is(err, ErrFileNotFound):
		te.Kind, te.RecoveryHint = KindFileNotFound, "check the path with ls, or add the file with --- /dev/null"
	case errors.Is(err, ErrFileExists):
		te.Kind, te.RecoveryHint = KindFileExists, "patch the existing file as a modification, or pick another name"
	case errors.Is(err, ErrNotRegular):
		te.Kind, te.RecoveryHint = KindNotRegular, "ApplyPatch edits regular files only"
	default:
		te.Kind, te.Retryable = "patch_write_failed", true
		te.RecoveryHint = "no file was changed; check permissions and disk space, then retry"
	}
	return tools.Failure(ApplyPatchName, messages.ToolError, te)
}

// Receipt renders the short confirmation of ApplyPatch: the count, then
// one line per changed path with a git-style status letter.
var Receipt tools.Renderer = tools.RenderFunc(func(env tools.Envelope) string {
	var r Result
	if err := json.Unmarshal(env.Result, &r); err != nil {
		return env.SummaryText
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Patch applied: %d file%s changed", r.FilesChanged, plural(r.FilesChanged))
	for i, c := range r.Changed {
		if i == maxListed {
			fmt.Fprintf(&b, "\n… and %d more", len(r.Changed)-maxListed)
			break
		}
		switch c.Op {
		case OpAdd:
			fmt.Fprintf(&b, "\nA %s", c.Path)
		case OpDelete:
			fmt.Fprintf(&b, "\nD %s", c.Path)
		case OpRename:
			fmt.Fprintf(&b, "\nR %s -> %s", c.OldPath, c.Path)
		case OpCopy:
			fmt.Fprintf(&b, "\nC %s -> %s", c.OldPath, c.Path)
		default:
			fmt.Fprintf(&b, "\nM %s", c.Path)
		}
	}
	return b.String()
})

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("patch: details do not marshal: %v", err)) // programmer error
	}
	return b
}
