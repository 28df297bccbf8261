package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/holon-actors/holon-actors/agenthome"
)

// homeFlags are the flags of `run` that say where agents' home templates
// come from.
type homeFlags struct {
	AgentsDir string `name:"agents-dir" help:"The user's agents directory: templates/<id> are the templates agents create --template names (the built-in holon-default and holon-developer are seeded there at start), skills/ the user's skills. Default: ~/.agents." env:"HOLON_AGENTS_DIR" type:"path" placeholder:"DIR"`
	GitHubAPI string `name:"github-api" help:"Base URL of the GitHub REST API that GitHub tree URLs of templates and skills are read through." env:"HOLON_GITHUB_API" default:"https://api.github.com" placeholder:"URL"`
}

// config is the agenthome configuration of the flags.
func (f homeFlags) config() agenthome.Config {
	cfg := agenthome.Config{GitHubAPI: f.GitHubAPI}
	if dir := f.agentsDir(); dir != "" {
		cfg.TemplatesDir = filepath.Join(dir, "templates")
	}
	return cfg
}

// agentsDir is --agents-dir, else ~/.agents ("" without a home
// directory: no templates directory, no user skills).
func (f homeFlags) agentsDir() string {
	if f.AgentsDir != "" {
		return f.AgentsDir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".agents")
}

// homeSpec are the flags of `agents create` that make the agent's home.
type homeSpec struct {
	Template     string `help:"Make the agent's home from a template: an id under the runtime's agents directory (templates/<id>, e.g. holon-developer), an absolute directory with an AGENTS.md, or https://github.com/OWNER/REPO/tree/REF/PATH. A template that cannot be read fails the create with nothing made. Default: holon-default." placeholder:"TEMPLATE"`
	Instructions string `help:"The agent's own instructions, its AGENTS.md (over the template's): the text, or @FILE to read it from a file." placeholder:"TEXT|@FILE"`
}

// instructions is the AGENTS.md text the flag gives, read from its file
// for @FILE.
func (h homeSpec) instructions() (string, error) {
	file, ok := strings.CutPrefix(h.Instructions, "@")
	if !ok {
		return h.Instructions, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", usage(fmt.Errorf("--instructions @%s: %w: give a readable file, or the text itself", file, err))
	}
	if len(b) == 0 {
		return "", usage(fmt.Errorf("--instructions @%s: the file is empty", file))
	}
	return string(b), nil
}
