package control

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"time"
)

// TriggerStore keeps the agents' external trigger capabilities: Triggers
// in a node's home for a single node, the PostgreSQL registry beside the
// journal for a cluster (control/pgtriggers), where every node answers for
// every trigger. Implementations are safe for concurrent use.
type TriggerStore interface {
	// Ensure returns agent's active trigger and its token, creating it if
	// it has none; created reports whether it did.
	Ensure(ctx context.Context, agent string, now time.Time) (tr Trigger, token string, created bool, err error)
	// Revoke revokes agent's active trigger; ok is false when it had none.
	Revoke(ctx context.Context, agent string, now time.Time) (tr Trigger, ok bool, err error)
	// Lookup returns the active trigger of token; ok is false for an
	// unknown or a revoked one (the caller answers both the same way).
	Lookup(ctx context.Context, token string) (tr Trigger, ok bool, err error)
	// Reserve records a delivery of trigger id before it is acted on: the
	// count, the time and, when delivery is not "", its id. It returns
	// false, recording nothing, for a delivery id already seen (among the
	// trigger's latest RecentDeliveries).
	Reserve(ctx context.Context, id, delivery string, now time.Time) (first bool, err error)
	// Release undoes a reservation whose wake failed, so the sender's
	// retry is not a duplicate.
	Release(ctx context.Context, id, delivery string) error
}

var _ TriggerStore = (*Triggers)(nil)

// triggerStoreFailed answers a trigger delivery whose store failed: the
// error is logged here, and the caller, who is not authenticated, learns
// only to retry (a database's error names its host and user).
func (s *Server) triggerStoreFailed(w http.ResponseWriter, err error) {
	s.cfg.Log.Error().Err(err).Msg("trigger delivery: the trigger store failed")
	writeError(w, errorf(http.StatusServiceUnavailable, KindUnavailable, "retry later", "the trigger store did not answer"))
}

// RecentDeliveries bounds the delivery ids a trigger remembers.
const RecentDeliveries = recentDeliveries

// TriggerKeyBytes is the size of the key trigger tokens are derived from.
const TriggerKeyBytes = triggerKeyBytes

// TriggerToken derives trigger id's token from key: the same key and id
// give the same token, so the runtime can hand out the URL again.
func TriggerToken(key []byte, id string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("holon-actors external trigger\x00" + id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// TriggerTokenHash is what a store keeps of a token: its SHA-256, hex.
func TriggerTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// DeliveryKey is what a store keeps of a delivery id.
func DeliveryKey(delivery string) string { return TriggerTokenHash(delivery)[:24] }
