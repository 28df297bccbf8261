package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/holon-actors/holon-actors/tools/exec"
)

// ProcTable records the process groups of the running stdio servers in a
// file, the way command processes are tracked: each group's leader
// carries a token in its environment (exec.TokenEnv), so a runtime that
// was killed leaves a record its next start uses to kill what is left
// (Sweep), and never an unrelated group that reused the id.
type ProcTable struct {
	path string
	mu   sync.Mutex
}

// procRecord is one running stdio server's process group.
type procRecord struct {
	PGID  int    `json:"pgid"`
	Token string `json:"token"`
}

// NewProcTable returns the table kept in the file path.
func NewProcTable(path string) *ProcTable { return &ProcTable{path: path} }

func (p *ProcTable) load() map[string]procRecord {
	m := map[string]procRecord{}
	if b, err := os.ReadFile(p.path); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

func (p *ProcTable) save(m map[string]procRecord) error {
	if len(m) == 0 {
		if err := os.Remove(p.path); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove %s: %w", p.path, err)
		}
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return fmt.Errorf("record mcp process group: %w", err)
	}
	tmp := p.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("record mcp process group: %w", err)
	}
	return os.Rename(tmp, p.path)
}

func (p *ProcTable) put(key string, r procRecord) error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.load()
	m[key] = r
	return p.save(m)
}

func (p *ProcTable) drop(key string, pgid int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.load()
	if m[key].PGID == pgid {
		delete(m, key)
		_ = p.save(m)
	}
}

// Sweep kills the process groups a previous runtime left recorded and
// clears the table; it returns how many groups it found alive.
func (p *ProcTable) Sweep(ctx context.Context) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	found := 0
	for key, r := range p.load() {
		ok, err := exec.KillOrphans(ctx, r.PGID, r.Token)
		if err != nil {
			return found, fmt.Errorf("mcp server %s: %w", key, err)
		}
		if ok {
			found++
		}
	}
	return found, p.save(nil)
}

// groupTransport is the SDK's command transport with the server in a
// process group of its own, recorded in the ProcTable while it runs and
// killed whole when the connection closes.
type groupTransport struct {
	sdk.CommandTransport
	procs  *ProcTable
	server string
}

func (t *groupTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	t.Command.Env = append(t.Command.Env, exec.TokenEnv+"="+token)
	conn, err := t.CommandTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pgid := t.Command.Process.Pid
	if err := t.procs.put(t.server, procRecord{PGID: pgid, Token: token}); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return &groupConn{Connection: conn, pgid: pgid, procs: t.procs, server: t.server}, nil
}

// groupConn kills its server's process group once the SDK has closed it.
type groupConn struct {
	sdk.Connection
	pgid   int
	procs  *ProcTable
	server string
	once   sync.Once
}

func (c *groupConn) Close() error {
	err := c.Connection.Close()
	c.once.Do(func() {
		_ = syscall.Kill(-c.pgid, syscall.SIGKILL) // what the leader left behind
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = exec.WaitGroupGone(ctx, c.pgid)
		c.procs.drop(c.server, c.pgid)
	})
	return err
}
