package agentstate

import (
	"errors"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
)

// Workspace decisions' errors.
var (
	// ErrUnknownWorkspace is returned for a workspace id not in the
	// agent's attached set.
	ErrUnknownWorkspace = errors.New("agentstate: no such attached workspace")
	// ErrActiveWorkspace is returned by DetachWorkspace for the active
	// workspace.
	ErrActiveWorkspace = errors.New("agentstate: workspace is active")
	// ErrWorkspaceRequest is returned for a request that names neither or
	// both of a path and a workspace id, or an unknown mode.
	ErrWorkspaceRequest = errors.New("agentstate: bad workspace request")
)

// applyWorkspaceEvent applies the workspace events; false for any other.
func (s *State) applyWorkspaceEvent(p messages.Payload) bool {
	switch p := p.(type) {
	case messages.WorkspaceAttached:
		if i := s.attachedIndex(p.WorkspaceID); i >= 0 {
			s.Workspaces[i] = p
		} else {
			s.Workspaces = append(s.Workspaces, p)
		}
	case messages.WorkspaceUsed:
		if p.WorkspaceID == messages.AgentHomeWorkspace {
			s.ActiveWorkspace = nil
		} else {
			s.ActiveWorkspace = &p
		}
	case messages.WorkspaceDetached:
		if i := s.attachedIndex(p.WorkspaceID); i >= 0 {
			s.Workspaces = slices.Delete(slices.Clone(s.Workspaces), i, i+1)
		}
	default:
		return false
	}
	return true
}

func (s *State) attachedIndex(id string) int {
	return slices.IndexFunc(s.Workspaces, func(w messages.WorkspaceAttached) bool { return w.WorkspaceID == id })
}

// Attached is the attached workspace id names; ok is false when it is not
// attached.
func (s *State) Attached(id string) (messages.WorkspaceAttached, bool) {
	if i := s.attachedIndex(id); i >= 0 {
		return s.Workspaces[i], true
	}
	return messages.WorkspaceAttached{}, false
}

// ActiveWorkspaceID is the active workspace's id: AgentHomeWorkspace when
// the agent works in its home.
func (s *State) ActiveWorkspaceID() string {
	if s.ActiveWorkspace == nil {
		return messages.AgentHomeWorkspace
	}
	return s.ActiveWorkspace.WorkspaceID
}

// WorkspaceUse is a resolved request to make a workspace active: the
// shell found the path's anchor (and made the worktree of isolated mode)
// before asking.
type WorkspaceUse struct {
	// Attach, when set, is the workspace a path resolved to, attached
	// now unless it already is.
	Attach *messages.WorkspaceAttached
	// Use is the entry to make active.
	Use messages.WorkspaceUsed
	// AdoptedWorktree, when set, is the existing git worktree (not made
	// by the runtime) of an attached repository the path lies in; Attach
	// is then that repository's entry (AdoptedWorktree).
	AdoptedWorktree string
}

// UseWorkspace decides a workspace switch: attach (when new) and use. It
// fails with ErrUnknownWorkspace for an id not attached and with
// ErrWorkspaceRequest for an unknown mode; nothing is decided then.
func UseWorkspace(st *State, u WorkspaceUse) (Batch, error) {
	switch u.Use.Mode {
	case messages.WorkspaceDirect, messages.WorkspaceIsolated:
	default:
		return nil, fmt.Errorf("%w: mode %q: use direct or isolated", ErrWorkspaceRequest, u.Use.Mode)
	}
	var b Batch
	if u.Attach != nil {
		if cur, ok := st.Attached(u.Attach.WorkspaceID); !ok || cur.Anchor != u.Attach.Anchor {
			b = append(b, *u.Attach)
		}
	} else if id := u.Use.WorkspaceID; id != messages.AgentHomeWorkspace {
		if _, ok := st.Attached(id); !ok {
			return nil, fmt.Errorf("%w: %q (attached: %s)", ErrUnknownWorkspace, id, attachedIDs(st))
		}
	}
	return append(b, u.Use), nil
}

// DetachWorkspace decides removing id from the attached set. The active
// workspace and the agent's home cannot be detached; nothing on disk is
// ever touched.
func DetachWorkspace(st *State, id string) (Batch, error) {
	switch {
	case id == messages.AgentHomeWorkspace:
		return nil, fmt.Errorf("%w: %s is every agent's fallback workspace and cannot be detached", ErrWorkspaceRequest, id)
	case id == st.ActiveWorkspaceID():
		return nil, fmt.Errorf("%w: %s: switch to another workspace first (agents workspace use --id %s returns to the agent's home)",
			ErrActiveWorkspace, id, messages.AgentHomeWorkspace)
	}
	if _, ok := st.Attached(id); !ok {
		return nil, fmt.Errorf("%w: %q (attached: %s)", ErrUnknownWorkspace, id, attachedIDs(st))
	}
	return Batch{messages.WorkspaceDetached{WorkspaceID: id}}, nil
}

// InheritedWorkspaces are the events giving a new public agent created by
// this one the attached set (never the active entry).
func InheritedWorkspaces(st *State, creator string) Batch {
	var b Batch
	for _, w := range st.Workspaces {
		w.InheritedFrom = creator
		b = append(b, w)
	}
	return b
}

func attachedIDs(st *State) string {
	ids := []string{messages.AgentHomeWorkspace}
	for _, w := range st.Workspaces {
		ids = append(ids, w.WorkspaceID)
	}
	return fmt.Sprint(ids)
}
