package agenthome_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path"
	"sort"
	"strings"
	"testing"
)

// fakeGitHub serves files (repo-relative paths) of owner/repo at ref
// through the GitHub contents API's wire format: a directory is a JSON
// array of {type, name, path}, a file {type, encoding: base64, content}.
func fakeGitHub(t *testing.T, owner, repo, ref string, files map[string]string) *httptest.Server {
	t.Helper()
	prefix := "/repos/" + owner + "/" + repo + "/contents/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok || r.URL.Query().Get("ref") != ref {
			http.NotFound(w, r)
			return
		}
		p = strings.Trim(p, "/")
		if body, ok := files[p]; ok {
			json.NewEncoder(w).Encode(map[string]string{"type": "file", "name": path.Base(p), "path": p,
				"encoding": "base64", "content": base64.StdEncoding.EncodeToString([]byte(body))})
			return
		}
		seen := map[string]string{}
		for f := range files {
			rest, ok := strings.CutPrefix(f, p+"/")
			if !ok {
				continue
			}
			name, _, isDir := strings.Cut(rest, "/")
			seen[name] = map[bool]string{true: "dir", false: "file"}[isDir]
		}
		if len(seen) == 0 {
			http.NotFound(w, r)
			return
		}
		var list []map[string]string
		for name, typ := range seen {
			list = append(list, map[string]string{"type": typ, "name": name, "path": path.Join(p, name)})
		}
		sort.Slice(list, func(i, j int) bool { return list[i]["name"] < list[j]["name"] })
		json.NewEncoder(w).Encode(list)
	}))
	t.Cleanup(srv.Close)
	return srv
}
