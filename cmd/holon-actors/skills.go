package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/holon-actors/holon-actors/agenthome"
	"github.com/holon-actors/holon-actors/persistence"
)

// skillsCmd groups the skill commands.
type skillsCmd struct {
	List    skillsListCmd    `cmd:"" help:"List the skills an agent sees (user skills for the default agent only, its own, its workspace's) from their SKILL.md front matter, and the ones it activated."`
	Install skillsInstallCmd `cmd:"" help:"Install a skill (a directory with a SKILL.md, or a GitHub tree URL of one) into an agent's skills/, recording its source in skills/.skills-lock.json; the agent sees it from its next turn."`
}

type skillsListCmd struct {
	ID string `arg:"" optional:"" help:"Agent id (default: --agent, else the default agent)."`
}

// Run lists the skills.
func (s *skillsListCmd) Run(ctx context.Context, e *env) error {
	c, id, err := agentSession(ctx, e, s.ID)
	if err != nil {
		return err
	}
	defer c.Close()
	pc, ok := c.(promptDebugClient)
	if !ok {
		return errors.New("skills list is served over the control API: use the control socket or --url, not --remote")
	}
	p, err := pc.DebugPrompt(ctx, id)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, struct {
			Skills any `json:"skills"`
			Active any `json:"active_skills"`
		}{p.Skills, p.ActiveSkills})
	}
	active := map[string]string{}
	for _, a := range p.ActiveSkills {
		active[a.EntrypointPath] = a.State
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SKILL\tSCOPE\tSTATE\tDESCRIPTION\tPATH")
	for _, sk := range p.Skills {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", sk.Name, sk.Scope, orDash(active[sk.Path]), orDash(sk.Description), sk.Path)
	}
	return tw.Flush()
}

type skillsInstallCmd struct {
	Ref       string `arg:"" help:"An absolute skill directory (with a SKILL.md), or https://github.com/OWNER/REPO/tree/REF/PATH."`
	GitHubAPI string `name:"github-api" help:"Base URL of the GitHub REST API tree URLs are read through." env:"HOLON_GITHUB_API" default:"https://api.github.com" placeholder:"URL"`
	Link      bool   `help:"Link a local skill directory instead of copying it (skills/<name> is a symbolic link to it, so its edits reach the agent's next turn); the lock file records mode link."`
}

// Run installs the skill into the --agent's home.
func (s *skillsInstallCmd) Run(ctx context.Context, e *env) error {
	if e.Agent == "" {
		return usage(errors.New("skills install needs --agent ID: the agent whose skills/ gets it"))
	}
	ref := s.Ref
	if !filepath.IsAbs(ref) && !isURL(ref) {
		abs, err := filepath.Abs(ref)
		if err != nil {
			return usage(err)
		}
		ref = abs
	}
	home, err := persistence.AgentHome(e.Home, e.Agent)
	if err != nil {
		return usage(err)
	}
	if st, err := os.Stat(home); err != nil || !st.IsDir() {
		return fmt.Errorf("agent %s has no home at %s: create it first (agents create %s)", e.Agent, home, e.Agent)
	}
	skills, verb := filepath.Join(home, agenthome.SkillsDir), "installed"
	var name string
	if s.Link {
		if isURL(ref) {
			return usage(fmt.Errorf("--link needs a local skill directory, not %s: drop --link to copy it", ref))
		}
		verb = "linked"
		name, err = agenthome.LinkSkill(skills, ref, time.Now())
	} else {
		name, err = agenthome.InstallSkill(ctx, agenthome.Config{GitHubAPI: s.GitHubAPI}, skills, ref, time.Now())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s skill %s for %s from %s (in its catalog from its next turn)\n", verb, name, e.Agent, ref)
	return nil
}

func isURL(s string) bool {
	return len(s) > 8 && (s[:8] == "https://" || s[:7] == "http://")
}
