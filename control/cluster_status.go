package control

// ClusterStatus is a cluster node's part of the runtime status: its name,
// the address its peers reach it at, and the members it sees.
type ClusterStatus struct {
	Node    string   `json:"node"`
	Address string   `json:"address"`
	Members []string `json:"members"`
}

// clusterStatus is Config.Cluster's answer, nil for a single node.
func (s *Server) clusterStatus() *ClusterStatus {
	if s.cfg.Cluster == nil {
		return nil
	}
	return s.cfg.Cluster()
}

// withNode is an agent's summary naming the cluster node that serves it
// (where the agent is active), for a cluster node.
func (s *Server) withNode(sum AgentSummary) AgentSummary {
	if c := s.clusterStatus(); c != nil {
		sum.Node = c.Node
	}
	return sum
}
