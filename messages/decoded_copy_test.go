package messages_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// decodeOf is what replay applies for p: p's JSON decoded by Event.Decode.
func decodeOf(t testing.TB, p messages.Payload) (d messages.Payload, encoded bool, err error) {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, false, nil // never journaled: NewEvent refuses it
	}
	e := messages.Event{ID: "evt_1", AgentID: "main", Type: p.EventType(), Version: p.EventType().Version(), At: t0, Payload: raw}
	d, err = e.Decode()
	return d, true, err
}

// checkCopyIsDecode holds decodedCopy to the decode: when it answers, its
// answer is exactly what decoding p's JSON gives, so live apply and replay
// cannot diverge. It reports whether the copy answered.
func checkCopyIsDecode(t *testing.T, p messages.Payload) bool {
	t.Helper()
	want, encoded, derr := decodeOf(t, p)
	got, ok := messages.DecodedCopy(p)
	switch {
	case !ok:
		return false
	case !encoded:
		t.Fatalf("copy of a payload that does not encode: %#v", p)
	case derr != nil:
		t.Fatalf("copy answered %#v where the decode fails: %v", got, derr)
	case !reflect.DeepEqual(got, want):
		t.Fatalf("copy = %#v\ndecode = %#v", got, want)
	}
	return true
}

// The events every turn writes must take the copy: the decode they skip is
// the hot path's largest cost.
var hotPath = map[messages.EventType]bool{
	messages.EventMessageAdmitted: true, messages.EventMessageProcessingStarted: true,
	messages.EventProviderRoundCompleted: true, messages.EventAssistantRoundRecorded: true,
	messages.EventToolCallStarted: true, messages.EventToolExecuted: true,
	messages.EventTurnTerminal: true, messages.EventBriefRecorded: true,
	messages.EventAgentStateChanged: true,
}

func TestDecodedCopyIsTheDecodeForEveryEventType(t *testing.T) {
	for _, p := range samplePayloads() {
		t.Run(string(p.EventType()), func(t *testing.T) {
			if !checkCopyIsDecode(t, p) && hotPath[p.EventType()] {
				t.Errorf("%s fell back to the decode", p.EventType())
			}
		})
	}
}

// Variants of every sample that a JSON round trip changes or refuses: the
// copy must either give what the decode gives or step aside.
func TestDecodedCopyOfInexactPayloads(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	variants := []struct {
		name string
		edit func(v reflect.Value)
		// copied is whether the copy must still answer for the hot path.
		copied bool
	}{
		{"times now", setTimes(func(time.Time) time.Time { return time.Now().UTC() }), true},
		{"local times with a monotonic reading", setTimes(func(time.Time) time.Time { return time.Now() }), false},
		{"times at a zero offset outside UTC", setTimes(func(t time.Time) time.Time {
			return t.In(time.FixedZone("GMT", 0))
		}), true},
		{"times outside UTC", setTimes(func(t time.Time) time.Time { return t.In(cet) }), false},
		{"empty collections", func(v reflect.Value) {
			if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.IsNil() && v.CanSet() {
				if v.Kind() == reflect.Slice {
					v.Set(reflect.MakeSlice(v.Type(), 0, 0))
				} else {
					v.Set(reflect.MakeMap(v.Type()))
				}
			}
		}, true},
		{"nil collections", func(v reflect.Value) {
			if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
		}, true},
		{"invalid UTF-8", setStrings(func(s string) string { return s + "\xff" }), false},
		{"text to escape", setStrings(func(s string) string { return s + " <&> \u2028 \"q\" \\ é" }), false},
		{"empty strings", setStrings(func(string) string { return "" }), false},
		{"spaced raw JSON", setRaw(func(r json.RawMessage) json.RawMessage {
			return json.RawMessage("  {\n \"a\" : [1, 2] } ")
		}), false},
		{"raw JSON with <", setRaw(func(r json.RawMessage) json.RawMessage { return json.RawMessage(`{"a":"<b>"}`) }), false},
		{"compact raw JSON", setRaw(func(r json.RawMessage) json.RawMessage {
			return json.RawMessage(`{"a":["x y",1.5e3,{"b":null}],"c":"\"\\u00e9"}`)
		}), true},
		{"filled pointers", func(v reflect.Value) {
			if v.Kind() == reflect.Pointer && v.IsNil() && v.CanSet() {
				v.Set(reflect.New(v.Type().Elem()))
			}
		}, false},
	}
	for _, vt := range variants {
		t.Run(vt.name, func(t *testing.T) {
			for _, p := range samplePayloads() {
				v := reflect.New(reflect.TypeOf(p)).Elem()
				v.Set(reflect.ValueOf(p))
				walk(v, vt.edit)
				q := v.Interface().(messages.Payload)
				if !checkCopyIsDecode(t, q) && vt.copied && hotPath[q.EventType()] {
					t.Errorf("%s: %s fell back to the decode", vt.name, q.EventType())
				}
			}
		})
	}
}

