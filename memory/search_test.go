package memory_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/memory"
)

// corpus mixes English, Chinese and mixed Chinese/Latin records across two workspaces and the
// agent scope.
func corpus() []memory.Doc {
	return []memory.Doc{
		doc(memory.KindEpisode, "e1", "ws-a", "migrate db", "We migrated the Postgres database to version 16 and fixed the index bloat."),
		doc(memory.KindEpisode, "e2", "ws-a", "数据库迁移", "我们把数据库迁移到了新版本，修复了索引膨胀的问题。"),
		doc(memory.KindBrief, "b1", "ws-b", "部署 Kubernetes", "在生产环境部署Kubernetes集群，使用Helm管理配置。"),
		doc(memory.KindWorkItem, "w1", "ws-b", "rollback", "Roll back the release after the canary failed its health check."),
		doc(memory.KindSelf, "self", "", "self.md", "I prefer small commits. 我喜欢小的提交。 Always run the race detector."),
		doc(memory.KindDelivery, "d1", "ws-a", "delivery", "Delivered the 搜索引擎 prototype with BM25 ranking."),
		doc(memory.KindOperator, "operator", "", "operator.md", "The operator wants weekly reports in English."),
	}
}

func TestSearchRanking(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	if err := ix.Upsert(corpus()...); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		want       string // first hit's title
		wantNone   []string
	}{
		{"english word", "postgres", "migrate db", nil},
		{"english case-insensitive", "CANARY", "rollback", nil},
		{"chinese word inside a run", "数据库", "数据库迁移", []string{"migrate db"}},
		{"chinese two chars", "迁移", "数据库迁移", nil},
		{"chinese phrase not split across words", "库迁", "数据库迁移", nil},
		{"chinese glued to latin", "部署", "部署 Kubernetes", nil},
		{"latin glued to chinese", "kubernetes", "部署 Kubernetes", nil},
		{"mixed query", "BM25 搜索引擎", "delivery", nil},
		{"agent-scoped chinese", "提交", "self.md", nil},
		{"title outranks body", "rollback", "rollback", nil},
		{"single chinese char", "膨", "数据库迁移", nil},
		{"query syntax is text", `"race" OR NEAR(`, "self.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := search(t, ix, memory.Query{Text: tt.text, AllWorkspaces: true})
			got := titles(hits)
			if len(got) == 0 || got[0] != tt.want {
				t.Fatalf("Search(%q) = %q, want %q first", tt.text, got, tt.want)
			}
			for _, n := range tt.wantNone {
				if slices.Contains(got, n) {
					t.Errorf("Search(%q) = %q, want no %q", tt.text, got, n)
				}
			}
			if hits[0].Score <= 0 {
				t.Errorf("score = %v, want > 0", hits[0].Score)
			}
		})
	}
}

