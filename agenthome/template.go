package agenthome

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// DefaultGitHubAPI is the GitHub REST API that GitHub tree URLs are read
// through unless Config.GitHubAPI says otherwise.
const DefaultGitHubAPI = "https://api.github.com"

// Template kinds: how a selector named its template.
const (
	KindID      = "id"
	KindDir     = "dir"
	KindGitHub  = "github"
	KindBuiltin = "builtin"
)

// Bounds of one template or skill read.
const (
	maxTemplateFiles = 1000
	maxTemplateBytes = 16 << 20
	maxTemplateDepth = 8
)

// managedName is the file in a built-in template's directory recording
// the digest of the last version the runtime wrote there; names starting
// with ".holon" are never part of a template.
const managedName = ".holon-managed.json"

// Config says where templates come from.
type Config struct {
	// TemplatesDir is where template ids resolve and the built-in
	// templates are seeded (~/.agents/templates).
	TemplatesDir string
	// GitHubAPI is the base URL GitHub tree URLs are read through; ""
	// means DefaultGitHubAPI.
	GitHubAPI string
	// Client fetches remote templates and skills; nil means a client with
	// a 30s timeout.
	Client *http.Client
}

func (c Config) client() *http.Client {
	if c.Client != nil {
		return c.Client
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (c Config) api() string {
	if c.GitHubAPI != "" {
		return strings.TrimRight(c.GitHubAPI, "/")
	}
	return DefaultGitHubAPI
}

// Template is a resolved template: its files by slash-separated relative
// path, and where they came from.
type Template struct {
	// Selector is what was asked for.
	Selector string
	// Kind is KindID, KindDir, KindGitHub or KindBuiltin.
	Kind string
	// Source is the directory or URL the files were read from.
	Source string
	// Files are the template's files; AGENTS.md is always there.
	Files map[string][]byte
}

// skillsFile is a template's optional skills.json.
type skillsFile struct {
	SkillRefs []string `json:"skill_refs"`
}

var templateID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Resolve reads the template selector names: a template id under
// cfg.TemplatesDir, an absolute directory, or a GitHub tree URL
// (https://github.com/OWNER/REPO/tree/REF/PATH). It fails with ErrTemplate
// for a selector of none of these forms or a template without AGENTS.md,
// and with ErrUnreachable when a remote one cannot be fetched.
func Resolve(ctx context.Context, cfg Config, selector string) (Template, error) {
	t := Template{Selector: selector}
	var err error
	switch {
	case strings.HasPrefix(selector, "https://") || strings.HasPrefix(selector, "http://"):
		t.Kind, t.Source = KindGitHub, selector
		var g githubRef
		if g, err = parseGitHubTree(selector); err == nil {
			t.Files, err = fetchGitHubDir(ctx, cfg, g)
		}
	case filepath.IsAbs(selector):
		t.Kind, t.Source = KindDir, filepath.Clean(selector)
		t.Files, err = readTemplateDir(t.Source)
	case templateID.MatchString(selector):
		t.Kind, t.Source = KindID, filepath.Join(cfg.TemplatesDir, selector)
		if cfg.TemplatesDir == "" {
			return t, fmt.Errorf("template %q: %w: no templates directory is configured", selector, ErrTemplate)
		}
		t.Files, err = readTemplateDir(t.Source)
	default:
		return t, fmt.Errorf("template %q: %w: give a template id (a directory under %s), an absolute directory, or https://github.com/OWNER/REPO/tree/REF/PATH",
			selector, ErrTemplate, cfg.TemplatesDir)
	}
	if err != nil {
		return t, fmt.Errorf("template %q: %w", selector, err)
	}
	if _, ok := t.Files[AgentsFile]; !ok {
		return t, fmt.Errorf("template %q: %w: %s has no %s", selector, ErrTemplate, t.Source, AgentsFile)
	}
	if _, err := t.skillRefs(); err != nil {
		return t, fmt.Errorf("template %q: %w", selector, err)
	}
	return t, nil
}

// skillRefs are the template's skills.json skill_refs.
func (t Template) skillRefs() ([]string, error) {
	raw, ok := t.Files[skillsJSON]
	if !ok {
		return nil, nil
	}
	var sf skillsFile
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sf); err != nil {
		return nil, fmt.Errorf("%w: skills.json: %v (want {\"skill_refs\": [\"/abs/skill-dir\", \"https://github.com/OWNER/REPO/tree/REF/PATH\"]})", ErrTemplate, err)
	}
	return sf.SkillRefs, nil
}

// readTemplateDir reads every regular file under dir (bounded), leaving
// out the runtime's own .holon* names; a missing dir is ErrTemplate.
func readTemplateDir(dir string) (map[string][]byte, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrTemplate, dir)
	}
	files, total := map[string][]byte{}, 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && strings.HasPrefix(d.Name(), ".holon") || d.IsDir() && d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; links and devices are never copied
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		total += len(b)
		if len(files) >= maxTemplateFiles || total > maxTemplateBytes {
			return fmt.Errorf("%w: %s is larger than %d files or %d bytes", ErrTemplate, dir, maxTemplateFiles, maxTemplateBytes)
		}
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	return files, nil
}

