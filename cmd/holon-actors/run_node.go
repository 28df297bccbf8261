package main

import (
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// agentOptions maps the agents' flags and the model configuration onto
// what every agent gets; `run` and `once` both start from it.
func (c *runCmd) agentOptions(cfg catalog.Config) (node.AgentOptions, error) {
	compaction, err := c.compaction()
	if err != nil {
		return node.AgentOptions{}, err
	}
	retry, err := c.modelRetry()
	if err != nil {
		return node.AgentOptions{}, err
	}
	timerLimits, err := c.timerLimits()
	if err != nil {
		return node.AgentOptions{}, err
	}
	return node.AgentOptions{Model: cfg, SystemPrompt: c.SystemPrompt, DefaultAgent: c.DefaultAgent,
		Workspace: c.Workspace, AgentsDir: c.Homes.agentsDir(), NotifyTool: c.NotifyTool, WorkItemReminder: c.workItemReminder(),
		Compaction: compaction, ModelRetry: retry, Timers: timerLimits}, nil
}

// nodeConfig is the node `run` starts.
func (c *runCmd) nodeConfig(home string, log zerolog.Logger, reg *secrets.Registry, prov *node.ModelProvider,
	auth control.TCPAuth, agents node.AgentOptions) node.Config {
	return node.Config{Home: home, Log: log, Provider: prov, Agents: agents, Secrets: reg,
		DiskReserveMiB: c.DiskReserve, ScrubInterval: c.ScrubInterval, TrashRetention: c.TrashRetention,
		Models: c.modelChain(home),
		Listen: c.listenAddr(), Auth: auth, TokenGenerated: c.TokenFile == "" && c.Token == "",
		Advertise: c.Advertise, PublicIngress: c.PublicIngress, MaxEventStreams: c.MaxEventStreams,
		Fingerprint: c.fingerprint(), Version: buildVersion().Version, ShutdownTimeout: c.ShutdownTimeout,
		Homes: c.Homes.config()}
}
