package agentstate

import (
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestWorktreeList(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"none", "", nil},
		{"main only", "worktree /src/shop\nHEAD 1234\nbranch refs/heads/main\n\n", []string{"/src/shop"}},
		{"linked, detached and locked", "worktree /src/shop\nHEAD 1234\nbranch refs/heads/main\n\n" +
			"worktree /wt/fix\nHEAD 5678\ndetached\n\nworktree /wt/old\nHEAD 9abc\nbranch refs/heads/old\nlocked\n\n",
			[]string{"/src/shop", "/wt/fix", "/wt/old"}},
		{"a path with spaces", "worktree /wt/my fix\r\nHEAD 1\r\n", []string{"/wt/my fix"}},
		{"bare repository", "worktree /src/shop.git\nbare\n\n", []string{"/src/shop.git"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WorktreeList(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("WorktreeList = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAdoptedWorktree(t *testing.T) {
	shop := messages.WorkspaceAttached{WorkspaceID: "shop-1", Anchor: "/src/shop", Path: "/src/shop/svc"}
	notes := messages.WorkspaceAttached{WorkspaceID: "notes-2", Anchor: "/src/notes", Path: "/src/notes"}
	lists := map[string][]string{"/src/shop": {"/src/shop", "/wt/fix"}, "/src/notes": {"/src/notes"}}
	for _, tc := range []struct {
		name     string
		attached []messages.WorkspaceAttached
		anchor   string
		want     string // "" for no adoption
	}{
		{"a worktree of an attached repository", []messages.WorkspaceAttached{notes, shop}, "/wt/fix", "shop-1"},
		{"the attached repository itself", []messages.WorkspaceAttached{shop}, "/src/shop", ""},
		{"a worktree of a repository not attached", []messages.WorkspaceAttached{notes}, "/wt/fix", ""},
		{"no worktree of any repository", []messages.WorkspaceAttached{shop, notes}, "/wt/other", ""},
		{"nothing attached", nil, "/wt/fix", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := AdoptedWorktree(tc.attached, tc.anchor, lists)
			if ok != (tc.want != "") || got.WorkspaceID != tc.want {
				t.Errorf("AdoptedWorktree(%s) = %+v, %v; want %q", tc.anchor, got, ok, tc.want)
			}
			if ok && got.Anchor != shop.Anchor {
				t.Errorf("adopted anchor %s, want the repository's %s", got.Anchor, shop.Anchor)
			}
		})
	}
}

func TestAdoptionGuidance(t *testing.T) {
	for _, tc := range []struct {
		name string
		use  WorkspaceUse
		want []string // substrings; nil for no guidance
	}{
		{"adopted, direct", WorkspaceUse{AdoptedWorktree: "/wt/fix", Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: messages.WorkspaceDirect}},
			[]string{"/wt/fix", "external execution root", `workspace_id "shop-1"`, `mode "isolated"`}},
		{"adopted path, isolated", WorkspaceUse{AdoptedWorktree: "/wt/fix", Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: messages.WorkspaceIsolated}}, nil},
		{"a plain directory", WorkspaceUse{Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: messages.WorkspaceDirect}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AdoptionGuidance(tc.use)
			if (got == "") != (tc.want == nil) {
				t.Fatalf("AdoptionGuidance = %q, want guidance: %v", got, tc.want != nil)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("AdoptionGuidance = %q, missing %q", got, w)
				}
			}
		})
	}
}