// githubRef is a parsed GitHub tree URL.
type githubRef struct {
	Owner, Repo, Ref, Path string
}

// parseGitHubTree parses https://github.com/OWNER/REPO/tree/REF/PATH.
func parseGitHubTree(u string) (githubRef, error) {
	rest, ok := strings.CutPrefix(u, "https://github.com/")
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	if !ok || len(parts) < 4 || parts[2] != "tree" || parts[0] == "" || parts[1] == "" || parts[3] == "" {
		return githubRef{}, fmt.Errorf("%w: %s is not a GitHub tree URL: give https://github.com/OWNER/REPO/tree/REF/PATH", ErrTemplate, u)
	}
	g := githubRef{Owner: parts[0], Repo: parts[1], Ref: parts[3], Path: strings.Join(parts[4:], "/")}
	for _, p := range parts {
		if p == ".." || p == "." {
			return githubRef{}, fmt.Errorf("%w: %s has a '.' or '..' element", ErrTemplate, u)
		}
	}
	return g, nil
}

// contentEntry is one entry of the GitHub contents API's answer.
type contentEntry struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// fetchGitHubDir reads the directory g names, recursively (bounded),
// through the GitHub contents API.
func fetchGitHubDir(ctx context.Context, cfg Config, g githubRef) (map[string][]byte, error) {
	files, total := map[string][]byte{}, 0
	var walk func(dir, prefix string, depth int) error
	walk = func(dir, prefix string, depth int) error {
		if depth > maxTemplateDepth {
			return fmt.Errorf("%w: %s is nested deeper than %d directories", ErrTemplate, g.Path, maxTemplateDepth)
		}
		var entries []contentEntry
		if err := getContents(ctx, cfg, g, dir, &entries); err != nil {
			return err
		}
		for _, e := range entries {
			if e.Name == "" || e.Name == "." || e.Name == ".." || strings.ContainsAny(e.Name, `/\`) || strings.HasPrefix(e.Name, ".holon") {
				continue
			}
			rel := path.Join(prefix, e.Name)
			switch e.Type {
			case "dir":
				if err := walk(path.Join(dir, e.Name), rel, depth+1); err != nil {
					return err
				}
			case "file":
				var f contentEntry
				if err := getContents(ctx, cfg, g, path.Join(dir, e.Name), &f); err != nil {
					return err
				}
				b, err := decodeContent(f)
				if err != nil {
					return fmt.Errorf("%w: %s: %v", ErrUnreachable, rel, err)
				}
				total += len(b)
				if len(files) >= maxTemplateFiles || total > maxTemplateBytes {
					return fmt.Errorf("%w: larger than %d files or %d bytes", ErrTemplate, maxTemplateFiles, maxTemplateBytes)
				}
				files[rel] = b
			}
		}
		return nil
	}
	if err := walk(g.Path, "", 0); err != nil {
		return nil, err
	}
	return files, nil
}
