package tasks

// Running counts the tasks whose process this host owns now.
func (h *Host) Running() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.live)
}
