package main

import (
	binenc "encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
	"github.com/holon-actors/holon-actors/persistence"
)

// flipEvent flips a byte of event seq of stream in the Badger store under
// home, as bit rot would (persistence's key layout: 'r' stream 0x00 'e'
// seq).
func flipEvent(t *testing.T, home, stream string, seq uint64) {
	t.Helper()
	db, err := badger.Open(badger.DefaultOptions(persistence.DataDir(home)).WithLogger(nil))
	if err != nil {
		t.Fatalf("open badger: %v", err)
	}
	defer db.Close()
	key := binenc.BigEndian.AppendUint64(append(append([]byte{'r'}, stream...), 0, 'e'), seq)
	err = db.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return err
		}
		v[len(v)-2] ^= 0x5a
		return txn.Set(key, v)
	})
	if err != nil {
		t.Fatalf("flip %s seq %d: %v", stream, seq, err)
	}
}

// doctorJSON runs doctor --json and decodes its report.
func doctorJSON(t *testing.T, home string) (int, persistence.Report) {
	t.Helper()
	code, out, errOut := client(t, home, "--json", "doctor")
	var r persistence.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("doctor --json = %d %q %q: %v", code, out, errOut, err)
	}
	return code, r
}

func streamOf(r persistence.Report, id string) persistence.StreamReport {
	for _, s := range r.Streams {
		if s.Stream == id {
			return s
		}
	}
	return persistence.StreamReport{}
}

// TestDamagedJournalQuarantinesOneAgent: one agent's journal fails its
// checksum in the middle. doctor finds it offline; the runtime becomes
// ready anyway, serves the other agent, refuses the damaged one with a
// clear error, and reports it in status, daemon status and a webhook
// notification; doctor then lists it quarantined.
func TestDamagedJournalQuarantinesOneAgent(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, _, errOut := client(t, home, "agents", "create", "victim"); code != 0 {
		t.Fatalf("agents create = %d %q", code, errOut)
	}
	for _, id := range []string{"main", "victim"} {
		if code, out, errOut := client(t, home, "--agent", id, "prompt", "--wait", "hello"); code != 0 {
			t.Fatalf("prompt %s = %d %q %q", id, code, out, errOut)
		}
	}
	if code, _, errOut := client(t, home, "doctor"); code != exitLocked || !strings.Contains(errOut, "is using") {
		t.Fatalf("doctor while running = %d %q, want exit %d naming the owner", code, errOut, exitLocked)
	}
	d.kill() // no passivation: recovery reads every journal

	code, rep := doctorJSON(t, home)
	if code != 0 || !rep.Healthy || streamOf(rep, "victim").Status != persistence.StreamOK {
		t.Fatalf("doctor on the undamaged directory = %d %+v", code, rep)
	}
	flipEvent(t, home, "victim", 2)
	code, rep = doctorJSON(t, home)
	if v := streamOf(rep, "victim"); code != exitFailure || rep.Healthy || v.Status != persistence.StreamDamaged ||
		!slices.Equal(v.Corrupt, []uint64{2}) || v.Repair == "" || streamOf(rep, "main").Status != persistence.StreamOK {
		t.Fatalf("doctor on the damaged directory = %d %+v", code, rep)
	}

	secret := []byte(strings.Repeat("s", 40))
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, secret, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan messages.OperatorNotification, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var in notify.Intent
		if err := json.Unmarshal(body, &in); err != nil {
			t.Errorf("delivery body %q: %v", body, err)
		}
		got <- in.Notification
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	d = startRun(t, home, "--model", "scripted", "--script", script, "--notify-webhook", srv.URL, "--notify-secret-file", secretFile)

	if code, out, errOut := client(t, home, "prompt", "--wait", "still there?"); code != 0 || !strings.Contains(out, "still there?") {
		t.Fatalf("prompt main = %d %q %q", code, out, errOut)
	}
	code, _, errOut := client(t, home, "--agent", "victim", "prompt", "hi")
	if code != exitFailure || !strings.Contains(errOut, "quarantined") || !strings.Contains(errOut, "doctor") {
		t.Fatalf("prompt victim = %d %q, want a quarantine error with a hint", code, errOut)
	}
	code, out, errOut := client(t, home, "--json", "daemon", "status")
	var st daemonStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("daemon status = %d %q %q: %v", code, out, errOut, err)
	}
	if st.Store == nil || len(st.Store.Quarantined) != 1 || st.Store.Quarantined[0].Stream != "victim" || st.Store.Quarantined[0].Seq != 2 {
		t.Fatalf("daemon status store = %+v, want victim quarantined at seq 2", st.Store)
	}
	if code, out, _ := client(t, home, "daemon", "status"); code != 0 || !strings.Contains(out, "quarantined agent") {
		t.Fatalf("daemon status table = %d %q", code, out)
	}
	deadline := time.After(e2eWait)
	for found := false; !found; {
		select {
		case n := <-got:
			found = n.Reason == messages.NotifyJournalQuarantined && n.RequestedByAgentID == "victim"
		case <-deadline:
			t.Fatalf("no journal_quarantined notification:\n%s", d.output())
		}
	}
	d.stop()
	_, rep = doctorJSON(t, home)
	if v := streamOf(rep, "victim"); v.Status != persistence.StreamQuarantined || v.Quarantine == nil {
		t.Fatalf("doctor after the run: victim = %+v", v)
	}
}

