package control

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Trigger is the durable record of an agent's external trigger capability
// (runtime-spec "External Trigger Capabilities"). The token is never
// stored: it is derived from the runtime's trigger key and the trigger id
// (so the runtime can return the same URL again), and only its SHA-256 is
// kept for lookup.
type Trigger struct {
	ID              string     `json:"external_trigger_id"`
	AgentID         string     `json:"target_agent_id"`
	DeliveryMode    string     `json:"delivery_mode"` // always wake_hint
	Status          string     `json:"status"`        // active | revoked
	TokenSHA256     string     `json:"token_sha256"`
	CreatedAt       time.Time  `json:"created_at"`
	RevokedAt       *time.Time `json:"revoked_at,omitempty"`
	TriggerCount    uint64     `json:"trigger_count"`
	LastTriggeredAt *time.Time `json:"last_triggered_at,omitempty"`
	// RecentDeliveries holds the hashed ids of the latest deliveries that
	// carried one, oldest first, so a repeated delivery wakes the agent
	// once, also across restarts.
	RecentDeliveries []string `json:"recent_deliveries,omitempty"`
}

// recentDeliveries bounds Trigger.RecentDeliveries.
const recentDeliveries = 256

// The trigger statuses.
const (
	TriggerActive  = "active"
	TriggerRevoked = "revoked"
)

// TriggerCapability is what the runtime hands out: the descriptor with the
// capability URL. The URL is a secret.
type TriggerCapability struct {
	ID           string `json:"external_trigger_id"`
	TriggerURL   string `json:"trigger_url"`
	AgentID      string `json:"target_agent_id"`
	DeliveryMode string `json:"delivery_mode"`
	Status       string `json:"status"`
	// Note says when TriggerURL is not one outside callers can use, and
	// what to do (--advertise).
	Note string `json:"note,omitempty"`
}

// triggerKeyBytes is the size of the key tokens are derived from; tokens
// are HMAC-SHA256 outputs: 256 bits.
const triggerKeyBytes = 32

// Triggers keeps the trigger records in a 0600 JSON file beside a 0600
// key file. It is safe for concurrent use.
type Triggers struct {
	path string
	key  []byte

	mu      sync.Mutex
	byID    map[string]*Trigger // guarded by mu
	byHash  map[string]*Trigger // guarded by mu; token hash → record
	byAgent map[string]*Trigger // guarded by mu; the active one per agent
}

// OpenTriggers loads (or creates) the records at dir/triggers.json and the
// key at dir/trigger.key.
func OpenTriggers(dir string) (*Triggers, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	key, err := loadOrCreateKey(filepath.Join(dir, "trigger.key"))
	if err != nil {
		return nil, err
	}
	t := &Triggers{path: filepath.Join(dir, "triggers.json"), key: key, byID: map[string]*Trigger{},
		byHash: map[string]*Trigger{}, byAgent: map[string]*Trigger{}}
	b, err := os.ReadFile(t.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return t, nil
	case err != nil:
		return nil, fmt.Errorf("read triggers: %w", err)
	}
	var list []*Trigger
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("triggers file %s is damaged (%v): move it away to revoke every trigger", t.path, err)
	}
	for _, tr := range list {
		t.index(tr)
	}
	return t, nil
}

func loadOrCreateKey(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if err == nil && len(key) == triggerKeyBytes {
		return key, nil
	}
	if err == nil {
		return nil, fmt.Errorf("trigger key %s has %d bytes, want %d: move it away (every trigger URL changes)", path, len(key), triggerKeyBytes)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read trigger key: %w", err)
	}
	key = make([]byte, triggerKeyBytes)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make trigger key: %w", err)
	}
	if err := os.WriteFile(path, key, 0o600); err != nil {
		return nil, fmt.Errorf("write trigger key: %w", err)
	}
	return key, nil
}

func (t *Triggers) index(tr *Trigger) {
	t.byID[tr.ID] = tr
	t.byHash[tr.TokenSHA256] = tr
	if tr.Status == TriggerActive {
		t.byAgent[tr.AgentID] = tr
	}
}

