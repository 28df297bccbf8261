package memory

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// refPrefix starts every source_ref this package issues; the version lets the format change.
const refPrefix = "mem1."

// refKeyFile is the per-agent secret's file name under the state directory.
const refKeyFile = "memory_ref.key"

// refSigner issues and checks source_refs for one agent.
type refSigner struct {
	agentID string
	key     []byte
}

// loadRefKey reads the agent's source_ref secret from dir, creating it (32 random bytes, 0600) on
// first use. It lives outside the index directory so refs outlive a rebuild.
func loadRefKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, refKeyFile)
	key, err := os.ReadFile(path)
	if err == nil && len(key) == 32 {
		return key, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read source_ref key %s: %w", path, err)
	}
	if err == nil {
		return nil, fmt.Errorf("source_ref key %s holds %d bytes, want 32; remove it to make a new one (older refs stop working)", path, len(key))
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("make source_ref key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make state dir %s: %w", dir, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, key, 0o600); err != nil {
		return nil, fmt.Errorf("write source_ref key: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("write source_ref key: %w", err)
	}
	return key, nil
}

// sign returns the source_ref for kind/key: mem1.<base64 kind\x00key>.<base64 mac>.
func (s refSigner) sign(kind Kind, key string) string {
	payload := string(kind) + "\x00" + key
	enc := base64.RawURLEncoding
	return refPrefix + enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(s.mac(payload))
}

// mac is the HMAC-SHA256 of the agent and payload, cut to 128 bits.
func (s refSigner) mac(payload string) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte(s.agentID))
	h.Write([]byte{0})
	h.Write([]byte(payload))
	return h.Sum(nil)[:16]
}

// open checks ref and returns the kind and key it names, or ErrBadRef.
func (s refSigner) open(ref string) (Kind, string, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(ref), refPrefix)
	if !ok {
		return "", "", ErrBadRef
	}
	p, m, ok := strings.Cut(rest, ".")
	if !ok {
		return "", "", ErrBadRef
	}
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(m)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, s.mac(string(payload))) {
		return "", "", ErrBadRef
	}
	kind, key, ok := strings.Cut(string(payload), "\x00")
	if !ok {
		return "", "", ErrBadRef
	}
	return Kind(kind), key, nil
}
