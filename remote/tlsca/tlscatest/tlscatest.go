// Package tlscatest issues the certificates of a test cluster: one CA,
// and a directory per member and client as holon-actors ca issue writes
// them.
package tlscatest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// Members makes a CA and, for each name, a member certificate for
// 127.0.0.1 in a directory of its own; with client set, also a client
// certificate of that name. It returns the directories by name.
func Members(t testing.TB, client string, names ...string) map[string]string {
	t.Helper()
	ca := t.TempDir()
	now := time.Now()
	if err := tlsca.Init(ca, now); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	issue := func(name string, req tlsca.IssueRequest) {
		req.Name, req.Out, req.Now = name, filepath.Join(t.TempDir(), name), now
		if err := tlsca.Issue(ca, req); err != nil {
			t.Fatal(err)
		}
		dirs[name] = req.Out
	}
	for _, n := range names {
		issue(n, tlsca.IssueRequest{Role: tlsca.RoleMember, Hosts: []string{"127.0.0.1"}})
	}
	if client != "" {
		issue(client, tlsca.IssueRequest{Role: tlsca.RoleClient})
	}
	return dirs
}
