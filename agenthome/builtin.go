package agenthome

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The built-in templates, seeded into the templates directory on start.
const (
	DefaultTemplate   = "holon-default"
	DeveloperTemplate = "holon-developer"
)

//go:embed builtin
var builtinFS embed.FS

// Builtins are the ids of the built-in templates.
func Builtins() []string { return []string{DefaultTemplate, DeveloperTemplate} }

// builtinFiles are the files of built-in template id.
func builtinFiles(id string) (map[string][]byte, error) {
	sub, err := fs.Sub(builtinFS, "builtin/"+id)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		files[p] = b
		return err
	})
	if len(files) == 0 && err == nil {
		err = fmt.Errorf("%w: no built-in template %q", ErrTemplate, id)
	}
	return files, err
}

// Seed outcomes, per built-in template.
const (
	SeedCreated   = "created"   // it was not there: written
	SeedRefreshed = "refreshed" // the runtime's last version was there: replaced by this one
	SeedUnchanged = "unchanged" // this version is there already
	SeedDiverged  = "diverged"  // edited locally (or never the runtime's): left alone
)

// managed is a built-in template directory's record of the version the
// runtime last wrote there.
type managed struct {
	TemplateID string    `json:"template_id"`
	Digest     string    `json:"digest"`
	WrittenAt  time.Time `json:"written_at"`
}

// SeedBuiltins writes the built-in templates into templatesDir: each one
// missing is created, each one still as the runtime last wrote it is
// refreshed to this version, and each one edited since is left alone. It
// returns the outcome by template id.
func SeedBuiltins(templatesDir string, now time.Time) (map[string]string, error) {
	out := map[string]string{}
	for _, id := range Builtins() {
		files, err := builtinFiles(id)
		if err != nil {
			return out, err
		}
		res, err := seed(filepath.Join(templatesDir, id), id, files, now)
		if err != nil {
			return out, fmt.Errorf("seed template %s: %w", id, err)
		}
		out[id] = res
	}
	return out, nil
}

func seed(dir, id string, files map[string][]byte, now time.Time) (string, error) {
	want := digest(files)
	onDisk, err := readTemplateDir(dir)
	if errors.Is(err, ErrTemplate) {
		if _, statErr := os.Lstat(dir); statErr == nil {
			return SeedDiverged, nil // something not a directory is there
		}
		return SeedCreated, writeManaged(dir, id, files, want, now)
	}
	if err != nil {
		return "", err
	}
	var m managed
	b, err := os.ReadFile(filepath.Join(dir, managedName))
	if err != nil || json.Unmarshal(b, &m) != nil || m.Digest != digest(onDisk) {
		return SeedDiverged, nil
	}
	if m.Digest == want {
		return SeedUnchanged, nil
	}
	for rel := range onDisk { // the runtime's own files: replaced whole
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return "", err
		}
	}
	return SeedRefreshed, writeManaged(dir, id, files, want, now)
}

func writeManaged(dir, id string, files map[string][]byte, sum string, now time.Time) error {
	for rel, b := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(rel)), b); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(managed{TemplateID: id, Digest: sum, WrittenAt: now.UTC()}, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, managedName), append(b, '\n'))
}

// digest identifies a set of files by path and content.
func digest(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n]))
		h.Write(files[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// defaultTemplate is holon-default as seeded in the templates directory,
// or the built-in copy when it is not there.
func defaultTemplate(cfg Config) (Template, error) {
	if cfg.TemplatesDir != "" {
		dir := filepath.Join(cfg.TemplatesDir, DefaultTemplate)
		if files, err := readTemplateDir(dir); err == nil {
			if _, ok := files[AgentsFile]; ok {
				return Template{Selector: DefaultTemplate, Kind: KindID, Source: dir, Files: files}, nil
			}
		}
	}
	files, err := builtinFiles(DefaultTemplate)
	return Template{Selector: DefaultTemplate, Kind: KindBuiltin, Source: "builtin:" + DefaultTemplate, Files: files}, err
}

// EnsureDefault gives the default agent's home its layout and, when it has
// no AGENTS.md, holon-default's; an existing AGENTS.md is never touched.
// wrote says whether it wrote AGENTS.md.
func EnsureDefault(cfg Config, home string, now time.Time) (wrote bool, err error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return false, fmt.Errorf("agent home %s: %w", home, err)
	}
	if err := EnsureLayout(home); err != nil {
		return false, err
	}
	if _, err := os.Lstat(filepath.Join(home, AgentsFile)); err == nil || !errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	t, err := defaultTemplate(cfg)
	if err != nil {
		return false, err
	}
	if err := writeNew(filepath.Join(home, AgentsFile), t.Files[AgentsFile]); err != nil {
		return false, err
	}
	return true, writeProvenance(home, Provenance{Template: t.Selector, Kind: t.Kind, Source: t.Source,
		Digest: digest(t.Files), Written: "builtin", AppliedAt: now.UTC()})
}
