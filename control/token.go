package control

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// TokenFileName is the file, in the runtime's run directory, that holds
// the TCP control token the runtime generated because none was given.
const TokenFileName = "control.token"

// ReadTokenFile reads a control token from path: at least MinTokenLen
// characters, in a file no other user may read or write.
func ReadTokenFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("control token file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("control token file %s is %04o, open to other users: chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("control token file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if len(tok) < MinTokenLen {
		return "", fmt.Errorf("control token file %s holds %d characters, want at least %d (e.g. openssl rand -hex 32 > %s)",
			path, len(tok), MinTokenLen, path)
	}
	return tok, nil
}

// LoadOrCreateToken returns the token in path, generating one (256
// random bits, hex) into a new 0600 file when there is none; created
// says which. The directory must exist. An existing file is checked as
// ReadTokenFile does, so a token another user could read is refused
// rather than served.
func LoadOrCreateToken(path string) (tok string, created bool, err error) {
	tok, err = ReadTokenFile(path)
	if !errors.Is(err, os.ErrNotExist) {
		return tok, false, err
	}
	raw := make([]byte, 32)
	_, _ = rand.Read(raw) // never fails (crypto/rand)
	tok = hex.EncodeToString(raw)
	tmp, err := os.CreateTemp(filepath.Dir(path), TokenFileName+".*")
	if err != nil {
		return "", false, fmt.Errorf("generate control token: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	// CreateTemp makes the file 0600: never readable by others, not even
	// for a moment.
	_, werr := tmp.WriteString(tok + "\n")
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", false, fmt.Errorf("generate control token: %w", werr)
	}
	if err := os.Link(tmp.Name(), path); err != nil { // fails if another start made one meanwhile
		return "", false, fmt.Errorf("generate control token %s: %w", path, err)
	}
	return tok, true, nil
}
