package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// deciles is how many parts of a run the by-decile figures split it into.
const deciles = 10

// decileOf is the tenth of a run of turns that turn n (from 0) falls in.
func decileOf(n, turns int) int { return min(deciles-1, n*deciles/turns) }

// turnsPerSecByDecile splits each agent's turns into tenths of its run and
// returns, for each tenth, its turns over the time an agent spent in them
// (their latencies summed, averaged over the agents): whether turns slow
// down as an agent's history grows. lat holds each agent's turns in order,
// agent after agent (driveAll). A run of fewer than ten turns an agent has
// empty tenths, reported as 0.
func turnsPerSecByDecile(lat []time.Duration, agents, turns int) []float64 {
	var spent [deciles]time.Duration
	var count [deciles]int
	for i, d := range lat {
		k := decileOf(i%turns, turns)
		spent[k] += d
		count[k]++
	}
	out := make([]float64, deciles)
	for k := range out {
		if spent[k] > 0 {
			out[k] = float64(count[k]) / (spent[k].Seconds() / float64(agents))
		}
	}
	return out
}

// bytesPerTurnByDecile reads every agent's journal and returns, for each
// tenth of the run, the encoded bytes of the events its turns wrote (JSON,
// before the store compresses them; a turn runs from its message_admitted
// to the next one, the agent's creation counting to its first turn) over
// those turns: whether a turn's journal grows with the agent's history.
func bytesPerTurnByDecile(ctx context.Context, st persistence.Store, agents, turns int) ([]float64, error) {
	var total [deciles]int64
	var count [deciles]int
	for i := range agents {
		id := agentName(i)
		evs, err := st.Read(ctx, id, 1, math.MaxUint64, 0)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", id, err)
		}
		turn := -1
		for _, ev := range evs {
			if ev.Type == messages.EventMessageAdmitted {
				turn++
				count[decileOf(min(turn, turns-1), turns)]++
			}
			b, err := json.Marshal(ev)
			if err != nil {
				return nil, fmt.Errorf("encode %s seq %d: %w", id, ev.Seq, err)
			}
			total[decileOf(min(max(turn, 0), turns-1), turns)] += int64(len(b))
		}
	}
	out := make([]float64, deciles)
	for k := range out {
		if count[k] > 0 {
			out[k] = float64(total[k]) / float64(count[k])
		}
	}
	return out, nil
}

// decileRSS reads the resident set, and its anonymous part, at the end of
// each tenth of a run of turns (settledMemory); turnDone is the first
// agent's driver's callback.
type decileRSS struct {
	turns int
	bytes []int64
	anon  []int64
}

func newDecileRSS(turns int) *decileRSS {
	return &decileRSS{turns: turns, bytes: make([]int64, 0, deciles), anon: make([]int64, 0, deciles)}
}

// turnDone reads the resident set when turn n (from 0) ends a tenth of
// the run. A run of fewer than ten turns reads fewer than ten.
func (d *decileRSS) turnDone(n int) {
	if n == d.turns-1 || decileOf(n, d.turns) != decileOf(n+1, d.turns) {
		d.bytes = append(d.bytes, settledMemory().rss)
		d.anon = append(d.anon, anonBytes())
	}
}
