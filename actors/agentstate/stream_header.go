package agentstate

import (
	"encoding/json"
	"fmt"
)

// StreamHeader encodes what boot recovery and listings read of s without
// its journal: its open facts and its AgentInfo (a snapshot header's JSON,
// see snapshot.go), with redact applied.
func (s *State) StreamHeader(redact func([]byte) []byte) ([]byte, error) {
	info := s.Info()
	head, err := json.Marshal(snapshotHeader{OpenFacts: OpenFacts(s), Agent: &info})
	if err != nil {
		return nil, err
	}
	return redact(head), nil
}

// ReadStreamHeader decodes a StreamHeader.
func ReadStreamHeader(data []byte) ([]OpenFact, AgentInfo, error) {
	var h snapshotHeader
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, AgentInfo{}, fmt.Errorf("agent stream header: %w", err)
	}
	if h.Agent == nil {
		return nil, AgentInfo{}, fmt.Errorf("agent stream header: no agent info")
	}
	return h.OpenFacts, *h.Agent, nil
}
