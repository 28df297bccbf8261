package control_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestEventsLast: ?last=N serves the newest N events oldest first, with
// next_after at the newest, walks back over events retention deleted, and
// refuses a bad N or N with after, saying what to do.
func TestEventsLast(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	appendReceipts(t, f, "busy", 30, 10)
	page, err := f.c.LastEvents(ctx, "busy", 5)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	for _, ev := range page.Events {
		seqs = append(seqs, ev.Provenance.EventSeq)
	}
	if len(seqs) != 5 || seqs[0] != 26 || seqs[4] != 30 || page.NextAfter != 30 || page.HighestSeq != 30 {
		t.Fatalf("last 5 of 30 = %v, next_after %d, highest %d; want 26..30, 30, 30", seqs, page.NextAfter, page.HighestSeq)
	}
	if err := f.h.Store().DeleteUpTo(ctx, "busy", 27); err != nil {
		t.Fatal(err)
	}
	if page, err = f.c.LastEvents(ctx, "busy", 5); err != nil || len(page.Events) != 3 || page.Events[0].Provenance.EventSeq != 28 {
		t.Fatalf("last 5 after retention kept 28..30 = %d events, %v; want 28..30", len(page.Events), err)
	}
	_, err = f.c.LastEvents(ctx, "ghost", 5)
	apiError(t, err, http.StatusNotFound, control.KindNotFound)
	for _, path := range []string{"/agents/busy/events?last=0", "/agents/busy/events?last=x",
		"/agents/busy/events?last=1001", "/agents/busy/events?last=3&after=2",
		"/agents/main/transcript?last=-1", "/agents/main/briefs?last=many"} {
		resp, body := f.raw(t, "GET", path, "")
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"hint"`) {
			t.Errorf("GET %s = HTTP %d %s; want 400 with a hint", path, resp.StatusCode, body)
		}
	}
}

// TestEventsLastBoundedBySize: the newest events of a page past
// MaxPageBytes are served, the oldest dropped.
func TestEventsLastBoundedBySize(t *testing.T) {
	f := newFixture(t)
	appendReceipts(t, f, "big", 6, 1<<20+1)
	page, err := f.c.LastEvents(context.Background(), "big", 6)
	if err != nil {
		t.Fatal(err)
	}
	want := control.MaxPageBytes>>20 - 1
	if len(page.Events) != want || page.Events[len(page.Events)-1].Provenance.EventSeq != 6 {
		t.Fatalf("last 6 of six 1 MiB events = %d ending at %d; want the newest %d ending at 6",
			len(page.Events), page.Events[len(page.Events)-1].Provenance.EventSeq, want)
	}
}

// TestTranscriptAndBriefsLast: ?last=N keeps the newest N.
func TestTranscriptAndBriefsLast(t *testing.T) {
	f := newFixture(t, testkit.Reply("one"), testkit.Reply("two"), testkit.Reply("three"))
	ctx := context.Background()
	for i, text := range []string{"a", "b", "c"} {
		if _, err := f.c.Prompt(ctx, "main", control.PromptRequest{Text: text}); err != nil {
			t.Fatal(err)
		}
		f.h.WaitEvent("main", testkit.NthOfType(messages.EventBriefRecorded, i+1))
	}
	briefs, err := f.c.BriefsLast(ctx, "main", 2)
	if err != nil || len(briefs) != 2 || briefs[1].Text != "three" || briefs[0].Text != "two" {
		t.Fatalf("last 2 briefs = %+v, %v; want two, three", briefs, err)
	}
	all, err := f.c.TranscriptLast(ctx, "main", 0)
	if err != nil {
		t.Fatal(err)
	}
	items, err := f.c.TranscriptLast(ctx, "main", 1)
	if err != nil || len(items) != 1 || len(all) < 3 || items[0].Text != all[len(all)-1].Text {
		t.Fatalf("last transcript item = %+v, %v; want the newest of %d", items, err, len(all))
	}
}
