package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/cluster"
)

// TestClusterFlags pins the refusals of a cluster node's flags: each
// names what is missing or wrong, before anything starts.
func TestClusterFlags(t *testing.T) {
	const pg = "postgres://holon@127.0.0.1:5432/holon"
	ok := clusterFlags{ClusterListen: "127.0.0.1:7300", NodeName: "n1", ClusterCerts: t.TempDir(), ClusterLease: 2 * time.Second}
	with := func(edit func(*clusterFlags)) clusterFlags { f := ok; edit(&f); return f }
	tests := []struct {
		name    string
		flags   clusterFlags
		journal string
		want    string
	}{
		{"no journal", ok, "", "--cluster-listen needs --journal postgres://"},
		{"no name", with(func(f *clusterFlags) { f.NodeName = "" }), pg, "--cluster-listen needs --node-name"},
		{"no certs", with(func(f *clusterFlags) { f.ClusterCerts = "" }), pg, "--cluster-listen needs --cluster-certs DIR"},
		{"no listen", with(func(f *clusterFlags) { f.ClusterListen = "" }), pg, "give --cluster-listen HOST:PORT too"},
		{"bad lease", with(func(f *clusterFlags) { f.ClusterLease = 0 }), pg, "--cluster-lease 0s"},
		{"empty certs dir", ok, pg, "--cluster-certs: load the CA certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.flags.config(tt.journal)
			if err == nil || cfg != nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("config = %v, %v; want an error containing %q", cfg, err, tt.want)
			}
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Errorf("%v is not a usage error", err)
			}
		})
	}
	if cfg, err := (clusterFlags{ClusterLease: time.Second, ClusterName: "holon"}).config(""); cfg != nil || err != nil {
		t.Errorf("no cluster flags: config = %v, %v; want a single node", cfg, err)
	}
	if err := cluster.CheckListen("0.0.0.0:7300"); !errors.Is(err, cluster.ErrAnyAddress) {
		t.Errorf("CheckListen(0.0.0.0:7300) = %v; want ErrAnyAddress", err)
	}
	if err := (clusterFlags{NodeName: "n1"}).unused("once"); err == nil || !strings.Contains(err.Error(), "once runs no cluster node") {
		t.Errorf("once with --node-name: %v", err)
	}
}
