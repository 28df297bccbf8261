// Command membernode is a Proto.Actor cluster member on PostgreSQL leases
// (package pgmembers) and nothing else, for the membership tests, which run
// several as separate processes: it prints one JSON line per topology it
// sees, and exits with status 3 when its lease is lost.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/cluster/pgmembers"
)

// exitLost is the status of a node that lost its lease.
const exitLost = 3

type line struct {
	Event   string   `json:"event"`
	ID      string   `json:"id,omitempty"`
	Members []string `json:"members,omitempty"`
	Error   string   `json:"error,omitempty"`
}

var outMu sync.Mutex

func emit(l line) {
	outMu.Lock()
	defer outMu.Unlock()
	b, _ := json.Marshal(l)
	fmt.Println(string(b))
}

func main() {
	db := flag.String("db", "", "PostgreSQL URL")
	name := flag.String("cluster", "test", "cluster name")
	lease := flag.Duration("lease", 2*time.Second, "membership lease")
	flag.Parse()

	pool, err := pgxpool.New(context.Background(), *db)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	prov := pgmembers.New(pool, pgmembers.Config{Cluster: *name, Lease: *lease, Poll: 200 * time.Millisecond,
		Log: zerolog.New(os.Stderr).With().Timestamp().Logger(),
		Lost: func(err error) {
			emit(line{Event: "lost", ID: sys.ID, Error: err.Error()})
			os.Exit(exitLost)
		}})
	probe := cluster.NewKind("probe", actor.PropsFromFunc(func(c actor.Context) {}))
	cfg := cluster.Configure(*name, prov, disthash.New(), remote.Configure("127.0.0.1", 0), cluster.WithKinds(probe))
	c := cluster.New(sys, cfg)
	sys.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*cluster.ClusterTopology); ok {
			ids := make([]string, 0, len(t.Members))
			for _, m := range t.Members {
				ids = append(ids, m.Id)
			}
			slices.Sort(ids)
			emit(line{Event: "topology", ID: sys.ID, Members: ids})
		}
	})
	c.StartMember()
	emit(line{Event: "started", ID: sys.ID})

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	<-sig
	c.Shutdown(true)
}
