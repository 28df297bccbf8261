package actors

import (
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/actors/transport"
	"github.com/holon-actors/holon-actors/providers"
)

// ErrTransportName is returned for a transport without a name.
var ErrTransportName = errors.New("transport needs a name")

// Transport returns a provider that serves p's calls through the transport
// actor named name (a candidate's model ref), spawned under the transports
// supervisor the first time. Wrap each candidate of a chain with it
// (catalog.ChainWith) so every candidate has its actor.
func (r *Runtime) Transport(name string, p providers.Provider) (providers.Provider, error) {
	if name == "" {
		return nil, ErrTransportName
	}
	if r.isClosed() {
		return nil, ErrRuntimeClosed
	}
	res, err := r.sys.Root.RequestFuture(r.transports, &transport.Spawn{Name: name, Provider: p}, r.requestTimeout).Result()
	if err != nil {
		return nil, fmt.Errorf("start transport %s: %w", name, err)
	}
	sp, ok := res.(*transport.Spawned)
	if !ok {
		return nil, fmt.Errorf("start transport %s: %v", name, res)
	}
	if sp.Created {
		r.deps.Log.Info().Str("candidate", name).Str("transport", p.Name()).Msg("transport actor started")
	}
	return transport.NewProvider(name, sp.PID, r.sys.Root, r.isClosed), nil
}

// isClosed reports whether Close or Halt ran.
func (r *Runtime) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// stopTransports stops the transports supervisor and its actors, which
// cancel and wait for their calls in flight.
func (r *Runtime) stopTransports() error {
	if err := r.sys.Root.StopFuture(r.transports).Wait(); err != nil {
		return fmt.Errorf("stop transports: %w", err)
	}
	return nil
}
