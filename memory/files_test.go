package memory_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/memory"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCheckFilesPicksUpExternalEdits(t *testing.T) {
	h := home(t)
	self := filepath.Join(h, "memory", "self.md")
	writeFile(t, self, "# Self\nI keep notes about 向量数据库 and otters.\n")
	ix := open(t, h, "a1", memory.FileSource(h, "a1"))

	hits := search(t, ix, memory.Query{Text: "otters"})
	if got := titles(hits); !slices.Equal(got, []string{"self.md"}) || hits[0].Kind != memory.KindSelf ||
		hits[0].SourcePath != "memory/self.md" || hits[0].ScopeKind != memory.ScopeAgent {
		t.Fatalf("Search(otters) = %+v", hits)
	}
	if changed, err := ix.CheckFiles(h); err != nil || changed {
		t.Fatalf("CheckFiles before an edit = %v, %v; want false", changed, err)
	}

	steps := []struct {
		name        string
		edit        func()
		changed     bool
		query, want string // want "" means no hit
	}{
		{"edited outside the runtime", func() { writeFile(t, self, "# Self\nNow I study 深度学习 and badgers.\n") }, true, "badgers", "self.md"},
		{"old text gone", func() {}, false, "otters", ""},
		{"chinese of the edit", func() {}, false, "深度学习", "self.md"},
		{"operator file created", func() { writeFile(t, filepath.Join(h, "memory", "operator.md"), "Operator likes haiku.") }, true, "haiku", "operator.md"},
		{"self deleted", func() { _ = os.Remove(self) }, true, "badgers", ""},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.edit()
			changed, err := ix.CheckFiles(h)
			if err != nil || changed != st.changed {
				t.Fatalf("CheckFiles = %v, %v; want %v", changed, err, st.changed)
			}
			got := titles(search(t, ix, memory.Query{Text: st.query}))
			want := []string{}
			if st.want != "" {
				want = []string{st.want}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("Search(%q) = %q, want %q", st.query, got, want)
			}
		})
	}
}

func TestCheckFilesExactBody(t *testing.T) {
	h := home(t)
	text := "line one\r\n  中文 mixed\ttabs\n"
	writeFile(t, filepath.Join(h, "memory", "self.md"), text)
	ix := open(t, h, "a1", nil)
	if changed, err := ix.CheckFiles(h); err != nil || !changed {
		t.Fatalf("CheckFiles on a new index = %v, %v; want true", changed, err)
	}
	got, err := ix.Get(refOf(t, ix, "中文"), 0)
	if err != nil || got.Content != text {
		t.Fatalf("Get(self) = %q, %v; want the file's exact text", got.Content, err)
	}
}
