package messages_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

// goldenEvent wraps p as the event stored in testdata/events/<type>.json,
// with a fixed id and sequence number.
func goldenEvent(t *testing.T, seq uint64, p messages.Payload) messages.Event {
	t.Helper()
	e, err := messages.NewEvent("main", t0, p)
	if err != nil {
		t.Fatalf("NewEvent(%s): %v", p.EventType(), err)
	}
	e.ID = "evt_" + strings.ToUpper(strings.ReplaceAll(string(p.EventType()), "_", ""))
	e.Seq = seq
	return e
}

func TestEventGolden(t *testing.T) {
	for i, p := range samplePayloads() {
		t.Run(string(p.EventType()), func(t *testing.T) {
			e := goldenEvent(t, uint64(i+1), p)
			checkGolden(t, filepath.Join("testdata", "events", string(p.EventType())+".json"), e)
			got, err := e.Decode()
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("Decode = %#v\nwant %#v", got, p)
			}
		})
	}
}

func TestPayloadRoundTrip(t *testing.T) {
	for _, p := range samplePayloads() {
		t.Run(string(p.EventType()), func(t *testing.T) {
			checkRoundTripAny(t, p)
		})
	}
}

// checkRoundTripAny round-trips p through JSON as its concrete type.
func checkRoundTripAny(t *testing.T, p messages.Payload) {
	t.Helper()
	canon := mustMarshal(t, p)
	back := reflect.New(reflect.TypeOf(p))
	if err := jsonUnmarshal(canon, back.Interface()); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if !reflect.DeepEqual(back.Elem().Interface(), p) {
		t.Errorf("round trip = %#v, want %#v", back.Elem().Interface(), p)
	}
	if again := mustMarshal(t, back.Elem().Interface()); string(again) != string(canon) {
		t.Errorf("re-encoding = %s, want %s", again, canon)
	}
}

func TestSamplePayloadsCoverEveryEventType(t *testing.T) {
	var got []messages.EventType
	for _, p := range samplePayloads() {
		got = append(got, p.EventType())
	}
	slices.Sort(got)
	if want := messages.EventTypes(); !slices.Equal(got, want) {
		t.Errorf("sample payload types = %v\nwant every event type %v", got, want)
	}
}

func TestPayloadRegistryMatchesEventVersions(t *testing.T) {
	got := messages.PayloadDecoderTypes()
	slices.Sort(got)
	if want := messages.EventTypes(); !slices.Equal(got, want) {
		t.Errorf("decoders registered for %v\nwant exactly %v", got, want)
	}
}

func TestEventTypes(t *testing.T) {
	ts := messages.EventTypes()
	if len(ts) != 50 || !slices.IsSorted(ts) {
		t.Errorf("EventTypes() = %v, want the 50 types sorted", ts)
	}
	for _, typ := range ts {
		if !typ.Valid() || typ.Version() == 0 {
			t.Errorf("%s: Valid() = %v, Version() = %d", typ, typ.Valid(), typ.Version())
		}
	}
	if !messages.EventTurnTerminal.Supports(1) || messages.EventTurnTerminal.Supports(0) || messages.EventTurnTerminal.Supports(2) {
		t.Error("Supports disagrees with the newest version 1")
	}
	if messages.EventType("bogus").Valid() || messages.EventType("bogus").Version() != 0 || messages.EventType("bogus").Supports(1) {
		t.Error("unknown event type reported as known")
	}
}
