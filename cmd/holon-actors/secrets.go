package main

import (
	"maps"
	"os"
	"slices"

	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// env reads the runtime's environment: the credentials handed over by
// `daemon start` (see receiveSecrets) first, then the process's own.
func (c *runCmd) env(name string) string {
	if c.getenv != nil {
		return c.getenv(name)
	}
	return os.Getenv(name)
}

// receiveSecrets reads the credentials `daemon start` passed through an
// inherited pipe instead of the environment; a foreground run has none.
// The control token among them is the --token of this run.
func (c *runCmd) receiveSecrets() error {
	handed, err := secrets.Receive()
	if err != nil {
		return err
	}
	c.handed = handed
	c.getenv = secrets.Lookup(handed, os.Getenv)
	if c.Token == "" {
		c.Token = handed[secrets.ControlTokenEnv]
	}
	return nil
}

// credentialNames are the variables holding credentials under cfg.
func credentialNames(cfg catalog.Config) secrets.Names {
	return secrets.Names{Extra: cfg.KeyEnvs()}
}

// fillSecrets registers every credential the runtime was given: the
// credential variables of its environment and of the handoff, the control
// token, and what its base URLs carry.
func (c *runCmd) fillSecrets(reg *secrets.Registry, cfg catalog.Config, token string) {
	_, taken := credentialNames(cfg).Split(os.Environ())
	for _, name := range slices.Sorted(maps.Keys(taken)) {
		reg.Add(taken[name])
	}
	for _, name := range slices.Sorted(maps.Keys(c.handed)) {
		reg.Add(c.handed[name])
	}
	for _, name := range cfg.KeyEnvs() {
		reg.Add(c.env(name))
	}
	reg.Add(token)
	for _, u := range cfg.BaseURLs(c.env) {
		reg.AddURL(u)
	}
}
