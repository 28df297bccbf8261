package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
)

// runtimeClient is what the client commands call on a runtime, whatever
// carries it: the control socket, the control API on TCP (--url) or the
// cluster protocol (--remote). *control.Client is the reference; every
// other transport answers with the same shapes, so the output is the same.
type runtimeClient interface {
	Close()
	RuntimeStatus(ctx context.Context) (control.RuntimeStatus, error)
	Agents(ctx context.Context) ([]agentstate.AgentInfo, error)
	Status(ctx context.Context, id string) (control.AgentSummary, error)
	State(ctx context.Context, id string) (control.AgentStateSnapshot, error)
	Transcript(ctx context.Context, id string) ([]providers.Item, error)
	Briefs(ctx context.Context, id string) ([]messages.Brief, error)
	CreateAgentWith(ctx context.Context, req control.CreateAgentRequest) (agentstate.AgentInfo, error)
	Prompt(ctx context.Context, id string, req control.PromptRequest) (control.PromptResponse, error)
	Lifecycle(ctx context.Context, id string, op actors.ControlOp, reason string) (control.LifecycleResponse, error)
	Interrupt(ctx context.Context, id, keep, reason string) (control.LifecycleResponse, error)
	Events(ctx context.Context, id string, after uint64, limit int) (control.EventsPage, error)
	Follow(ctx context.Context, id string, after uint64, f func(control.StreamEvent) error) (uint64, error)
	EnsureTrigger(ctx context.Context, id string) (control.TriggerCapability, error)
	RevokeTrigger(ctx context.Context, id string) (control.Trigger, error)
	SetModel(ctx context.Context, id, model, reason string) (agentstate.AgentInfo, error)
	RetryModel(ctx context.Context, id string, cancel bool) (agentstate.AgentInfo, error)
	SetTokenBudget(ctx context.Context, id string, tokens int64, reset bool, reason string) (agentstate.AgentInfo, error)
	Suspensions(ctx context.Context, id string, openOnly bool) ([]messages.SuspensionRecord, error)
	OpenSuspensions(ctx context.Context) ([]messages.SuspensionRecord, error)
	Respond(ctx context.Context, id, sid string, req control.RespondRequest) (control.SuspensionResponse, error)
	CancelSuspension(ctx context.Context, id, sid string, req control.CancelSuspensionRequest) (control.SuspensionResponse, error)
	Children(ctx context.Context, id string, all bool) ([]actors.ChildView, error)
	WorkItems(ctx context.Context, id string) ([]actors.WorkItemView, error)
	EnqueueWorkItem(ctx context.Context, id, objective string) (actors.WorkItemView, error)
	Notifications(ctx context.Context, id string) ([]agentstate.NotificationView, error)
	LastEvents(ctx context.Context, id string, n int) (control.EventsPage, error)
	TranscriptLast(ctx context.Context, id string, n int) ([]providers.Item, error)
	BriefsLast(ctx context.Context, id string, n int) ([]messages.Brief, error)
	Tasks(ctx context.Context, id string) ([]control.TaskView, error)
	DeleteAgent(ctx context.Context, id string, force bool) (actors.DeleteResult, error)
	ExportAgent(ctx context.Context, id string, w io.Writer) error
	ImportAgent(ctx context.Context, r io.Reader) (actors.ImportResult, error)
}

var _ runtimeClient = (*control.Client)(nil)

// Connection are the global flags that choose how a client command reaches
// the runtime; with none, it uses the control socket of --home.
type Connection struct {
	URL          string `name:"url" help:"Reach the runtime's control API on TCP (run --listen) at http://HOST:PORT instead of the control socket of --home; needs --url-token-file." env:"HOLON_URL" placeholder:"URL"`
	URLTokenFile string `name:"url-token-file" help:"With --url: the file holding the runtime's control token (mode 0600; the runtime's --token-file, or $HOLON_HOME/run/control.token on its host)." env:"HOLON_URL_TOKEN_FILE" type:"path" placeholder:"FILE"`
	RemoteConnection
}

// dialRuntime returns a client over the transport the globals choose.
func dialRuntime(e *env) (runtimeClient, error) {
	switch {
	case e.URL != "" && len(e.Remote) > 0:
		return nil, usage(errors.New("give --url or --remote, not both"))
	case len(e.Remote) > 0:
		return dialRemote(context.Background(), e.RemoteConnection)
	case e.RemoteTLSDir != "" || e.RemoteReply != "":
		return nil, usage(errors.New("--remote-tls-dir and --remote-reply go with --remote: give the node's HOST:PORT too (--remote HOST:PORT)"))
	case e.URL != "":
		return dialURL(e.URL, e.URLTokenFile)
	case e.URLTokenFile != "":
		return nil, usage(errors.New("--url-token-file without --url: give the runtime's address too (--url http://HOST:PORT)"))
	}
	home, err := persistence.ResolveHome(e.Home)
	if err != nil {
		return nil, err
	}
	return control.NewUnixClient(filepath.Join(persistence.RunDir(home), socketName)), nil
}

// dialURL is the control client for a runtime's TCP listener.
func dialURL(url, tokenFile string) (runtimeClient, error) {
	if tokenFile == "" {
		return nil, usage(fmt.Errorf("--url %s needs --url-token-file: the file holding the runtime's control token (its --token-file, or $HOLON_HOME/run/control.token on its host)", url))
	}
	tok, err := control.ReadTokenFile(tokenFile)
	if err != nil {
		return nil, usage(fmt.Errorf("--url-token-file: %w", err))
	}
	c, err := control.NewTCPClient(url, tok)
	if err != nil {
		return nil, usage(fmt.Errorf("--url: %w", err))
	}
	return c, nil
}
