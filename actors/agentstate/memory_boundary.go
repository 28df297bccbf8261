package agentstate

import "github.com/holon-actors/holon-actors/messages"

// MemoryBoundary is what a turn boundary records for the agent's memory:
// the episode its builder finalizes (episodes.go), then its working
// memory's next revision (working_memory.go); nil while a turn is in
// flight (memory never changes inside a tool loop) or when neither
// changed. An archived or stopped agent records none.
func MemoryBoundary(st *State, env Env) Batch {
	if st.Turn != nil || st.Status == messages.StatusArchived || st.Status == messages.StatusStopped {
		return nil
	}
	var b Batch
	if why := EpisodeBoundary(st); why != "" {
		b = append(b, FinalizeEpisode(st, env, why))
	}
	if u := WorkingMemoryUpdate(st); u != nil {
		b = append(b, u)
	}
	return b
}
