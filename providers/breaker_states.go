package providers

// States returns the state of each breaker handed out so far, by model
// ref, for the metrics. Safe on nil (none).
func (s *BreakerSet) States() map[string]BreakerState {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	bs := make(map[string]*Breaker, len(s.m))
	for ref, b := range s.m {
		bs[ref] = b
	}
	s.mu.Unlock()
	out := make(map[string]BreakerState, len(bs))
	for ref, b := range bs {
		out[ref] = b.State()
	}
	return out
}
