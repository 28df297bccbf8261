package agenthome_test

import (
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/agenthome"
)

func TestSeedBuiltins(t *testing.T) {
	dir := t.TempDir()
	res, err := agenthome.SeedBuiltins(dir, now)
	if err != nil || res[agenthome.DefaultTemplate] != agenthome.SeedCreated || res[agenthome.DeveloperTemplate] != agenthome.SeedCreated {
		t.Fatalf("first seed = %v, %v; want both created", res, err)
	}
	if res, _ := agenthome.SeedBuiltins(dir, now); res[agenthome.DefaultTemplate] != agenthome.SeedUnchanged {
		t.Fatalf("second seed = %v, want unchanged", res)
	}
	dev := filepath.Join(dir, agenthome.DeveloperTemplate, "AGENTS.md")
	write(t, dev, "my edit\n")
	if res, _ := agenthome.SeedBuiltins(dir, now); res[agenthome.DeveloperTemplate] != agenthome.SeedDiverged {
		t.Fatalf("seed over a local edit = %v, want diverged", res)
	}
	if got := read(t, dev); got != "my edit\n" {
		t.Errorf("AGENTS.md = %q, want the local edit kept", got)
	}
}

func TestEnsureDefaultNeverOverwrites(t *testing.T) {
	templates := t.TempDir()
	if _, err := agenthome.SeedBuiltins(templates, now); err != nil {
		t.Fatal(err)
	}
	cfg := agenthome.Config{TemplatesDir: templates}
	fresh := filepath.Join(t.TempDir(), "main")
	if wrote, err := agenthome.EnsureDefault(cfg, fresh, now); err != nil || !wrote {
		t.Fatalf("EnsureDefault(fresh) = %t, %v; want it written", wrote, err)
	}
	if got, want := read(t, filepath.Join(fresh, "AGENTS.md")), read(t, filepath.Join(templates, agenthome.DefaultTemplate, "AGENTS.md")); got != want {
		t.Errorf("AGENTS.md = %q, want holon-default's", got)
	}
	read(t, filepath.Join(fresh, "memory", "self.md"))
	own := filepath.Join(t.TempDir(), "main")
	write(t, filepath.Join(own, "AGENTS.md"), "my own\n")
	if wrote, err := agenthome.EnsureDefault(cfg, own, now); err != nil || wrote {
		t.Fatalf("EnsureDefault(own) = %t, %v; want nothing written", wrote, err)
	}
	if got := read(t, filepath.Join(own, "AGENTS.md")); got != "my own\n" {
		t.Errorf("AGENTS.md = %q, want it untouched", got)
	}
}
