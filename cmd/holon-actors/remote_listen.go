package main

import (
	"errors"
	"fmt"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// remoteFlags are the flags of `run` that serve remote clients over the
// Proto.Actor remote protocol.
type remoteFlags struct {
	RemoteListen    string `name:"remote-listen" help:"Serve remote clients over the Proto.Actor remote protocol (gRPC with mutual TLS) at HOST:PORT (off by default; needs --tls-dir)." env:"HOLON_REMOTE_LISTEN" placeholder:"HOST:PORT"`
	RemoteAdvertise string `name:"remote-advertise" help:"HOST:PORT remote clients reach this node at, when it is not --remote-listen (NAT, containers)." env:"HOLON_REMOTE_ADVERTISE" placeholder:"HOST:PORT"`
	TLSDir          string `name:"tls-dir" help:"Directory with ca.crt and the node's member.crt and member.key (holon-actors ca issue --role member --out DIR)." env:"HOLON_TLS_DIR" type:"path" placeholder:"DIR"`
}

// credentials checks the flags and loads the node's certificate: nil when
// remote clients are off.
func (f remoteFlags) credentials() (*tlsca.Credentials, error) {
	switch {
	case f.RemoteListen == "" && (f.RemoteAdvertise != "" || f.TLSDir != ""):
		return nil, usage(errors.New("--remote-advertise and --tls-dir serve remote clients: give --remote-listen HOST:PORT too"))
	case f.RemoteListen == "":
		return nil, nil
	case f.TLSDir == "":
		return nil, usage(errors.New("--remote-listen needs --tls-dir: remote clients are served with mutual TLS only " +
			"(holon-actors ca init, then ca issue --role member --name NODE --out DIR)"))
	}
	creds, err := tlsca.Load(f.TLSDir, tlsca.RoleMember)
	if err != nil {
		return nil, usage(fmt.Errorf("--tls-dir: %w", err))
	}
	cfg := gateway.Config{Listen: f.RemoteListen, Advertise: f.RemoteAdvertise, TLS: creds}
	if err := cfg.Validate(); err != nil {
		return nil, usage(err)
	}
	return creds, nil
}

// check refuses remote flags that cannot work, before anything starts.
func (f remoteFlags) check() error {
	_, err := f.credentials()
	return err
}

// startRemote serves remote clients when --remote-listen is given.
func (o *owner) startRemote() error {
	creds, err := o.cmd.Remote.credentials()
	if err != nil || creds == nil {
		return err
	}
	n, err := gateway.Start(gateway.Config{Listen: o.cmd.Remote.RemoteListen, Advertise: o.cmd.Remote.RemoteAdvertise,
		TLS: creds, Log: o.log, Operator: control.Operator{Runtime: o.rt, Store: o.store, Clock: clockwork.NewRealClock()}})
	if err != nil {
		return err
	}
	o.remote = n
	return nil
}

// remoteAddr is the address remote clients reach, "" when off.
func (o *owner) remoteAddr() string {
	if o.remote == nil {
		return ""
	}
	return o.remote.Addr()
}

// stopRemote stops serving remote clients; a no-op when off or stopped.
func (o *owner) stopRemote() error {
	if o.remote == nil {
		return nil
	}
	n := o.remote
	o.remote = nil
	if err := n.Stop(); err != nil {
		return fmt.Errorf("stop serving remote clients: %w", err)
	}
	return nil
}

// unused refuses the remote flags on a command that serves no clients
// (once), rather than ignore them.
func (f remoteFlags) unused(command string) error {
	if f.RemoteListen != "" || f.RemoteAdvertise != "" || f.TLSDir != "" {
		return usage(fmt.Errorf("%s serves no remote clients: drop --remote-listen, --remote-advertise and --tls-dir", command))
	}
	return nil
}
