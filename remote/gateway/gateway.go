package gateway

import (
	"context"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/rs/zerolog"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/remote/guard"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// GatewayName is the gateway actor's name (remotepb.GatewayName, which
// clients use without importing this package).
const GatewayName = remotepb.GatewayName

// requestTimeout bounds one request's runtime call; a ReadEvents wait
// comes on top.
const requestTimeout = 30 * time.Second

// gateway is the actor answering remote requests. Its fields are set
// before it is spawned; the goroutines it starts are counted in wg, which
// the Node waits on after stopping it.
type gateway struct {
	op    control.Operator
	log   zerolog.Logger
	slots chan struct{} // one token per request in flight; full: refuse
	wg    *sync.WaitGroup
	book  *replyBook

	ctx    context.Context // cancelled when the gateway stops
	cancel context.CancelFunc
}

func (g *gateway) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		g.ctx, g.cancel = context.WithCancel(context.Background())
	case *actor.Stopping:
		g.cancel() // requests in flight end with the gateway
	case proto.Message:
		if _, ok := handlers[string(proto.MessageName(m))]; ok {
			g.accept(c, m)
		}
	}
}

// accept starts answering request m in its own goroutine, or refuses it at
// once when it cannot be answered: no sender to answer, no authenticated
// peer, too many in flight.
func (g *gateway) accept(c actor.Context, m proto.Message) {
	sender := c.Sender()
	if sender == nil {
		g.log.Warn().Str("type", string(proto.MessageName(m))).Msg("remote: a request without a sender, dropped")
		return
	}
	who, role := c.MessageHeader().Get(guard.HeaderPeer), c.MessageHeader().Get(guard.HeaderRole)
	if who == "" || (role != string(tlsca.RoleClient) && role != string(tlsca.RoleMember)) {
		// Nobody to check the reply address against: a reply could go
		// anywhere.
		g.log.Warn().Str("type", string(proto.MessageName(m))).Msg("remote: a request without an authenticated peer, dropped")
		return
	}
	select {
	case g.slots <- struct{}{}:
	default:
		// Told only at an address known to be who's and reading: no
		// probe here, and a flood of refusals must not queue either.
		if g.book.mayTell(sender.Address, who, busy) {
			c.Respond(busy)
		}
		return
	}
	ctx, root := g.ctx, c.ActorSystem().Root
	g.wg.Add(1)
	go func() {
		defer func() { <-g.slots; g.wg.Done() }()
		g.serve(ctx, root, sender, who, m)
	}()
}

// serve answers request m of certificate who at sender, if the reply
// address is who's and reads its replies (replyBook.admit).
func (g *gateway) serve(ctx context.Context, root *actor.RootContext, sender *actor.PID, who string, m proto.Message) {
	release, refusal, err := g.book.admit(ctx, sender.Address, who)
	if err != nil {
		g.log.Warn().Err(err).Str("peer", who).Str("reply_addr", sender.Address).Str("type", string(proto.MessageName(m))).
			Msg("remote: a request dropped unanswered")
		return
	}
	if refusal != nil {
		root.Send(sender, refusal) // counted as queued by admit
		return
	}
	reply := g.answer(ctx, control.Caller{Name: "remote:" + who}, m)
	g.book.queue(sender.Address, who, reply) // counted queued before it stops counting in flight
	release()
	root.Send(sender, reply)
}

// answer runs request m for the caller and returns its reply or an Error.
func (g *gateway) answer(ctx context.Context, who control.Caller, m proto.Message) proto.Message {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout+control.MaxEventsWait)
	defer cancel()
	reply, err := handlers[string(proto.MessageName(m))](ctx, g.op, who, m)
	if err != nil {
		return errorReply(err)
	}
	return reply
}

// busy is the refusal of a request over the gateway's slots.
var (
	busy = &remotepb.Error{Code: control.KindBackpressure, HttpStatus: 429,
		Message: "too many remote requests in flight", Hint: "retry later"}
)
