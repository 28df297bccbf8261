// Command clusternode is one node of a holon-actors cluster for the
// multi-node tests: an agent runtime over the PostgreSQL journal with a
// zero-latency model, joined to the cluster. It reads commands on stdin,
// one a line ("prompt AGENT MESSAGE_ID"), and prints one JSON line per
// answer; it exits with status 3 when it loses its membership.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/cluster"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

type line struct {
	Event     string   `json:"event"`
	Node      string   `json:"node,omitempty"`
	Addr      string   `json:"addr,omitempty"`
	Agent     string   `json:"agent,omitempty"`
	MessageID string   `json:"message_id,omitempty"`
	Seq       uint64   `json:"seq,omitempty"`
	Duplicate bool     `json:"duplicate,omitempty"`
	Error     string   `json:"error,omitempty"`
	Members   []string `json:"members,omitempty"`
	Text      string   `json:"text,omitempty"`
}

var outMu sync.Mutex

func emit(l line) {
	outMu.Lock()
	defer outMu.Unlock()
	b, _ := json.Marshal(l)
	fmt.Println(string(b))
}

// instant is a zero-latency model: every turn is one round answering "ok";
// it prints a "model" line for each call, the side effect the zombie test
// watches for.
type instant struct{}

func (instant) Name() string { return "instant" }
func (instant) Complete(_ context.Context, req providers.Request) (providers.Response, error) {
	l := line{Event: "model", Agent: req.AgentID}
	if n := len(req.Conversation); n > 0 {
		l.Text = req.Conversation[n-1].Text // "hello MESSAGE_ID": the turn's prompt
	}
	emit(l)
	return providers.Response{Text: "ok", StopReason: "end_turn", Model: "instant-1"}, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func main() {
	db := flag.String("db", "", "PostgreSQL URL")
	name := flag.String("name", "", "node name")
	listen := flag.String("listen", "127.0.0.1:0", "cluster HOST:PORT")
	tlsDir := flag.String("tls-dir", "", "directory of the member certificate")
	lease := flag.Duration("lease", 2*time.Second, "membership lease")
	flag.Parse()
	log := zerolog.New(os.Stderr).With().Timestamp().Str("node", *name).Logger()

	ctx := context.Background()
	store, err := pgjournal.Open(ctx, pgjournal.DefaultConfig(*db))
	if err != nil {
		fail(err)
	}
	pool, err := pgxpool.New(ctx, *db)
	if err != nil {
		fail(err)
	}
	creds, err := tlsca.Load(*tlsDir, tlsca.RoleMember)
	if err != nil {
		fail(err)
	}
	rt, err := actors.NewRuntime(actors.AgentDeps{Store: store, Provider: instant{}, Log: log, Node: *name},
		actors.RuntimeOptions{})
	if err != nil {
		fail(err)
	}
	node, err := cluster.Start(cluster.Config{Name: *name, Listen: *listen, TLS: creds, Pool: pool, Runtime: rt,
		Lease: *lease, Log: log, Lost: func(err error) {
			emit(line{Event: "lost", Node: *name, Error: err.Error()})
			os.Exit(3)
		}})
	if err != nil {
		fail(err)
	}
	emit(line{Event: "started", Node: *name, Addr: node.Addr()})

	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 1 && f[0] == "members" {
			emit(line{Event: "members", Node: *name, Members: node.Members()})
			continue
		}
		if len(f) != 3 || f[0] != "prompt" {
			emit(line{Event: "error", Error: "want: prompt AGENT MESSAGE_ID"})
			continue
		}
		go func(agent, id string) {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			res, err := node.Prompt(ctx, &remotepb.PromptRequest{AgentId: agent, Envelope: &messagespb.MessageEnvelope{
				Id: id, Priority: string(messages.PriorityNormal),
				Body: &messagespb.Body{Type: &messagespb.Body_Text{Text: &messagespb.TextBody{Text: "hello " + id}}}}})
			if err != nil {
				emit(line{Event: "error", Agent: agent, MessageID: id, Error: err.Error()})
				return
			}
			emit(line{Event: "accepted", Node: *name, Agent: agent, MessageID: res.GetMessageId(), Seq: res.GetEventSeq(),
				Duplicate: res.GetDuplicate()})
		}(f[1], f[2])
	}
	node.Close()
	_ = rt.Close()
	_ = store.Close()
}
