package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/agenthome"
)

// BenchmarkPromptRead is what a turn reads before its first model request
// (refreshGuidance, off the actor): the agent's and the workspace's
// AGENTS.md (4 KiB each) and the skills catalog of the user, agent and
// workspace scopes (skills per scope, each SKILL.md's front matter), on
// the real file system. The README quotes its figures.
func BenchmarkPromptRead(b *testing.B) {
	for _, perScope := range []int{0, 10, 50} {
		b.Run(fmt.Sprintf("skills=%d", 3*perScope), func(b *testing.B) {
			root := b.TempDir()
			agentsDir := filepath.Join(root, "user", "agents")
			home := filepath.Join(agentsDir, "main")
			anchor := filepath.Join(root, "repo")
			instructions := strings.Repeat("Run the tests before you commit; keep commits small.\n", 4<<10/52)
			writeBenchFile(b, filepath.Join(home, "AGENTS.md"), instructions)
			writeBenchFile(b, filepath.Join(anchor, "AGENTS.md"), instructions)
			for i := range perScope {
				for _, dir := range []string{filepath.Join(agentsDir, "skills"), filepath.Join(home, agenthome.SkillsDir),
					filepath.Join(anchor, ".agents", "skills")} {
					writeBenchFile(b, filepath.Join(dir, fmt.Sprintf("skill-%d", i), "SKILL.md"), fmt.Sprintf(
						"---\nname: skill-%d\ndescription: Deploy the service %d to staging, then check its health.\n---\n%s", i, i,
						strings.Repeat("Step by step instructions.\n", 200)))
				}
			}
			scopes := []string{agenthome.SkillScopeUser, agenthome.SkillScopeAgent, agenthome.SkillScopeWorkspace}
			b.ReportAllocs()
			for b.Loop() {
				g, err := readGuidance(home, anchor)
				if err != nil || g.Agent == nil || g.Workspace == nil {
					b.Fatalf("readGuidance = %+v, %v", g, err)
				}
				if got := discoverSkills(agentsDir, home, anchor, scopes); len(got) != 3*perScope {
					b.Fatalf("%d skills, want %d", len(got), 3*perScope)
				}
			}
		})
	}
}

func writeBenchFile(b *testing.B, path, text string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}
