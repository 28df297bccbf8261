package testkit

import "context"

// ArchiveUpTo moves agent's journal up to seq into archive segments, as a
// retention pass would, and returns how many events it moved.
func (h *Harness) ArchiveUpTo(agent string, upTo uint64) int {
	h.t.Helper()
	n, err := h.inner.ArchiveUpTo(context.Background(), agent, upTo)
	if err != nil {
		h.t.Fatalf("archive %s up to %d: %v", agent, upTo, err)
	}
	return n
}