// token derives a trigger's token.
func (t *Triggers) token(id string) string { return TriggerToken(t.key, id) }

func tokenHash(token string) string { return TriggerTokenHash(token) }

// Ensure returns agent's active trigger and its token, creating it if it
// has none; created reports whether it did.
func (t *Triggers) Ensure(_ context.Context, agent string, now time.Time) (tr Trigger, token string, created bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cur := t.byAgent[agent]; cur != nil {
		return *cur, t.token(cur.ID), false, nil
	}
	id := messages.NewID("trg")
	token = t.token(id)
	nt := &Trigger{ID: id, AgentID: agent, DeliveryMode: "wake_hint", Status: TriggerActive,
		TokenSHA256: tokenHash(token), CreatedAt: now.UTC()}
	t.index(nt)
	if err := t.saveLocked(); err != nil {
		delete(t.byID, id)
		delete(t.byHash, nt.TokenSHA256)
		delete(t.byAgent, agent)
		return Trigger{}, "", false, err
	}
	return *nt, token, true, nil
}

// Revoke revokes agent's active trigger; ok is false when it had none.
func (t *Triggers) Revoke(_ context.Context, agent string, now time.Time) (tr Trigger, ok bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur := t.byAgent[agent]
	if cur == nil {
		return Trigger{}, false, nil
	}
	at := now.UTC()
	cur.Status, cur.RevokedAt = TriggerRevoked, &at
	delete(t.byAgent, agent)
	if err := t.saveLocked(); err != nil {
		cur.Status, cur.RevokedAt = TriggerActive, nil
		t.byAgent[agent] = cur
		return Trigger{}, false, err
	}
	return *cur, true, nil
}

// Lookup returns the active trigger of token, or false for an unknown or
// revoked one (the caller answers both the same way).
func (t *Triggers) Lookup(_ context.Context, token string) (Trigger, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := t.byHash[tokenHash(token)]
	if tr == nil || tr.Status != TriggerActive {
		return Trigger{}, false, nil
	}
	return *tr, true, nil
}

// Reserve records a delivery of trigger id before it is acted on: the
// count, the time and, when delivery is not "", its id. It returns false,
// recording nothing, for a delivery id already seen. Release undoes a
// reservation whose wake failed, so the sender's retry is not a duplicate.
func (t *Triggers) Reserve(_ context.Context, id, delivery string, now time.Time) (first bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := t.byID[id]
	if tr == nil {
		return false, nil
	}
	key := ""
	if delivery != "" {
		key = DeliveryKey(delivery)
		if slices.Contains(tr.RecentDeliveries, key) {
			return false, nil
		}
		tr.RecentDeliveries = append(tr.RecentDeliveries, key)
		if n := len(tr.RecentDeliveries); n > recentDeliveries {
			tr.RecentDeliveries = slices.Clone(tr.RecentDeliveries[n-recentDeliveries:])
		}
	}
	at := now.UTC()
	tr.TriggerCount++
	tr.LastTriggeredAt = &at
	return true, t.saveLocked()
}

// Release forgets a reserved delivery id (see Reserve).
func (t *Triggers) Release(_ context.Context, id, delivery string) error {
	if delivery == "" {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := t.byID[id]
	if tr == nil {
		return nil
	}
	key := DeliveryKey(delivery)
	if i := slices.Index(tr.RecentDeliveries, key); i >= 0 {
		tr.RecentDeliveries = slices.Delete(tr.RecentDeliveries, i, i+1)
		tr.TriggerCount--
		return t.saveLocked()
	}
	return nil
}

// saveLocked writes every record atomically; t.mu is held.
func (t *Triggers) saveLocked() error {
	list := make([]*Trigger, 0, len(t.byID))
	for _, tr := range t.byID {
		list = append(list, tr)
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	tmp := t.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write triggers: %w", err)
	}
	if err := os.Rename(tmp, t.path); err != nil {
		return fmt.Errorf("write triggers: %w", err)
	}
	return nil
}
