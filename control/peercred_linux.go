package control

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerCred reads the pid and uid of the process at the other end of c, as
// the kernel recorded them when it connected (SO_PEERCRED).
func peerCred(c *net.UnixConn) (pid, uid int, ok bool) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, 0, false
	}
	_ = raw.Control(func(fd uintptr) {
		if cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); err == nil {
			pid, uid, ok = int(cred.Pid), int(cred.Uid), true
		}
	})
	return pid, uid, ok
}