func TestSearchScope(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	if err := ix.Upsert(corpus()...); err != nil {
		t.Fatal(err)
	}
	// "the" is in e1, d1 (ws-a), w1 (ws-b), self and operator (agent).
	tests := []struct {
		name string
		q    memory.Query
		want []string // sorted titles
	}{
		{"workspace a and agent", memory.Query{Text: "the", WorkspaceID: "ws-a"}, []string{"delivery", "migrate db", "operator.md", "self.md"}},
		{"workspace b and agent", memory.Query{Text: "the", WorkspaceID: "ws-b"}, []string{"operator.md", "rollback", "self.md"}},
		{"no workspace: agent only", memory.Query{Text: "the"}, []string{"operator.md", "self.md"}},
		{"all workspaces", memory.Query{Text: "the", AllWorkspaces: true}, []string{"delivery", "migrate db", "operator.md", "rollback", "self.md"}},
		{"other workspace's chinese hidden", memory.Query{Text: "部署", WorkspaceID: "ws-a"}, nil},
		{"own workspace's chinese", memory.Query{Text: "部署", WorkspaceID: "ws-b"}, []string{"部署 Kubernetes"}},
		{"kinds filter", memory.Query{Text: "the", AllWorkspaces: true, Kinds: []memory.Kind{memory.KindWorkItem, memory.KindOperator}}, []string{"operator.md", "rollback"}},
		{"unknown workspace: agent only", memory.Query{Text: "the", WorkspaceID: "nope"}, []string{"operator.md", "self.md"}},
		{"limit", memory.Query{Text: "the", AllWorkspaces: true, Limit: 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := titles(search(t, ix, tt.q))
			if tt.q.Limit == 1 {
				if len(got) != 1 {
					t.Fatalf("Search(limit 1) = %q, want one hit", got)
				}
				return
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Search(%+v) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}

func TestSearchProvenance(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	d := doc(memory.KindBrief, "b1", "ws-b", "部署 Kubernetes", "在生产环境部署Kubernetes集群，使用Helm管理配置。")
	d.SourcePath = "briefs/b1"
	d.Metadata = map[string]string{"task": "t9"}
	if err := ix.Upsert(d); err != nil {
		t.Fatal(err)
	}
	hits := search(t, ix, memory.Query{Text: "helm", WorkspaceID: "ws-b"})
	if len(hits) != 1 {
		t.Fatalf("hits = %d, want 1", len(hits))
	}
	h := hits[0]
	want := memory.Provenance{Kind: memory.KindBrief, SourceRef: h.SourceRef, ScopeKind: memory.ScopeWorkspace,
		WorkspaceID: "ws-b", AgentID: "a1", SourcePath: "briefs/b1", Title: "部署 Kubernetes", UpdatedAt: t0,
		Metadata: map[string]string{"task": "t9"}}
	if h.SourceRef == "" || h.Kind != want.Kind || h.ScopeKind != want.ScopeKind || h.WorkspaceID != want.WorkspaceID ||
		h.AgentID != want.AgentID || h.SourcePath != want.SourcePath || h.Title != want.Title ||
		!h.UpdatedAt.Equal(t0) || h.Metadata["task"] != "t9" {
		t.Fatalf("provenance = %+v, want %+v", h.Provenance, want)
	}
	if h.Snippet != d.Body {
		t.Errorf("snippet = %q, want the original body %q", h.Snippet, d.Body)
	}
}

func TestSnippetIsOriginalText(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	long := ""
	for range 40 {
		long += "填充文字。"
	}
	body := long + "关键数据库迁移步骤在这里。" + long
	if err := ix.Upsert(doc(memory.KindEpisode, "e", "", "long", body)); err != nil {
		t.Fatal(err)
	}
	hits := search(t, ix, memory.Query{Text: "迁移步骤"})
	if len(hits) != 1 {
		t.Fatalf("hits = %d, want 1", len(hits))
	}
	s := hits[0].Snippet
	if !containsAll(s, "关键数据库迁移步骤在这里", "…") || containsAll(s, "数据 据库") {
		t.Fatalf("snippet = %q, want the original text around the match, cut with …", s)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func TestSearchRefusesBadQueries(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	tests := []struct {
		name string
		q    memory.Query
		want error
	}{
		{"empty", memory.Query{Text: ""}, memory.ErrEmptyQuery},
		{"punctuation only", memory.Query{Text: " ,.;!? "}, memory.ErrEmptyQuery},
		{"negative limit", memory.Query{Text: "x", Limit: -1}, memory.ErrLimit},
		{"limit too high", memory.Query{Text: "x", Limit: memory.MaxLimit + 1}, memory.ErrLimit},
		{"unknown kind", memory.Query{Text: "x", Kinds: []memory.Kind{"notes"}}, memory.ErrKind},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ix.Search(context.Background(), tt.q)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Search(%+v) = %v, want %v", tt.q, err, tt.want)
			}
		})
	}
}

func TestUpsertReplacesAndDeleteRemoves(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	if err := ix.Upsert(doc(memory.KindWorkItem, "w1", "", "w", "first objective: bake bread")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Upsert(doc(memory.KindWorkItem, "w1", "", "w", "second objective: brew coffee")); err != nil {
		t.Fatal(err)
	}
	if got := search(t, ix, memory.Query{Text: "bread"}); len(got) != 0 {
		t.Fatalf("Search(bread) after replace = %q, want none", titles(got))
	}
	if got := search(t, ix, memory.Query{Text: "coffee"}); len(got) != 1 {
		t.Fatalf("Search(coffee) = %q, want one", titles(got))
	}
	if err := ix.Delete(memory.KindWorkItem, "w1"); err != nil {
		t.Fatal(err)
	}
	if got := search(t, ix, memory.Query{Text: "coffee"}); len(got) != 0 {
		t.Fatalf("Search(coffee) after delete = %q, want none", titles(got))
	}
}

func TestUpsertRefusesBadDocs(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	good := doc(memory.KindBrief, "ok", "", "ok", "valid record words")
	tests := []struct {
		name string
		d    memory.Doc
	}{
		{"no kind", memory.Doc{Key: "k", Body: "words"}},
		{"no key", memory.Doc{Kind: memory.KindBrief, Body: "words"}},
		{"other agent", memory.Doc{Kind: memory.KindBrief, Key: "k", AgentID: "a2", Body: "words"}},
		{"unknown scope", memory.Doc{Kind: memory.KindBrief, Key: "k", ScopeKind: "global", Body: "words"}},
		{"workspace scope without id", memory.Doc{Kind: memory.KindBrief, Key: "k", ScopeKind: memory.ScopeWorkspace, Body: "words"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ix.Upsert(good, tt.d)
			if !errors.Is(err, memory.ErrInvalidDoc) {
				t.Fatalf("Upsert = %v, want ErrInvalidDoc", err)
			}
			if got := search(t, ix, memory.Query{Text: "valid", AllWorkspaces: true}); len(got) != 0 {
				t.Fatalf("a refused batch wrote %q", titles(got))
			}
		})
	}
}
