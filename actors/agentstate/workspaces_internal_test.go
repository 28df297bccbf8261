package agentstate

import (
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func applyWorkspaces(t *testing.T, st *State, b Batch) {
	t.Helper()
	for _, p := range b {
		if !st.applyWorkspaceEvent(p) {
			t.Fatalf("not a workspace event: %T", p)
		}
	}
}

func TestWorkspaceDecisions(t *testing.T) {
	shop := messages.WorkspaceAttached{WorkspaceID: "shop-1", Anchor: "/src/shop", Path: "/src/shop"}
	blog := messages.WorkspaceAttached{WorkspaceID: "blog-2", Anchor: "/src/blog", Path: "/src/blog/web"}
	st := &State{}
	if st.ActiveWorkspaceID() != messages.AgentHomeWorkspace {
		t.Fatalf("a new agent works in %s, want its home", st.ActiveWorkspaceID())
	}
	steps := []struct {
		name       string
		decide     func() (Batch, error)
		wantErr    error
		wantEvents int
		active     string
		attached   int
	}{
		{"attach and use a path", func() (Batch, error) {
			return UseWorkspace(st, WorkspaceUse{Attach: &shop, Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: "direct", ExecutionRoot: "/src/shop"}})
		}, nil, 2, "shop-1", 1},
		{"the same path again attaches nothing new", func() (Batch, error) {
			return UseWorkspace(st, WorkspaceUse{Attach: &shop, Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: "direct", ExecutionRoot: "/src/shop"}})
		}, nil, 1, "shop-1", 1},
		{"a second workspace", func() (Batch, error) {
			return UseWorkspace(st, WorkspaceUse{Attach: &blog, Use: messages.WorkspaceUsed{WorkspaceID: "blog-2", Mode: "isolated", ExecutionRoot: "/wt/blog"}})
		}, nil, 2, "blog-2", 2},
		{"an unknown id", func() (Batch, error) {
			return UseWorkspace(st, WorkspaceUse{Use: messages.WorkspaceUsed{WorkspaceID: "nope", Mode: "direct"}})
		}, ErrUnknownWorkspace, 0, "blog-2", 2},
		{"a bad mode", func() (Batch, error) {
			return UseWorkspace(st, WorkspaceUse{Use: messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: "sideways"}})
		}, ErrWorkspaceRequest, 0, "blog-2", 2},
		{"detach the active one: refused", func() (Batch, error) { return DetachWorkspace(st, "blog-2") }, ErrActiveWorkspace, 0, "blog-2", 2},
		{"detach the home: refused", func() (Batch, error) { return DetachWorkspace(st, messages.AgentHomeWorkspace) }, ErrWorkspaceRequest, 0, "blog-2", 2},
		{"detach an inactive one", func() (Batch, error) { return DetachWorkspace(st, "shop-1") }, nil, 1, "blog-2", 1},
		{"detach it again: unknown", func() (Batch, error) { return DetachWorkspace(st, "shop-1") }, ErrUnknownWorkspace, 0, "blog-2", 1},
		{"back to the home by id", func() (Batch, error) {
			return UseWorkspace(st, WorkspaceUse{Use: messages.WorkspaceUsed{WorkspaceID: messages.AgentHomeWorkspace, Mode: "direct"}})
		}, nil, 1, messages.AgentHomeWorkspace, 1},
		{"now blog can go", func() (Batch, error) { return DetachWorkspace(st, "blog-2") }, nil, 1, messages.AgentHomeWorkspace, 0},
	}
	for _, s := range steps {
		b, err := s.decide()
		if !errors.Is(err, s.wantErr) || len(b) != s.wantEvents {
			t.Fatalf("%s: %d events, %v; want %d, %v", s.name, len(b), err, s.wantEvents, s.wantErr)
		}
		applyWorkspaces(t, st, b)
		if st.ActiveWorkspaceID() != s.active || len(st.Workspaces) != s.attached {
			t.Fatalf("%s: active %s with %d attached, want %s with %d", s.name, st.ActiveWorkspaceID(), len(st.Workspaces), s.active, s.attached)
		}
	}
}

// A new public agent inherits the attached set, never the active entry.
func TestInheritedWorkspaces(t *testing.T) {
	st := &State{}
	shop := messages.WorkspaceAttached{WorkspaceID: "shop-1", Anchor: "/src/shop", Path: "/src/shop"}
	applyWorkspaces(t, st, Batch{shop, messages.WorkspaceUsed{WorkspaceID: "shop-1", Mode: "direct", ExecutionRoot: "/src/shop"}})
	child := &State{}
	b := InheritedWorkspaces(st, "main")
	applyWorkspaces(t, child, b)
	if len(child.Workspaces) != 1 || child.Workspaces[0].InheritedFrom != "main" || child.ActiveWorkspaceID() != messages.AgentHomeWorkspace {
		t.Fatalf("child: attached %+v, active %s; want shop inherited from main, active agent_home", child.Workspaces, child.ActiveWorkspaceID())
	}
}
