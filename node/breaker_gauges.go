package node

// BreakerStates is the state of each model ref's circuit breaker used so
// far (closed, open, half_open), for the metrics.
func (m *ModelProvider) BreakerStates() map[string]string {
	m.mu.Lock()
	set := m.breakers
	m.mu.Unlock()
	out := map[string]string{}
	for ref, s := range set.States() {
		out[ref] = string(s)
	}
	return out
}
