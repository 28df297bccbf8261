package agentstate

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// Snapshot data layout: a small header, then the state's JSON.
//
//	byte 0        snapshotFormat
//	uvarint n     length of the header JSON
//	n bytes       header JSON: {"open_facts": [...]}
//	the rest      AgentState JSON
//
// The header lets boot recovery learn an agent's open facts without
// decoding its state (and whole conversation).
const snapshotFormat = 1

type snapshotHeader struct {
	OpenFacts []OpenFact `json:"open_facts"`
	Agent     *AgentInfo `json:"agent,omitempty"`
}

// Snapshot encodes s for the snapshot store.
func (s *State) Snapshot() ([]byte, error) {
	return s.SnapshotRedacted(func(b []byte) []byte { return b })
}

// SnapshotRedacted is snapshot with redact applied to the header and the
// state JSON before they are framed.
func (s *State) SnapshotRedacted(redact func([]byte) []byte) ([]byte, error) {
	info := s.Info()
	head, err := json.Marshal(snapshotHeader{OpenFacts: OpenFacts(s), Agent: &info})
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	head, body = redact(head), redact(body)
	out := binary.AppendUvarint([]byte{snapshotFormat}, uint64(len(head)))
	out = append(out, head...)
	return append(out, body...), nil
}

// splitSnapshot returns a snapshot's header and state JSON.
func splitSnapshot(data []byte) (snapshotHeader, []byte, error) {
	var h snapshotHeader
	if len(data) == 0 || data[0] != snapshotFormat {
		return h, nil, fmt.Errorf("agent snapshot: unknown format")
	}
	n, k := binary.Uvarint(data[1:])
	if k <= 0 || uint64(len(data)-1-k) < n {
		return h, nil, fmt.Errorf("agent snapshot: bad header length")
	}
	head := data[1+k : 1+k+int(n)]
	if err := json.Unmarshal(head, &h); err != nil {
		return h, nil, fmt.Errorf("agent snapshot header: %w", err)
	}
	return h, data[1+k+int(n):], nil
}

// SnapshotOpenFacts reads the open facts recorded in an agent snapshot's
// header, without decoding the state.
func SnapshotOpenFacts(data []byte) ([]OpenFact, error) {
	h, _, err := splitSnapshot(data)
	return h.OpenFacts, err
}

// SnapshotInfo reads the AgentInfo recorded in a snapshot's header; ok is
// false for a snapshot written before headers carried it.
func SnapshotInfo(data []byte) (info AgentInfo, ok bool, err error) {
	h, _, err := splitSnapshot(data)
	if err != nil || h.Agent == nil {
		return AgentInfo{}, false, err
	}
	return *h.Agent, true, nil
}

// RestoreState decodes a snapshot.
func RestoreState(data []byte) (*State, error) {
	_, body, err := splitSnapshot(data)
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, fmt.Errorf("decode agent snapshot: %w", err)
	}
	return &s, nil
}
