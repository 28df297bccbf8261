package persistence

import (
	"path/filepath"
	"testing"
)

func TestResolveHome(t *testing.T) {
	t.Setenv("HOLON_HOME", "/srv/holon")
	t.Setenv("HOME", "/home/op")
	cases := []struct{ name, flag, env, want string }{
		{"flag wins", "/data/h", "/srv/holon", "/data/h"},
		{"env", "", "/srv/holon", "/srv/holon"},
		{"default", "", "", "/home/op/.holon"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOLON_HOME", c.env)
			got, err := ResolveHome(c.flag)
			if err != nil || got != c.want {
				t.Fatalf("ResolveHome(%q) = %q, %v, want %q", c.flag, got, err, c.want)
			}
		})
	}
}

func TestAgentHome(t *testing.T) {
	got, err := AgentHome("/h", "main")
	if want := filepath.Join("/h", "agents", "main"); err != nil || got != want {
		t.Fatalf("AgentHome = %q, %v, want %q", got, err, want)
	}
	if ArtifactsDir(got) != "/h/agents/main/.holon/artifacts" {
		t.Fatalf("ArtifactsDir = %q", ArtifactsDir(got))
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`, "a\x00"} {
		if _, err := AgentHome("/h", bad); err == nil {
			t.Errorf("AgentHome(%q) succeeded, want an error", bad)
		}
	}
}
