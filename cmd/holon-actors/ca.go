package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// caCmd is `holon-actors ca`: the private CA of remote clients and nodes.
type caCmd struct {
	Init  caInitCmd  `cmd:"" help:"Create the CA (ca.key 0600, ca.crt) in --dir; it refuses to replace one."`
	Issue caIssueCmd `cmd:"" help:"Issue a member (node) or client (operator) certificate signed by the CA into --out: ca.crt, <role>.crt and <role>.key (0600)."`
}

// caDirFlag is the CA directory of both subcommands.
type caDirFlag struct {
	Dir string `help:"The CA's directory (default $HOLON_HOME/ca)." type:"path" placeholder:"DIR"`
}

func (f caDirFlag) dir(e *env) (string, error) {
	if f.Dir != "" {
		return f.Dir, nil
	}
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "ca"), nil
}

type caInitCmd struct {
	caDirFlag
}

// caResult is what ca init and ca issue print with --json.
type caResult struct {
	Dir   string   `json:"dir"`
	Files []string `json:"files"`
}

// Run creates the CA.
func (c *caInitCmd) Run(e *env) error {
	dir, err := c.dir(e)
	if err != nil {
		return err
	}
	if err := tlsca.Init(dir, time.Now()); err != nil {
		return caError(err)
	}
	return printCA(e, caResult{Dir: dir, Files: []string{tlsca.CACertFile, tlsca.CAKeyFile}},
		"keep ca.key private; issue certificates with holon-actors ca issue --role member|client")
}

type caIssueCmd struct {
	caDirFlag
	Role  string        `help:"member: a node (run --tls-dir); client: an operator's remote client." enum:"member,client" required:"" placeholder:"ROLE"`
	Name  string        `help:"The holder's name: the node's, or the operator's (recorded as the operator of a remote client's prompts and answers)." required:"" placeholder:"NAME"`
	Host  []string      `help:"Host names and IP addresses the holder serves on (comma-separated; informational: peers check the CA and the role)." placeholder:"HOST"`
	Out   string        `help:"Directory to write to (default: the CA's)." type:"path" placeholder:"DIR"`
	Valid time.Duration `help:"How long the certificate is valid (default a year)." default:"8760h" placeholder:"DURATION"`
}

// Run issues the certificate.
func (c *caIssueCmd) Run(e *env) error {
	dir, err := c.dir(e)
	if err != nil {
		return err
	}
	if c.Valid <= 0 {
		return usage(fmt.Errorf("--valid %v: give a positive duration, e.g. 8760h", c.Valid))
	}
	role, err := tlsca.ParseRole(c.Role)
	if err != nil {
		return usage(err)
	}
	out := c.Out
	if out == "" {
		out = dir
	}
	if err := tlsca.Issue(dir, tlsca.IssueRequest{Role: role, Name: c.Name, Hosts: c.Host, Out: out,
		Validity: c.Valid, Now: time.Now()}); err != nil {
		return caError(err)
	}
	next := "start the node with holon-actors run --remote-listen HOST:PORT --tls-dir " + out
	if role == tlsca.RoleClient {
		next = "give " + out + " to the operator's remote client; keep " + tlsca.KeyFile(role) + " private"
	}
	return printCA(e, caResult{Dir: out, Files: []string{tlsca.CACertFile, tlsca.CertFile(role), tlsca.KeyFile(role)}}, next)
}

func printCA(e *env, r caResult, next string) error {
	if e.JSON {
		return json.NewEncoder(e.stdout).Encode(r)
	}
	for _, f := range r.Files {
		fmt.Fprintln(e.stdout, filepath.Join(r.Dir, f))
	}
	fmt.Fprintln(e.stdout, "Next: "+next)
	return nil
}

// caError says what to do about a refused CA operation.
func caError(err error) error {
	if errors.Is(err, tlsca.ErrExists) {
		return fmt.Errorf("%w; nothing was written", err)
	}
	return err
}
