package memory_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/memory"
)

// refOf searches text and returns the first hit's source_ref.
func refOf(t *testing.T, ix *memory.Index, text string) string {
	t.Helper()
	hits := search(t, ix, memory.Query{Text: text, AllWorkspaces: true})
	if len(hits) == 0 {
		t.Fatalf("Search(%q) found nothing", text)
	}
	return hits[0].SourceRef
}

func TestGetReturnsExactText(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	body := "数据库迁移 done：用 Go 写的 indexer，\n\tспасибо  —  ✓ 𝄞 trailing spaces   "
	if err := ix.Upsert(doc(memory.KindEpisode, "e1", "ws-a", "迁移", body)); err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, ix, "数据库")
	runes := []rune(body)
	tests := []struct {
		name      string
		max       int
		want      string
		truncated bool
	}{
		{"default bound", 0, body, false},
		{"exact length", len(runes), body, false},
		{"one char", 1, "数", true},
		{"cut inside CJK", 3, "数据库", true},
		{"cut at astral char", len(runes) - 3, string(runes[:len(runes)-3]), true},
		{"hard max", memory.HardMaxChars, body, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ix.Get(ref, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if got.Content != tt.want || got.Truncated != tt.truncated {
				t.Fatalf("Get(%d) = %q truncated %v, want %q truncated %v", tt.max, got.Content, got.Truncated, tt.want, tt.truncated)
			}
			if strings.Contains(got.Content, "数据 据库") || strings.Contains(got.Content, "据库") && !strings.Contains(body, got.Content) {
				t.Fatalf("Get returned expansion tokens: %q", got.Content)
			}
			if got.SourceRef != ref || got.Kind != memory.KindEpisode || got.WorkspaceID != "ws-a" || got.AgentID != "a1" {
				t.Fatalf("provenance = %+v", got.Provenance)
			}
		})
	}
}

func TestGetDefaultBound(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	body := "needle " + strings.Repeat("字", 60000)
	if err := ix.Upsert(doc(memory.KindEpisode, "e1", "", "big", body)); err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, ix, "needle")
	for _, tt := range []struct {
		max, want int
	}{{0, memory.DefaultMaxChars}, {memory.HardMaxChars, memory.HardMaxChars}, {20000, 20000}} {
		got, err := ix.Get(ref, tt.max)
		if err != nil {
			t.Fatal(err)
		}
		if n := len([]rune(got.Content)); n != tt.want || !got.Truncated {
			t.Errorf("Get(%d) = %d chars truncated %v, want %d truncated", tt.max, n, got.Truncated, tt.want)
		}
	}
}

func TestGetRefusesBadMaxChars(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	if err := ix.Upsert(doc(memory.KindEpisode, "e1", "", "t", "words here")); err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, ix, "words")
	for _, n := range []int{-1, memory.HardMaxChars + 1, 1 << 30} {
		_, err := ix.Get(ref, n)
		if !errors.Is(err, memory.ErrMaxChars) || !strings.Contains(err.Error(), "between 1 and 50000") {
			t.Errorf("Get(max %d) = %v, want ErrMaxChars naming the range", n, err)
		}
	}
}

func TestGetRefusesForeignRefs(t *testing.T) {
	h := home(t)
	ix := open(t, h, "a1", nil)
	if err := ix.Upsert(doc(memory.KindEpisode, "e1", "", "mine", "secret plan alpha"),
		doc(memory.KindEpisode, "e2", "", "other", "another plan beta")); err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, ix, "alpha")
	other := refOf(t, ix, "beta")

	// An agent in another home, with its own secret, holding a record of the same kind and key.
	ix2 := open(t, home(t), "a2", nil)
	d := doc(memory.KindEpisode, "e1", "", "theirs", "their plan gamma")
	d.AgentID = "a2"
	if err := ix2.Upsert(d); err != nil {
		t.Fatal(err)
	}
	theirs := refOf(t, ix2, "gamma")

	payload, mac, _ := strings.Cut(strings.TrimPrefix(ref, "mem1."), ".")
	_, otherMAC, _ := strings.Cut(strings.TrimPrefix(other, "mem1."), ".")
	flip := []byte(mac)
	flip[0] ^= 1
	tests := []struct{ name, ref string }{
		{"empty", ""},
		{"path", "memory/self.md"},
		{"made up", "mem1.ZXBpc29kZQBlMQ.AAAAAAAAAAAAAAAAAAAAAA"},
		{"altered mac", "mem1." + payload + "." + string(flip)},
		{"mac of another record", "mem1." + payload + "." + otherMAC},
		{"altered payload", "mem1." + payload + "A." + mac},
		{"other agent's ref", theirs},
		{"no version", strings.TrimPrefix(ref, "mem1.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ix.Get(tt.ref, 0)
			if !errors.Is(err, memory.ErrBadRef) {
				t.Fatalf("Get(%q) = %+v, %v; want ErrBadRef", tt.ref, got, err)
			}
		})
	}
	if got, err := ix.Get(ref, 0); err != nil || got.Content != "secret plan alpha" {
		t.Fatalf("Get(own ref) = %q, %v", got.Content, err)
	}
}

func TestGetDeletedRecord(t *testing.T) {
	ix := open(t, home(t), "a1", nil)
	if err := ix.Upsert(doc(memory.KindBrief, "b1", "", "t", "ephemeral words")); err != nil {
		t.Fatal(err)
	}
	ref := refOf(t, ix, "ephemeral")
	if err := ix.Delete(memory.KindBrief, "b1"); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Get(ref, 0); !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("Get(deleted) = %v, want ErrNotFound", err)
	}
}