// TestRunRefusesDamagedTableFile: a truncated table file, on which the
// storage engine panics, ends run with one sentence and a hint, no stack
// trace; doctor says the same.
func TestRunRefusesDamagedTableFile(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, _, errOut := client(t, home, "prompt", "--wait", "hello"); code != 0 {
		t.Fatalf("prompt = %d %q", code, errOut)
	}
	d.stop() // flushes the journal into table files
	tables, _ := filepath.Glob(filepath.Join(persistence.DataDir(home), "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no table file after a clean stop")
	}
	for _, f := range tables {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(f, st.Size()/2); err != nil {
			t.Fatal(err)
		}
	}
	code, _, errOut := client(t, home, "run", "--model", "scripted", "--script", script)
	if code != exitFailure || !strings.Contains(errOut, "data directory damaged") ||
		!strings.Contains(errOut, "Hint: run 'holon-actors doctor'") || strings.Contains(errOut, "goroutine ") {
		t.Fatalf("run on a truncated table = %d %q", code, errOut)
	}
	code, rep := doctorJSON(t, home)
	if code != exitFailure || rep.OpenError == "" || rep.Healthy {
		t.Fatalf("doctor = %d %+v", code, rep)
	}
}

// TestDamageBehindSnapshotDoctorTellsWhen: after a clean stop every idle
// agent's snapshot covers its whole journal, so a start resumes it from
// that snapshot and reads none of its history: a record damaged in that
// history is not seen by the start. doctor must not promise a quarantine
// at the next start then; what it says is what the runtime does: the
// background scrub after the start finds it, with no read by the operator,
// quarantines the agent and reports it in daemon status.
func TestDamageBehindSnapshotDoctorTellsWhen(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, _, errOut := client(t, home, "agents", "create", "victim"); code != 0 {
		t.Fatalf("agents create = %d %q", code, errOut)
	}
	for range 2 {
		if code, out, errOut := client(t, home, "--agent", "victim", "prompt", "--wait", "hello"); code != 0 {
			t.Fatalf("prompt victim = %d %q %q", code, out, errOut)
		}
	}
	d.stop() // passivates the idle agents: their snapshots cover their journals

	flipEvent(t, home, "victim", 2)
	code, rep := doctorJSON(t, home)
	v := streamOf(rep, "victim")
	if code != exitFailure || v.Status != persistence.StreamDamaged || !slices.Equal(v.Corrupt, []uint64{2}) || v.SnapshotSeq < 2 {
		t.Fatalf("doctor = %d %+v, want victim damaged at seq 2 behind its snapshot", code, v)
	}
	if strings.Contains(v.Repair, "at the next start (") || !strings.Contains(v.Repair, "background scrub after the next start") {
		t.Fatalf("doctor repair = %q, want when the damage is found (by the background scrub after the next start), not a quarantine by the start", v.Repair)
	}

	startRun(t, home, "--model", "scripted", "--script", script)
	daemonStore := func() *control.StoreHealth {
		t.Helper()
		code, out, errOut := client(t, home, "--json", "daemon", "status")
		var st daemonStatus
		if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
			t.Fatalf("daemon status = %d %q %q: %v", code, out, errOut, err)
		}
		return st.Store
	}
	waitFor(t, func() bool {
		s := daemonStore()
		return s != nil && len(s.Quarantined) == 1 && s.Quarantined[0].Stream == "victim" && s.Quarantined[0].Seq == 2
	}, "victim quarantined at seq 2 by the background scrub in daemon status")
	code, _, errOut := client(t, home, "--agent", "victim", "prompt", "still there?")
	if code != exitFailure || !strings.Contains(errOut, "quarantined") || !strings.Contains(errOut, "doctor") {
		t.Fatalf("prompt victim = %d %q, want a quarantine error with a hint", code, errOut)
	}
	if code, out, errOut := client(t, home, "prompt", "--wait", "still there?"); code != 0 || !strings.Contains(out, "still there?") {
		t.Fatalf("prompt main = %d %q %q, want the healthy agent served", code, out, errOut)
	}
}

// TestScrubIntervalZeroDisablesScrub: with --scrub-interval 0 the runtime
// reads no history on its own, as before; a negative interval is refused
// with a usage error that says what to give.
func TestScrubIntervalZeroDisablesScrub(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	if code, _, errOut := client(t, home, "run", "--model", "scripted", "--script", script, "--scrub-interval=-1s"); code != exitUsage ||
		!strings.Contains(errOut, "--scrub-interval -1s is negative") {
		t.Fatalf("run --scrub-interval -1s = %d %q, want a usage error", code, errOut)
	}
	d := startRun(t, home, "--model", "scripted", "--script", script)
	if code, out, errOut := client(t, home, "prompt", "--wait", "hello"); code != 0 {
		t.Fatalf("prompt = %d %q %q", code, out, errOut)
	}
	d.stop()
	flipEvent(t, home, "main", 2)
	d = startRun(t, home, "--model", "scripted", "--script", script, "--scrub-interval", "0")
	if code, out, errOut := client(t, home, "prompt", "--wait", "still there?"); code != 0 || !strings.Contains(out, "still there?") {
		t.Fatalf("prompt = %d %q %q, want served from its snapshot with no scrub", code, out, errOut)
	}
	code, out, errOut := client(t, home, "--json", "daemon", "status")
	var st daemonStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("daemon status = %d %q %q: %v", code, out, errOut, err)
	}
	if st.Store != nil && len(st.Store.Quarantined) > 0 {
		t.Fatalf("daemon status store = %+v, want nothing found with the scrub off", st.Store)
	}
	d.stop()
}