func TestDecodedCopySharesNothing(t *testing.T) {
	env := messages.MessageEnvelope{SourceRefs: map[string]string{"k": "v"}}
	orig := messages.MessageAdmitted{Envelope: env}
	got, ok := messages.DecodedCopy(orig)
	if !ok {
		t.Skip("envelope without required fields is left to the decode")
	}
	env.SourceRefs["k"] = "changed"
	if got.(messages.MessageAdmitted).Envelope.SourceRefs["k"] != "v" {
		t.Error("the copy shares its map with the payload")
	}
}

func TestDecodedCopyRefusesPointers(t *testing.T) {
	if _, ok := messages.DecodedCopy(&messages.TimerFired{TimerID: "t"}); ok {
		t.Error("a *TimerFired decodes as a TimerFired; the copy must step aside")
	}
}

func TestNewEventDecodedIsTheDecode(t *testing.T) {
	for _, p := range samplePayloads() {
		e, d, err := messages.NewEventDecoded("main", time.Now(), p)
		if err != nil {
			t.Fatalf("%s: %v", p.EventType(), err)
		}
		want, err := e.Decode()
		if err != nil || !reflect.DeepEqual(d, want) {
			t.Errorf("%s: NewEventDecoded = %#v, decode = %#v (%v)", p.EventType(), d, want, err)
		}
	}
}

// walk calls edit on v and then on every value inside it.
func walk(v reflect.Value, edit func(reflect.Value)) {
	edit(v)
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walk(v.Elem(), edit)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), edit)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			return
		}
		for i := range v.Len() {
			walk(v.Index(i), edit)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			walk(e, edit)
			v.SetMapIndex(k, e)
		}
	}
}

func setTimes(f func(time.Time) time.Time) func(reflect.Value) {
	return func(v reflect.Value) {
		if v.Type() == reflect.TypeFor[time.Time]() && v.CanSet() {
			v.Set(reflect.ValueOf(f(v.Interface().(time.Time))))
		}
	}
}

// setStrings edits plain strings (enum strings stay valid).
func setStrings(f func(string) string) func(reflect.Value) {
	return func(v reflect.Value) {
		if v.Kind() == reflect.String && v.Type() == reflect.TypeFor[string]() && v.CanSet() {
			v.SetString(f(v.String()))
		}
	}
}

func setRaw(f func(json.RawMessage) json.RawMessage) func(reflect.Value) {
	return func(v reflect.Value) {
		if v.Type() == reflect.TypeFor[json.RawMessage]() && v.CanSet() && len(v.Bytes()) > 0 {
			v.SetBytes(f(v.Bytes()))
		}
	}
}

func TestDecodedCopyChecksEnumsEveryTime(t *testing.T) {
	bad := messages.AgentStateChanged{From: messages.StatusAsleep, To: "sleepwalking"}
	good := messages.AgentStateChanged{From: messages.StatusAsleep, To: messages.StatusAwakeIdle}
	for i, c := range []struct {
		p    messages.Payload
		want bool
	}{{bad, false}, {good, true}, {good, true}, {bad, false}} {
		if _, ok := messages.DecodedCopy(c.p); ok != c.want {
			t.Errorf("%d: copy of %#v answered %v, want %v", i, c.p, ok, c.want)
		}
	}
}

// BenchmarkNewEventDecoded: a turn's events through NewEventDecoded (the
// copy) and through encode then decode (what it did before).
func BenchmarkNewEventDecoded(b *testing.B) {
	var turn []messages.Payload
	for _, p := range samplePayloads() {
		if hotPath[p.EventType()] {
			turn = append(turn, p)
		}
	}
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range turn {
				if _, _, err := messages.NewEventDecoded("main", t0, p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range turn {
				if _, _, err := decodeOf(b, p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// TestDecodedCopyAllocatesOnlyItsBox: the copy is built in a pooled
// scratch value and boxed from there, and a time is copied without being
// boxed: a payload of strings and a time costs one allocation, the
// Payload returned. Copies in a row each start from zero.
func TestDecodedCopyAllocatesOnlyItsBox(t *testing.T) {
	full := messages.TimerScheduled{TimerID: "tmr_1", DueAt: t0, Reason: "remind", SuspensionID: "sus_1"}
	sparse := messages.TimerScheduled{TimerID: "tmr_2", DueAt: t0.Add(time.Hour), Reason: "later"}
	for _, p := range []messages.TimerScheduled{full, sparse, full} {
		if d, ok := messages.DecodedCopy(p); !ok || d != messages.Payload(p) {
			t.Fatalf("DecodedCopy(%+v) = %+v, %t; want the payload", p, d, ok)
		}
	}
	if raceOn {
		return // the race detector changes what allocates
	}
	var boxed messages.Payload = full
	if n := testing.AllocsPerRun(100, func() { _, _ = messages.DecodedCopy(boxed) }); n != 1 {
		t.Errorf("DecodedCopy allocates %v times, want 1", n)
	}
}
