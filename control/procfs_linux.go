package control

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/holon-actors/holon-actors/procfs"
)

// procRoot is where the kernel's process table is mounted.
const procRoot = procfs.Root

// procTable: the process table is read here, so a local caller that
// cannot be found in it is refused.
const procTable = true

// descendantOf reports whether process pid was started, directly or not,
// by process ancestor (see procfs.DescendantOf).
func descendantOf(pid, ancestor int) bool { return procfs.DescendantOf(pid, ancestor) }

// processExists reports whether pid is in the process table (a zombie
// included: it has not been waited for).
func processExists(pid int) bool {
	_, err := os.Stat(filepath.Join(procRoot, strconv.Itoa(pid)))
	return pid > 0 && err == nil
}

// environHas reports whether process pid started with kv ("NAME=value")
// in its environment.
func environHas(pid int, kv string) bool {
	b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "environ"))
	if err != nil {
		return false
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if string(e) == kv {
			return true
		}
	}
	return false
}

// tcpPeer finds the local processes holding the client end of a TCP
// connection this process accepted: the client's socket has local address
// client and remote address server. It returns the socket owner's uid and
// the pids holding it; ok is false when no local socket matches (a remote
// client, or one already gone).
func tcpPeer(client, server netip.AddrPort) (uid int, pids []int, ok bool) {
	for _, table := range []string{"net/tcp", "net/tcp6"} {
		f, err := os.Open(filepath.Join(procRoot, table))
		if err != nil {
			continue
		}
		uid, inode, found := findTCPSocket(f, client, server)
		f.Close()
		if found && inode == 0 {
			return uid, nil, true // nobody holds it: closed, or in flight between processes
		}
		if found {
			return uid, socketHolders(inode), true
		}
	}
	return 0, nil, false
}

// findTCPSocket scans a /proc/net/tcp{,6} table for the socket whose
// local address is local and remote address remote.
func findTCPSocket(f *os.File, local, remote netip.AddrPort) (uid int, inode uint64, ok bool) {
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 {
			continue
		}
		l, err1 := parseProcAddr(fields[1])
		r, err2 := parseProcAddr(fields[2])
		if err1 != nil || err2 != nil || l != local || r != remote {
			continue
		}
		u, err1 := strconv.Atoi(fields[7])
		in, err2 := strconv.ParseUint(fields[9], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		return u, in, true
	}
	return 0, 0, false
}

// parseProcAddr decodes an address of /proc/net/tcp{,6}: hex address
// bytes in 32-bit words of host byte order, a colon, the port in hex.
// IPv4-mapped IPv6 addresses come back as IPv4.
func parseProcAddr(s string) (netip.AddrPort, error) {
	h, p, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("address %q: no port", s)
	}
	raw, err := hex.DecodeString(h)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("address %q: not 4 or 16 hex bytes", s)
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("address %q: port: %w", s, err)
	}
	for i := 0; i < len(raw); i += 4 { // each word: host order -> network order
		binary.BigEndian.PutUint32(raw[i:], binary.NativeEndian.Uint32(raw[i:]))
	}
	addr, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}

// socketHolders lists the processes with a descriptor on socket inode,
// among those whose descriptors this process may read (its own user's).
func socketHolders(inode uint64) []int {
	want := "socket:[" + strconv.FormatUint(inode, 10) + "]"
	dirs, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		fdDir := filepath.Join(procRoot, d.Name(), "fd")
		fds, err := os.ReadDir(fdDir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if link, err := os.Readlink(filepath.Join(fdDir, fd.Name())); err == nil && link == want {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
