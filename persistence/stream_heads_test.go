package persistence

import (
	"context"
	"reflect"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// TestStreamHeads: one read lists every stream with its highest seq and its
// header — current, stale, damaged (none) or missing — sorted by stream,
// and a header whose stream has no journal is not listed.
func TestStreamHeads(t *testing.T) {
	ctx := context.Background()
	s := openBadger(t, testBadgerOptions(t.TempDir()))
	var _ HeadLister = s
	mustAppend(t, s, "c", testEvents("c", 1, 2))
	mustAppend(t, s, "a", testEvents("a", 1, 3))
	mustAppend(t, s, "b", testEvents("b", 1, 1))
	mustAppend(t, s, "d", testEvents("d", 1, 1))
	for stream, h := range map[string]Header{"a": {Seq: 3, Data: []byte("a3")}, "c": {Seq: 1, Data: []byte("c1")},
		"d": {Seq: 1, Data: []byte("d1")}, "ghost": {Seq: 9, Data: []byte("g")}} {
		if err := s.PublishHeader(stream, h); err != nil {
			t.Fatal(err)
		}
	}
	mustAppend(t, s, "e", testEvents("e", 1, 1)) // the committer took the headers first
	bad := encodeHeader(Header{Seq: 1, Data: []byte("d1")})
	bad[len(bad)-1] ^= 0xff
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(headerKey("d"), bad) }); err != nil {
		t.Fatal(err)
	}
	got, err := s.StreamHeads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []StreamHead{
		{Stream: "a", Highest: 3, Header: Header{Seq: 3, Data: []byte("a3")}, HasHeader: true},
		{Stream: "b", Highest: 1},
		{Stream: "c", Highest: 2, Header: Header{Seq: 1, Data: []byte("c1")}, HasHeader: true},
		{Stream: "d", Highest: 1},
		{Stream: "e", Highest: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("StreamHeads() =\n%+v\nwant\n%+v", got, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StreamHeads(ctx); err == nil {
		t.Fatal("StreamHeads() on a closed store: no error")
	}
}
