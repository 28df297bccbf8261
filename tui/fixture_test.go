package tui

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/testkit"
)

// updating reports -update, the flag the golden helpers of teatest
// define: it rewrites the golden screens.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii) // golden screens hold text, no colour codes
	os.Exit(m.Run())
}

// screenWait bounds every wait on the screen; it is a failure bound only.
const screenWait = 30 * time.Second

// fixture is a harness runtime served on a real unix socket, and a
// client of it.
type fixture struct {
	h    *testkit.Harness
	c    *control.Client
	sock string
	srv  *control.Server
	done chan error
}

func newFixture(t testing.TB, steps ...testkit.Step) *fixture {
	t.Helper()
	h := testkit.New(t, steps...)
	if _, err := h.Runtime.Info(context.Background(), "main"); err != nil {
		t.Fatal(err)
	}
	f := &fixture{h: h, sock: filepath.Join(t.TempDir(), "run", "control.sock")}
	f.serve(t)
	f.c = control.NewUnixClient(f.sock)
	t.Cleanup(func() {
		f.c.Close()
		f.close(t)
	})
	return f
}

// serve starts a control server on the fixture's socket.
func (f *fixture) serve(t testing.TB) {
	t.Helper()
	f.srv = control.NewServer(control.Config{Runtime: f.h.Runtime, Store: f.h.Store(), Clock: f.h.Clock, Log: zerolog.Nop(),
		Info: control.RuntimeInfo{PID: os.Getpid(), HomeDir: "/srv/holon", SocketPath: f.sock, DefaultAgentID: "main", Version: "test"}})
	l, err := control.ListenUnix(f.sock)
	if err != nil {
		t.Fatal(err)
	}
	f.done = make(chan error, 1)
	go func() { f.done <- f.srv.Serve(l) }()
}

// close stops the control server (its event streams end); idempotent.
func (f *fixture) close(t testing.TB) {
	t.Helper()
	if f.srv == nil {
		return
	}
	if err := f.srv.Close(context.Background()); err != nil {
		t.Errorf("close server: %v", err)
	}
	if err := <-f.done; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve = %v, want ErrServerClosed", err)
	}
	f.srv = nil
}

// console runs a console on the fixture at 80×24.
func (f *fixture) console(t *testing.T, o Options) (*screen, *Model) {
	t.Helper()
	if o.Retry == 0 {
		o.Retry = 10 * time.Millisecond
	}
	m := New(context.Background(), f.c, o)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	sc := &screen{tm: tm}
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(screenWait))
		m.Close()
	})
	return sc, m
}

// screen accumulates what a console drew, for waits on it.
type screen struct {
	tm  *teatest.TestModel
	all []byte
}

// waitFor polls the console's output until cond holds on all it drew.
func (s *screen) waitFor(t *testing.T, what string, cond func(all []byte) bool) {
	t.Helper()
	deadline := time.Now().Add(screenWait)
	buf := make([]byte, 64<<10)
	for {
		for {
			n, _ := s.tm.Output().Read(buf)
			if n == 0 {
				break
			}
			s.all = append(s.all, buf[:n]...)
		}
		if cond(s.all) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the console did not draw %s within %s; it drew:\n%s", what, screenWait, s.all)
		}
		<-time.After(5 * time.Millisecond) // polling the program's output buffer
	}
}

// wait waits until the console has drawn every one of texts since mark
// (an offset into all, 0 for ever), and returns the offset past them.
func (s *screen) wait(t *testing.T, mark int, texts ...string) int {
	t.Helper()
	end := mark
	s.waitFor(t, strings.Join(texts, ", "), func(all []byte) bool {
		end = mark
		for _, x := range texts {
			i := bytes.Index(all[mark:], []byte(x))
			if i < 0 {
				return false
			}
			end = max(end, mark+i+len(x))
		}
		return true
	})
	return end
}

// settled waits until the last state the status line drew is state.
func (s *screen) settled(t *testing.T, state string) {
	t.Helper()
	s.waitFor(t, "state "+state, func(all []byte) bool {
		i := bytes.LastIndex(all, []byte(state+" "))
		for _, other := range []string{"awake_running", "awake_idle", "suspended_awaiting_input", "paused", "stopped"} {
			if other != state && bytes.LastIndex(all, []byte(other+" ")) > i {
				return false
			}
		}
		return i >= 0
	})
}

// typeLine types text into the composer and presses Enter.
func (s *screen) typeLine(text string) {
	s.tm.Type(text)
	s.tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
}

// key sends one special key.
func (s *screen) key(k tea.KeyType) { s.tm.Send(tea.KeyMsg{Type: k}) }

// finalScreen quits the console and returns its last screen.
func (s *screen) final(t *testing.T) (*Model, string) {
	t.Helper()
	if err := s.tm.Quit(); err != nil {
		t.Fatal(err)
	}
	m := s.tm.FinalModel(t, teatest.WithFinalTimeout(screenWait)).(*Model)
	return m, m.View()
}

var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`msg_[0-9A-Z]+`), "msg_ID"},
	{regexp.MustCompile(`susp_[0-9A-Z]+`), "susp_ID"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`), "TIME"},
}

// checkScreen compares a screen with testdata/<name>.golden, its home
// directory and ids replaced; -update rewrites the file.
func checkScreen(t *testing.T, f *fixture, name, screen string) {
	t.Helper()
	screen = strings.ReplaceAll(screen, f.h.Home, "HOME")
	for _, v := range volatile {
		screen = v.re.ReplaceAllString(screen, v.with)
	}
	testkit.CheckFile(t, filepath.Join("testdata", name+".golden"), []byte(screen), updating())
}
