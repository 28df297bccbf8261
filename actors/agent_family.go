package actors

import (
	"context"
	"fmt"
)

// familyMember is an agent of a family: an agent and its private
// children, theirs, and so on.
type familyMember struct {
	id, parent string
}

// family returns id and every private descendant it supervises or
// supervised, the root first and each parent before its children, from
// the identities their journals open with.
func (r *Runtime) family(ctx context.Context, id string) ([]familyMember, error) {
	streams, err := r.deps.Store.Streams(ctx)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	kids := map[string][]string{}
	for _, s := range streams {
		if s == id || checkAgentPath(s) != nil || r.deleted.has(ctx, r, s) {
			continue
		}
		if p := r.parentOf(s); p != "" {
			kids[p] = append(kids[p], s)
		}
	}
	out := []familyMember{{id: id}}
	seen := map[string]bool{id: true}
	for i := 0; i < len(out); i++ {
		for _, k := range kids[out[i].id] {
			if !seen[k] { // a cycle of parents in a damaged journal ends here
				seen[k] = true
				out = append(out, familyMember{id: k, parent: out[i].id})
			}
		}
	}
	return out, nil
}

// ids lists the members' ids.
func ids(fam []familyMember) []string {
	out := make([]string, len(fam))
	for i, f := range fam {
		out[i] = f.id
	}
	return out
}
