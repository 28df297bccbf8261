package control

import (
	"encoding/binary"
	"encoding/hex"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procHex encodes ip as /proc/net/tcp does: 32-bit words in host order.
func procHex(ip netip.Addr, port uint16) string {
	raw := ip.AsSlice()
	for i := 0; i < len(raw); i += 4 {
		binary.NativeEndian.PutUint32(raw[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	return strings.ToUpper(hex.EncodeToString(raw)) + ":" + strings.ToUpper(hex.EncodeToString([]byte{byte(port >> 8), byte(port)}))
}

func TestParseProcAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{procHex(netip.MustParseAddr("127.0.0.1"), 8080), "127.0.0.1:8080"},
		{procHex(netip.MustParseAddr("::1"), 7878), "[::1]:7878"},
		{procHex(netip.MustParseAddr("::ffff:127.0.0.1"), 443), "127.0.0.1:443"},
		{procHex(netip.MustParseAddr("fe80::1:2:3:4"), 1), "[fe80::1:2:3:4]:1"},
	}
	for _, tt := range tests {
		got, err := parseProcAddr(tt.in)
		if err != nil || got.String() != tt.want {
			t.Errorf("parseProcAddr(%s) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 { // the kernel's own spelling, on little-endian hosts
		if got, err := parseProcAddr("0100007F:1F90"); err != nil || got.String() != "127.0.0.1:8080" {
			t.Errorf("parseProcAddr(0100007F:1F90) = %v, %v", got, err)
		}
	}
	for _, bad := range []string{"0100007F", "01007F:1F90", "zz00007F:1F90", "0100007F:XYZ"} {
		if _, err := parseProcAddr(bad); err == nil {
			t.Errorf("parseProcAddr(%q) = nil error", bad)
		}
	}
}

// startProcess starts a real process and stops it at cleanup.
func startProcess(t *testing.T, env []string, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

// TestDescendantOf: a child and a grandchild of this process are its
// descendants; this process is neither its own descendant nor its
// child's; a process that is gone is nobody's.
func TestDescendantOf(t *testing.T) {
	self := os.Getpid()
	child := startProcess(t, nil, "sleep", "30")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("sh", "-c", "sleep 30 & echo $! ; wait")
	sh.Stdout = w
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { _ = sh.Process.Kill(); _ = sh.Wait() })
	var buf [32]byte
	n, _ := r.Read(buf[:])
	r.Close()
	grandchild, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", buf[:n], err)
	}
	t.Cleanup(func() { p, _ := os.FindProcess(grandchild); _ = p.Kill() })
	tests := []struct {
		name          string
		pid, ancestor int
		want          bool
	}{
		{"child", child.Process.Pid, self, true},
		{"grandchild", grandchild, self, true},
		{"grandchild of its shell", grandchild, sh.Process.Pid, true},
		{"itself", self, self, false},
		{"its child's", self, child.Process.Pid, false},
		{"a sibling's", grandchild, child.Process.Pid, false},
		{"gone", 1 << 30, self, false},
	}
	for _, tt := range tests {
		if got := descendantOf(tt.pid, tt.ancestor); got != tt.want {
			t.Errorf("%s: descendantOf(%d, %d) = %v, want %v", tt.name, tt.pid, tt.ancestor, got, tt.want)
		}
	}
}

// TestEnvironHas: a process's starting environment, exact entries only.
func TestEnvironHas(t *testing.T) {
	p := startProcess(t, []string{"PATH=" + os.Getenv("PATH"), InstanceEnv + "=abc"}, "sleep", "30")
	pid := p.Process.Pid
	// Start returns once the child is in execve, which can be before the
	// kernel has set up the new program's environment: wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "environ"))
		if err == nil && len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d shows no environment after 10s (%v)", pid, err)
		}
		runtime.Gosched()
	}
	for kv, want := range map[string]bool{InstanceEnv + "=abc": true, InstanceEnv + "=ab": false, InstanceEnv + "=abcd": false, "HOME=/": false} {
		if got := environHas(pid, kv); got != want {
			t.Errorf("environHas(%d, %q) = %v, want %v", pid, kv, got, want)
		}
	}
}

// TestTCPPeer: the client end of a loopback connection is found in the
// kernel's table, owned by our uid and held by this process.
func TestTCPPeer(t *testing.T) {
	for _, network := range []string{"tcp4", "tcp6"} {
		t.Run(network, func(t *testing.T) {
			addr := map[string]string{"tcp4": "127.0.0.1:0", "tcp6": "[::1]:0"}[network]
			l, err := net.Listen(network, addr)
			if err != nil {
				t.Skipf("no %s loopback: %v", network, err)
			}
			defer l.Close()
			c, err := net.Dial(network, l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			s, err := l.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			client := s.RemoteAddr().(*net.TCPAddr).AddrPort()
			server := s.LocalAddr().(*net.TCPAddr).AddrPort()
			uid, pids, ok := tcpPeer(client, server)
			if !ok || uid != os.Getuid() || !slices.Contains(pids, os.Getpid()) {
				t.Fatalf("tcpPeer(%s, %s) = %d %v %v; want uid %d, pid %d", client, server, uid, pids, ok, os.Getuid(), os.Getpid())
			}
			if _, _, ok := tcpPeer(netip.MustParseAddrPort("192.0.2.1:1"), server); ok {
				t.Fatal("tcpPeer found a remote client")
			}
		})
	}
}

// BenchmarkIdentifyTCP is the once-per-connection cost of finding the
// local process behind a loopback TCP client.
func BenchmarkIdentifyTCP(b *testing.B) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		if p := identify(s); !p.known {
			b.Fatal("the loopback client was not identified")
		}
	}
}

// BenchmarkToolProcessCheck is the once-per-connection cost of the
// ancestry and marker checks for a caller that is not a tool process.
func BenchmarkToolProcessCheck(b *testing.B) {
	p := exec.Command("sleep", "30")
	if err := p.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = p.Process.Kill(); _ = p.Wait() }()
	c := newCallers("bench")
	c.self = -1 // nobody's ancestor: the whole chain is walked
	b.ReportAllocs()
	for b.Loop() {
		if why := c.toolProcess(peer{known: true, pids: []int{p.Process.Pid}}); why != "" {
			b.Fatal(why)
		}
	}
}

// TestToolProcessUnfoundLocalCaller: a local caller the process table
// cannot show (it exited after connecting, or nobody holds its socket) is
// refused; a caller that is not local (a remote TCP client) is left to
// the token, and a live caller that is no descendant is served.
func TestToolProcessUnfoundLocalCaller(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	c := newCallers("")
	c.self = -1 // nobody's ancestor
	for _, tc := range []struct {
		name    string
		p       peer
		refused bool
	}{
		{"exited after connecting", peer{known: true, pids: []int{gone.Process.Pid}, local: true}, true},
		{"socket held by nobody", peer{known: true, local: true}, true},
		{"loopback socket gone", peer{local: true}, true},
		{"remote client", peer{}, false},
		{"live caller, not ours", peer{known: true, pids: []int{os.Getpid()}, local: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if why := c.toolProcess(tc.p); (why != "") != tc.refused {
				t.Fatalf("toolProcess(%+v) = %q; want refused %v", tc.p, why, tc.refused)
			}
		})
	}
}
