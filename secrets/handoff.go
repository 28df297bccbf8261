package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
)

// HandoffEnv names, in the background runtime's environment, the file
// descriptor its credentials arrive on.
const HandoffEnv = "HOLON_SECRETS_FD"

// maxHandoff bounds what Receive reads: credentials, not data.
const maxHandoff = 1 << 20

// ErrHandoff is returned when the credentials passed by `daemon start`
// cannot be read.
var ErrHandoff = errors.New("secrets: credential handoff failed")

// Handoff passes vars to a child process through an inherited pipe. The
// child's environment only names the descriptor (HandoffEnv), so the
// values are in no /proc/<pid>/environ.
type Handoff struct {
	w    *os.File // our end; written and closed by Send
	r    *os.File // the child's end; closed by Send once the child has it
	vars map[string]string
}

// NewHandoff prepares cmd (not yet started) to receive vars: it adds the
// pipe to cmd.ExtraFiles and HandoffEnv to cmd.Env (which must be set).
// Call Send after cmd.Start, or Close when the start failed.
func NewHandoff(cmd *exec.Cmd, vars map[string]string) (*Handoff, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("credential handoff pipe: %w", err)
	}
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	cmd.Env = append(cmd.Env, HandoffEnv+"="+strconv.Itoa(fd))
	return &Handoff{w: w, r: r, vars: vars}, nil
}

// Send writes the credentials to the started child and closes both ends.
func (h *Handoff) Send() error {
	_ = h.r.Close() // the child holds its own copy
	b, err := json.Marshal(h.vars)
	if err == nil {
		_, err = h.w.Write(b)
	}
	if cerr := h.w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("send credentials to the runtime: %w", err)
	}
	return nil
}

// Close releases the pipe when the child never started.
func (h *Handoff) Close() {
	_ = h.r.Close()
	_ = h.w.Close()
}

// Receive reads the credentials a Handoff sent, when HandoffEnv is set,
// and removes HandoffEnv from this process's environment so that nothing
// it starts inherits the descriptor's name. It returns nil when there was
// no handoff.
func Receive() (map[string]string, error) {
	v, ok := os.LookupEnv(HandoffEnv)
	if !ok {
		return nil, nil
	}
	_ = os.Unsetenv(HandoffEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%w: %s=%q is not an inherited descriptor", ErrHandoff, HandoffEnv, v)
	}
	f := os.NewFile(uintptr(fd), "credentials")
	if f == nil {
		return nil, fmt.Errorf("%w: descriptor %d is not open", ErrHandoff, fd)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHandoff))
	if err != nil {
		return nil, fmt.Errorf("%w: read descriptor %d: %v", ErrHandoff, fd, err)
	}
	vars := map[string]string{}
	if err := json.Unmarshal(b, &vars); err != nil {
		return nil, fmt.Errorf("%w: descriptor %d: %v", ErrHandoff, fd, err)
	}
	return vars, nil
}
