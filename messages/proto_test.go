package messages

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// protoMessage is what the loose parser keeps of one `message X { ... }`.
type protoMessage struct {
	fields []string            // field names, including oneof cases
	types  map[string]string   // field name -> declared type
	oneofs map[string][]string // oneof name -> its case field names
}

var (
	protoMessageStart = regexp.MustCompile(`^message\s+(\w+)\s*\{$`)
	protoOneofStart   = regexp.MustCompile(`^oneof\s+(\w+)\s*\{$`)
	protoField        = regexp.MustCompile(`^(?:repeated\s+)?(map<[^>]+>|[\w.]+)\s+(\w+)\s*=\s*(\d+)\s*;$`)
)

// parseProto reads the top-level messages of a proto file: no nested
// messages, one statement per line, which is all messages.proto uses.
func parseProto(t *testing.T, path string) map[string]*protoMessage {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	msgs := map[string]*protoMessage{}
	var cur *protoMessage
	var curName, oneof string
	numbers := map[int]bool{}
	for n, line := range strings.Split(string(src), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch m := protoMessageStart.FindStringSubmatch(line); {
		case line == "":
		case m != nil:
			cur, curName, numbers = &protoMessage{types: map[string]string{}, oneofs: map[string][]string{}}, m[1], map[int]bool{}
			msgs[curName] = cur
		case cur == nil:
		case protoOneofStart.MatchString(line):
			oneof = protoOneofStart.FindStringSubmatch(line)[1]
		case line == "}" && oneof != "":
			oneof = ""
		case line == "}":
			cur = nil
		default:
			f := protoField.FindStringSubmatch(line)
			if f == nil {
				t.Fatalf("%s:%d: cannot parse %q in message %s", path, n+1, line, curName)
			}
			num, _ := strconv.Atoi(f[3])
			if numbers[num] || slices.Contains(cur.fields, f[2]) {
				t.Errorf("%s:%d: message %s reuses field %s = %d", path, n+1, curName, f[2], num)
			}
			numbers[num] = true
			cur.fields = append(cur.fields, f[2])
			cur.types[f[2]] = f[1]
			if oneof != "" {
				cur.oneofs[oneof] = append(cur.oneofs[oneof], f[2])
			}
		}
	}
	return msgs
}

// jsonKeys returns the JSON keys of struct type typ.
func jsonKeys(typ reflect.Type) []string {
	var keys []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "-" && f.IsExported() {
			keys = append(keys, name)
		}
	}
	return keys
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}

// TestProtoMatchesGo keeps messages.proto and the Go types from drifting:
// every struct's JSON keys are exactly its proto message's fields, and each
// tagged union's oneof cases and variant messages match the Go layout tables.
func TestProtoMatchesGo(t *testing.T) {
	msgs := parseProto(t, "messages.proto")
	checked := map[string]bool{}

	structs := []reflect.Type{
		reflect.TypeFor[MessageEnvelope](), reflect.TypeFor[BriefAttachment](), reflect.TypeFor[Brief](),
		reflect.TypeFor[Closure](), reflect.TypeFor[Continuation](), reflect.TypeFor[TokenUsage](),
		reflect.TypeFor[ToolCall](), reflect.TypeFor[Failure](), reflect.TypeFor[Event](),
		reflect.TypeFor[SuspensionChoice](), reflect.TypeFor[HumanRetryPolicy](), reflect.TypeFor[EngagementDecision](),
		reflect.TypeFor[SuspensionRecord](), reflect.TypeFor[InputResponse](), reflect.TypeFor[OperatorNotification](),
		reflect.TypeFor[SystemNotification](), reflect.TypeFor[TodoItem](), reflect.TypeFor[WorkItemRecord](),
		reflect.TypeFor[DeliverySummaryRecord](), reflect.TypeFor[WorkSignal](), reflect.TypeFor[CommandPolicy](), reflect.TypeFor[TimerRecord](),
		reflect.TypeFor[WorkingMemory](), reflect.TypeFor[Episode](),
		reflect.TypeFor[DeliverySummaryRecord](), reflect.TypeFor[WorkSignal](), reflect.TypeFor[CommandPolicy](), reflect.TypeFor[TimerRecord](), reflect.TypeFor[MCPSelection](),
	}
	for typ, decode := range payloadDecoders {
		p, err := decode(eventVersions[typ], []byte("{}"))
		if err != nil {
			t.Fatalf("decode empty %s: %v", typ, err)
		}
		structs = append(structs, reflect.TypeOf(p))
	}
	for _, typ := range structs {
		m, ok := msgs[typ.Name()]
		if !ok {
			t.Errorf("messages.proto has no message %s", typ.Name())
			continue
		}
		checked[typ.Name()] = true
		if keys := jsonKeys(typ); !sameSet(keys, m.fields) {
			t.Errorf("%s: Go JSON keys %v, proto fields %v", typ.Name(), keys, m.fields)
		}
	}

	checkUnion(t, msgs, checked, "Origin", jsonKeys(reflect.TypeFor[Origin]()), strs(originKinds), originShapes)
	checkUnion(t, msgs, checked, "Body", jsonKeys(reflect.TypeFor[Body]()), strs(bodyTypes), bodyShapes)

	for name := range msgs {
		if !checked[name] {
			t.Errorf("messages.proto message %s has no Go counterpart in this test", name)
		}
	}
}

// checkUnion checks the proto message union (one oneof named like the Go
// discriminator key) against the Go tagged union: its case names are the
// variants, each case's message has exactly the variant's fields, and the Go
// struct's JSON keys are the discriminator plus all variant fields.
func checkUnion[K ~string](t *testing.T, msgs map[string]*protoMessage, checked map[string]bool,
	union string, goKeys, variants []string, shapes map[K]shape) {
	t.Helper()
	m, ok := msgs[union]
	if !ok || len(m.oneofs) != 1 {
		t.Errorf("messages.proto: %s must be a message with exactly one oneof", union)
		return
	}
	checked[union] = true
	discriminator := goKeys[0]
	cases, ok := m.oneofs[discriminator]
	if !ok {
		t.Errorf("%s: oneof must be named %q like the JSON discriminator, have %v", union, discriminator, m.oneofs)
	}
	if !sameSet(cases, variants) || !sameSet(m.fields, cases) {
		t.Errorf("%s: oneof cases %v, Go variants %v", union, cases, variants)
	}
	all := []string{discriminator}
	for _, c := range cases {
		variant, ok := msgs[m.types[c]]
		if !ok || m.types[c] != protoVariantName(c, union) {
			t.Errorf("%s case %s: type %s, want message %s", union, c, m.types[c], protoVariantName(c, union))
			continue
		}
		checked[m.types[c]] = true
		want := shapes[K(c)].keys()
		if !sameSet(variant.fields, want) {
			t.Errorf("%s: fields %v, Go allows %v", m.types[c], variant.fields, want)
		}
		for _, k := range want {
			if !slices.Contains(all, k) {
				all = append(all, k)
			}
		}
	}
	if !sameSet(all, goKeys) {
		t.Errorf("%s: Go JSON keys %v, proto variants cover %v", union, goKeys, all)
	}
}

// protoVariantName spells a union case's message: "operator" -> OperatorOrigin,
// "json" -> JsonBody.
func protoVariantName(c, union string) string { return strings.ToUpper(c[:1]) + c[1:] + union }
