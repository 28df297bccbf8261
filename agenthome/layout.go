package agenthome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The layout of an agent's home. AGENTS.md is the agent's own
// instructions; .holon/ is the runtime's (artifacts, state).
const (
	AgentsFile   = "AGENTS.md"
	ClaudeFile   = "CLAUDE.md"
	SelfMemory   = "memory/self.md"
	OperatorMem  = "memory/operator.md"
	NotesDir     = "notes"
	WorkDir      = "work"
	SkillsDir    = "skills"
	StateDir     = ".holon/state"
	ProvenanceFn = ".holon/state/template.json"
	skillsJSON   = "skills.json"
)

// starters are the fixed memory entries a new home starts with.
var starters = map[string]string{
	SelfMemory:  "# Self\n\nWhat I have learnt about myself and how I work best.\n",
	OperatorMem: "# Operator\n\nWhat my operator prefers and has asked me to remember.\n",
}

// Provenance records where an agent's home was made from, in
// .holon/state/template.json. The live instructions are AGENTS.md and
// skills/ themselves, not this record.
type Provenance struct {
	Template  string    `json:"template,omitempty"`
	Kind      string    `json:"kind,omitempty"`
	Source    string    `json:"source,omitempty"`
	Skills    []string  `json:"skills,omitempty"`
	Digest    string    `json:"digest,omitempty"`
	Written   string    `json:"instructions,omitempty"` // "template", "operator" or "builtin"
	AppliedAt time.Time `json:"applied_at"`
}

// Spec is what a new agent's home is made from.
type Spec struct {
	// Template is a template selector (see Resolve); "" with no
	// Instructions means the built-in holon-default.
	Template string
	// Instructions, when set, is the agent's AGENTS.md, over the
	// template's.
	Instructions string
	// Now stamps the provenance record.
	Now time.Time
}

// Create makes the agent home at home from spec, whole or not at all: it
// resolves the template and its skills, builds the home in a staging
// directory beside it and renames it into place. It fails with
// ErrHomeExists when home exists and is not empty, and with the errors of
// Resolve and of skill installation; nothing is left behind then.
func Create(ctx context.Context, cfg Config, home string, spec Spec) error {
	if err := checkVacant(home); err != nil {
		return err
	}
	t, err := templateOf(ctx, cfg, spec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(home), 0o700); err != nil {
		return fmt.Errorf("agent homes: %w", err)
	}
	staging, err := os.MkdirTemp(filepath.Dir(home), ".staging-"+filepath.Base(home)+"-")
	if err != nil {
		return fmt.Errorf("stage agent home: %w", err)
	}
	defer os.RemoveAll(staging) // gone once renamed; removes a failed one
	if err := materialize(ctx, cfg, staging, t, spec); err != nil {
		return err
	}
	if err := os.Chmod(staging, 0o700); err != nil {
		return fmt.Errorf("stage agent home: %w", err)
	}
	_ = os.Remove(home) // an empty directory only (checkVacant)
	if err := os.Rename(staging, home); err != nil {
		return fmt.Errorf("place agent home %s: %w", home, err)
	}
	return nil
}

// Discard removes a home Create made, when the agent it was made for
// could not be created after all.
func Discard(home string) error { return os.RemoveAll(home) }

// checkVacant refuses a home that exists with anything in it.
func checkVacant(home string) error {
	entries, err := os.ReadDir(home)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("agent home %s: %w", home, err)
	case len(entries) > 0:
		return fmt.Errorf("%w: %s is not empty (left by an earlier agent?): move it away, or pick another id", ErrHomeExists, home)
	}
	return nil
}

// templateOf resolves spec's template; the built-in holon-default when it
// names none and gives no instructions; none when it gives instructions
// only.
func templateOf(ctx context.Context, cfg Config, spec Spec) (*Template, error) {
	switch {
	case spec.Template != "":
		t, err := Resolve(ctx, cfg, spec.Template)
		return &t, err
	case spec.Instructions != "":
		return nil, nil
	}
	t, err := defaultTemplate(cfg)
	return &t, err
}

// materialize writes the layout, the template's files and skills and
// spec's instructions into dir, then the provenance record.
func materialize(ctx context.Context, cfg Config, dir string, t *Template, spec Spec) error {
	p := Provenance{AppliedAt: spec.Now.UTC()}
	if t != nil {
		for rel, b := range t.Files {
			if rel == skillsJSON {
				continue
			}
			if err := writeFile(filepath.Join(dir, filepath.FromSlash(rel)), b); err != nil {
				return err
			}
		}
		refs, _ := t.skillRefs() // checked by Resolve
		names, err := installSkillRefs(ctx, cfg, filepath.Join(dir, SkillsDir), refs)
		if err != nil {
			return err
		}
		p.Template, p.Kind, p.Source, p.Skills, p.Digest, p.Written = t.Selector, t.Kind, t.Source, names, digest(t.Files), "template"
	}
	if spec.Instructions != "" {
		if err := writeFile(filepath.Join(dir, AgentsFile), []byte(spec.Instructions)); err != nil {
			return err
		}
		p.Written = "operator"
	}
	if err := EnsureLayout(dir); err != nil {
		return err
	}
	return writeProvenance(dir, p)
}

// EnsureLayout creates what is missing of home's layout (memory/,
// notes/, work/, skills/, .holon/state/ and the starter memory entries);
// it never overwrites a file and never writes AGENTS.md.
func EnsureLayout(home string) error {
	for _, d := range []string{"memory", NotesDir, WorkDir, SkillsDir, StateDir} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return fmt.Errorf("agent home layout: %w", err)
		}
	}
	for rel, text := range starters {
		if err := writeNew(filepath.Join(home, filepath.FromSlash(rel)), []byte(text)); err != nil {
			return err
		}
	}
	return nil
}

// writeProvenance writes p to home's .holon/state/template.json.
func writeProvenance(home string, p Provenance) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(home, filepath.FromSlash(ProvenanceFn)), append(b, '\n'))
}

// ReadProvenance reads home's template provenance; ok is false when there
// is none.
func ReadProvenance(home string) (p Provenance, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(home, filepath.FromSlash(ProvenanceFn)))
	if errors.Is(err, os.ErrNotExist) {
		return p, false, nil
	}
	if err != nil {
		return p, false, err
	}
	return p, true, json.Unmarshal(b, &p)
}

// writeFile writes b to path (0600), making its directories (0700).
func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeNew writes b to path only when nothing is there.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
