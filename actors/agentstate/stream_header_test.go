package agentstate

import (
	"reflect"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// TestStreamHeader: a header reads back the state's open facts and info; a
// header without info, or not JSON, is refused.
func TestStreamHeader(t *testing.T) {
	st := &State{ID: "main", Status: messages.StatusAwakeIdle, LastSeq: 7}
	st.Timers = map[string]TimerState{"t": {}}
	data, err := st.StreamHeader(func(b []byte) []byte { return b })
	if err != nil {
		t.Fatal(err)
	}
	facts, info, err := ReadStreamHeader(data)
	if err != nil || !reflect.DeepEqual(facts, []OpenFact{FactPendingTimer}) || info.ID != "main" {
		t.Fatalf("ReadStreamHeader = %v, %+v, %v; want [pending_timer], main's info", facts, info, err)
	}
	for _, bad := range []string{`{"open_facts":[]}`, `not json`} {
		if _, _, err := ReadStreamHeader([]byte(bad)); err == nil {
			t.Errorf("ReadStreamHeader(%s) = nil error, want one", bad)
		}
	}
}
