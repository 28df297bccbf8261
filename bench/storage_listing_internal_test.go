package bench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/persistence"
)

// BenchmarkAgentsList times the listing of timeListing on a small journal:
// 1,000 running agents of ten copied turns each, listed by the runtime
// (runtime) and through the control socket, encoded and decoded (control),
// then the same agents once passivated, each described by its stream
// header (dormant/...). The journal's size does not count in a listing;
// its agents do.
func BenchmarkAgentsList(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	cfg := DefaultStorageConfig(dir)
	cfg.Agents = 1000
	tpl, _, err := recordTurn(ctx, filepath.Join(dir, "template"), cfg)
	if err != nil {
		b.Fatal(err)
	}
	o := persistence.DefaultOptions(filepath.Join(dir, "data"))
	o.NoSync = true
	err = inFreshStore(ctx, o, dir, true, func(st *persistence.BadgerStore) error {
		for i := range cfg.Agents {
			if err := writeTurns(ctx, st, cfg, tpl, nil, agentName(i), 0, 10, nil); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	if err != nil {
		b.Fatal(err)
	}
	err = inStore(o, dir, true, func(st *persistence.BadgerStore) (err error) {
		rt, err := newBenchRuntimeOpts(st, actors.RuntimeOptions{RequestTimeout: activationTimeout})
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, closeRuntime(rt)) }()
		if err := activateAll(ctx, rt, cfg.Agents); err != nil {
			return err
		}
		if err := settleAll(ctx, rt, cfg.Agents); err != nil {
			return err
		}
		_, stop, err := serveControl(control.Config{Runtime: rt, Store: st}, filepath.Join(dir, "control.sock"))
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, stop()) }()
		c := control.NewUnixClient(filepath.Join(dir, "control.sock"))
		defer c.Close()
		listAll(b, "runtime", cfg.Agents, rt.List)
		listAll(b, "control", cfg.Agents, c.Agents)
		if err := rt.PassivateIdle(ctx); err != nil {
			return err
		}
		if n := len(rt.Active()); n != 0 {
			return fmt.Errorf("%d agents still running after PassivateIdle", n)
		}
		listAll(b, "dormant/runtime", cfg.Agents, rt.List)
		listAll(b, "dormant/control", cfg.Agents, c.Agents)
		if n := len(rt.Active()); n != 0 {
			return fmt.Errorf("the listings activated %d agents", n)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// listAll times list as sub-benchmark name, which must list every agent.
func listAll(b *testing.B, name string, agents int, list func(context.Context) ([]agentstate.AgentInfo, error)) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if l, err := list(context.Background()); err != nil || len(l) != agents {
				b.Fatalf("listed %d agents, %v; want %d", len(l), err, agents)
			}
		}
	})
}
