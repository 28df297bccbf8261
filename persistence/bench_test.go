package persistence

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

func benchEvent(stream string, i int) messages.Event {
	return messages.Event{
		ID: fmt.Sprintf("evt_%s_%d", stream, i), AgentID: stream,
		Type: messages.EventMessageAdmitted, Version: 1,
		At:      time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC),
		Payload: json.RawMessage(`{"envelope":{"id":"msg_1","kind":"operator_prompt","priority":"normal","body":{"type":"text","text":"check the build and report back"}}}`),
	}
}

// BenchmarkJournalAppend measures durable single-event appends from 100
// concurrent streams: the group commit's throughput.
func BenchmarkJournalAppend(b *testing.B) {
	for _, sync := range []bool{true, false} {
		b.Run(fmt.Sprintf("sync=%v", sync), func(b *testing.B) {
			o := DefaultOptions(b.TempDir())
			o.NoSync = !sync
			s, err := Open(o)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			benchAppend(b, s, 100)
		})
	}
}

func BenchmarkMemJournalAppend(b *testing.B) { benchAppend(b, NewMemStore(), 100) }

func benchAppend(b *testing.B, j Journal, streams int) {
	b.ReportAllocs()
	ctx := context.Background()
	work := make(chan int, streams)
	var wg sync.WaitGroup
	for g := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream := fmt.Sprintf("agent-%03d", g)
			for i := range work {
				if _, err := j.Append(ctx, stream, []messages.Event{benchEvent(stream, i)}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	i := 0
	for b.Loop() {
		work <- i
		i++
	}
	close(work)
	wg.Wait()
}

func BenchmarkDecodeRecord(b *testing.B) {
	body, err := encodeEventBody("agent-1", benchEvent("agent-1", 1))
	if err != nil {
		b.Fatal(err)
	}
	rec := sealRecord(7, body)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeRecord(rec, 7); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeleteOlderSnapshots is what an agent does after each snapshot:
// delete the ones below it, here with an old 256 KiB snapshot kept.
func BenchmarkDeleteOlderSnapshots(b *testing.B) {
	s := openBadger(b, testBadgerOptions(b.TempDir()))
	ctx := context.Background()
	data := make([]byte, 256<<10)
	for seq := uint64(1); seq <= 2; seq++ {
		if err := s.SaveSnapshot(ctx, Snapshot{Stream: "a", Seq: seq * 100, Timestamp: time.Now(), Data: data}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.DeleteSnapshots(ctx, "a", AtOrBelow(99)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamHeads lists the heads of 1,000 streams of ten events,
// each with a header of 600 bytes: the stream reads of an agent listing.
func BenchmarkStreamHeads(b *testing.B) {
	ctx := context.Background()
	o := DefaultOptions(b.TempDir())
	o.NoSync = true
	s, err := Open(o)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := range 1000 {
		stream := fmt.Sprintf("agent-%04d", i)
		evs := make([]messages.Event, 10)
		for k := range evs {
			evs[k] = benchEvent(stream, k)
		}
		if _, err := s.Append(ctx, stream, evs); err != nil {
			b.Fatal(err)
		}
		if err := s.PublishHeader(stream, Header{Seq: 10, Data: make([]byte, 600)}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.Append(ctx, "agent-0000", []messages.Event{benchEvent("agent-0000", 10)}); err != nil {
		b.Fatal(err) // the committer wrote the headers before it
	}
	b.ReportAllocs()
	for b.Loop() {
		if heads, err := s.StreamHeads(ctx); err != nil || len(heads) != 1000 {
			b.Fatalf("StreamHeads() = %d heads, %v; want 1000", len(heads), err)
		}
	}
}
