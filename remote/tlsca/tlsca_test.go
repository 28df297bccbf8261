package tlsca_test

import (
	"crypto/tls"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// newCA makes a CA in a temp dir with a member and a client certificate.
func newCA(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ca")
	now := time.Now()
	if err := tlsca.Init(dir, now); err != nil {
		t.Fatal(err)
	}
	for _, r := range []tlsca.Role{tlsca.RoleMember, tlsca.RoleClient} {
		if err := tlsca.Issue(dir, tlsca.IssueRequest{Role: r, Name: "n-" + string(r), Hosts: []string{"127.0.0.1", "localhost"}, Now: now}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestInitAndIssueWriteKeysPrivate(t *testing.T) {
	dir := newCA(t)
	for _, f := range []string{tlsca.CAKeyFile, "member.key", "client.key"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode = %#o, want 0600", f, fi.Mode().Perm())
		}
	}
	if err := tlsca.Init(dir, time.Now()); !errors.Is(err, tlsca.ErrExists) {
		t.Errorf("Init again = %v, want ErrExists", err)
	}
	if err := tlsca.Issue(dir, tlsca.IssueRequest{Role: tlsca.RoleClient, Name: "again", Now: time.Now()}); !errors.Is(err, tlsca.ErrExists) {
		t.Errorf("Issue again = %v, want ErrExists", err)
	}
	if err := tlsca.Issue(dir, tlsca.IssueRequest{Role: "admin", Name: "x", Out: t.TempDir(), Now: time.Now()}); !errors.Is(err, tlsca.ErrBadRole) {
		t.Errorf("Issue admin = %v, want ErrBadRole", err)
	}
}

func TestIssueToAnotherDirCopiesTheCA(t *testing.T) {
	dir, out := newCA(t), filepath.Join(t.TempDir(), "alice")
	if err := tlsca.Issue(dir, tlsca.IssueRequest{Role: tlsca.RoleClient, Name: "alice", Out: out, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	c, err := tlsca.Load(out, tlsca.RoleClient)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "alice" || c.Role != tlsca.RoleClient {
		t.Errorf("Load = %s/%s, want alice/client", c.Name, c.Role)
	}
	if _, err := os.Stat(filepath.Join(out, tlsca.CAKeyFile)); err == nil {
		t.Error("the CA key was copied out")
	}
}

func TestLoadRefuses(t *testing.T) {
	dir := newCA(t)
	if err := os.Chmod(filepath.Join(dir, "client.key"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := tlsca.Load(dir, tlsca.RoleClient); !errors.Is(err, tlsca.ErrKeyExposed) {
		t.Errorf("Load with a 0644 key = %v, want ErrKeyExposed", err)
	}
	// A client certificate renamed as the member's is not a member.
	other := t.TempDir()
	for from, to := range map[string]string{"ca.crt": "ca.crt", "client.crt": "member.crt", "client.key": "member.key"} {
		data, err := os.ReadFile(filepath.Join(dir, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, to), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tlsca.Load(other, tlsca.RoleMember); !errors.Is(err, tlsca.ErrBadRole) {
		t.Errorf("Load of a client cert as member = %v, want ErrBadRole", err)
	}
}

// handshake serves one TLS connection with srv and dials it with cli; it
// returns the dialer's error (or the server's, when the dialer saw none).
func handshake(t *testing.T, srv, cli *tls.Config) error {
	t.Helper()
	l, err := tls.Listen("tcp", "127.0.0.1:0", srv)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan error, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		err = c.(*tls.Conn).Handshake()
		if err == nil {
			_, err = c.Write([]byte("ok"))
		}
		done <- err
	}()
	c, err := tls.Dial("tcp", l.Addr().String(), cli)
	if err == nil {
		_, err = io.ReadFull(c, make([]byte, 2)) // TLS 1.3 reports a refused client cert on read
		c.Close()
	}
	serr := <-done
	if err == nil {
		err = serr
	}
	return err
}

func TestMutualTLS(t *testing.T) {
	dir := newCA(t)
	member, err := tlsca.Load(dir, tlsca.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	client, err := tlsca.Load(dir, tlsca.RoleClient)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := tlsca.Load(newCA(t), tlsca.RoleClient) // another CA's client
	if err != nil {
		t.Fatal(err)
	}
	noCert := &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true}
	tls12 := member.ClientConfig(tlsca.RoleMember)
	tls12.MinVersion, tls12.MaxVersion = tls.VersionTLS12, tls.VersionTLS12
	tests := []struct {
		name    string
		srv     *tls.Config
		cli     *tls.Config
		wantErr string
	}{
		{"client to node", member.ServerConfig(tlsca.RoleMember, tlsca.RoleClient), client.ClientConfig(tlsca.RoleMember), ""},
		{"member to node", member.ServerConfig(tlsca.RoleMember, tlsca.RoleClient), member.ClientConfig(tlsca.RoleMember), ""},
		{"no client certificate", member.ServerConfig(tlsca.RoleMember, tlsca.RoleClient), noCert, "certificate required"},
		{"another CA's client", member.ServerConfig(tlsca.RoleMember, tlsca.RoleClient), stranger.ClientConfig(tlsca.RoleMember), "certificate"},
		{"client refused where only members may come", member.ServerConfig(tlsca.RoleMember), client.ClientConfig(tlsca.RoleMember), "bad certificate"},
		{"client posing as a node", client.ServerConfig(tlsca.RoleMember, tlsca.RoleClient), client.ClientConfig(tlsca.RoleMember), "not accepted"},
		{"TLS 1.2", member.ServerConfig(tlsca.RoleMember), tls12, "protocol version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := handshake(t, tc.srv, tc.cli)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("handshake = %v, want success", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("handshake = %v, want an error with %q", err, tc.wantErr)
			}
		})
	}
}

func TestRoleOf(t *testing.T) {
	if _, err := tlsca.ParseRole("admin"); !errors.Is(err, tlsca.ErrBadRole) {
		t.Errorf("ParseRole(admin) = %v, want ErrBadRole", err)
	}
}
