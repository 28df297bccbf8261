package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote"
)

// RemoteConnection are the global flags of a client command reaching a
// node over the cluster protocol.
type RemoteConnection struct {
	Remote       []string `help:"Reach the runtime over the cluster protocol at its run --remote-listen HOST:PORT instead of the control socket; needs --remote-tls-dir. Several nodes of one cluster (comma-separated, or the flag repeated): the first that answers is used, the next when it stops answering." env:"HOLON_REMOTE" placeholder:"HOST:PORT"`
	RemoteTLSDir string   `name:"remote-tls-dir" help:"With --remote: the directory holding ca.crt, client.crt and client.key (holon-actors ca issue --role client)." env:"HOLON_REMOTE_TLS_DIR" type:"path" placeholder:"DIR"`
	RemoteReply  string   `name:"remote-reply" help:"With --remote: the HOST:PORT this client listens on for the node's answers, which the node must reach (default: any free loopback port)." env:"HOLON_REMOTE_REPLY" placeholder:"HOST:PORT"`
}

// dialRemote is the cluster-protocol client the remote flags describe.
func dialRemote(ctx context.Context, c RemoteConnection) (runtimeClient, error) {
	if c.RemoteTLSDir == "" {
		return nil, usage(fmt.Errorf("--remote %s needs --remote-tls-dir: the directory holding ca.crt, client.crt and client.key (holon-actors ca issue --role client)", strings.Join(c.Remote, ",")))
	}
	o := remote.Options{Addr: c.Remote[0], Fallback: c.Remote[1:], TLSDir: c.RemoteTLSDir, Listen: c.RemoteReply, Advertise: c.RemoteReply}
	if c.RemoteReply == "" {
		o.Advertise = ""
	}
	rc, err := remote.Dial(ctx, o)
	if err != nil {
		return nil, usage(err)
	}
	if err := firstAnswering(ctx, rc, len(c.Remote)); err != nil {
		rc.Close()
		return nil, err
	}
	return remoteRuntime{rc}, nil
}

// remoteRuntime is a remote client seen as a runtimeClient: what the
// cluster protocol serves, and a clear refusal for the rest.
type remoteRuntime struct{ *remote.Client }

// Events is one page, as over the socket.
func (r remoteRuntime) Events(ctx context.Context, id string, after uint64, limit int) (control.EventsPage, error) {
	return r.EventsPage(ctx, id, after, limit)
}

// errNotRemote is returned for what the cluster protocol does not serve.
var errNotRemote = errors.New("not served over --remote")

func notRemote(what string) error {
	return fmt.Errorf("%s is %w: use the control socket (on the runtime's host) or --url", what, errNotRemote)
}

func (remoteRuntime) State(context.Context, string) (control.AgentStateSnapshot, error) {
	return control.AgentStateSnapshot{}, notRemote("an agent's state")
}

func (remoteRuntime) EnsureTrigger(context.Context, string) (control.TriggerCapability, error) {
	return control.TriggerCapability{}, notRemote("the trigger URL")
}

func (remoteRuntime) RevokeTrigger(context.Context, string) (control.Trigger, error) {
	return control.Trigger{}, notRemote("revoking the trigger")
}

func (remoteRuntime) SetModel(context.Context, string, string, string) (agentstate.AgentInfo, error) {
	return agentstate.AgentInfo{}, notRemote("the model override")
}

func (remoteRuntime) RetryModel(context.Context, string, bool) (agentstate.AgentInfo, error) {
	return agentstate.AgentInfo{}, notRemote("the model retry")
}

func (remoteRuntime) SetTokenBudget(context.Context, string, int64, bool, string) (agentstate.AgentInfo, error) {
	return agentstate.AgentInfo{}, notRemote("the token budget")
}

func (remoteRuntime) Notifications(context.Context, string) ([]agentstate.NotificationView, error) {
	return nil, notRemote("the notifications list")
}

// LastEvents is the newest n events: the page after the agent's last
// event_seq less n, as the socket's ?last=N is for a journal with no
// deleted range.
func (r remoteRuntime) LastEvents(ctx context.Context, id string, n int) (control.EventsPage, error) {
	s, err := r.Status(ctx, id)
	if err != nil {
		return control.EventsPage{}, err
	}
	var after uint64
	if s.LastSeq > uint64(n) {
		after = s.LastSeq - uint64(n)
	}
	return r.EventsPage(ctx, id, after, n)
}

func (remoteRuntime) DeleteAgent(context.Context, string, bool) (actors.DeleteResult, error) {
	return actors.DeleteResult{}, notRemote("deleting an agent")
}

func (remoteRuntime) ExportAgent(context.Context, string, io.Writer) error {
	return notRemote("exporting an agent")
}

func (remoteRuntime) ImportAgent(context.Context, io.Reader) (actors.ImportResult, error) {
	return actors.ImportResult{}, notRemote("importing an agent")
}
