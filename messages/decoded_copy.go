package messages

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// decodedCopy returns what decoding p's JSON encoding gives, built without
// the decode: a deep copy of p that follows encoding/json's rules (what the
// encoding leaves out comes back zero, an empty slice or map under
// omitempty comes back nil, an enum string goes through its UnmarshalText,
// a time at a zero offset comes back in UTC without its monotonic reading).
// ok is false when p holds something whose round trip is not such a copy: a
// string that is not valid UTF-8, a time at another offset, raw JSON the
// encoder rewrites, a type with its own JSON methods, a non-nil interface,
// an enum value its UnmarshalText refuses. Then only the decode says what
// replay will apply. The copy shares nothing mutable with p.
func decodedCopy(p Payload) (Payload, bool) {
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer { // decoders return values; a *T decodes as T
		return nil, false
	}
	plan := planFor(v.Type())
	out := plan.scratch()
	defer plan.release(out)
	if !copyDecoded(out, v, false) {
		return nil, false
	}
	d, ok := out.Interface().(Payload) // a copy of out, which goes back to the pool
	return d, ok
}

// scratch returns a settable zero value of the plan's type, from its pool:
// the copy is built there and boxed from there, so a payload costs one
// allocation (the box), not two.
func (p *copyPlan) scratch() reflect.Value {
	return reflect.ValueOf(p.scratches.Get()).Elem()
}

// release zeroes v, from scratch, and puts it back in the pool.
func (p *copyPlan) release(v reflect.Value) {
	v.SetZero()
	p.scratches.Put(v.Addr().Interface())
}

// copyHow is how copyDecoded copies a value of one type.
type copyHow int

const (
	copyUnsupported copyHow = iota // fall back to the decode
	copyPlain                      // bool and numbers: the value itself
	copyString                     // valid UTF-8 only
	copyEnum                       // a string type decoded through its UnmarshalText
	copyTime                       // time.Time: at a zero offset only
	copyRaw                        // json.RawMessage: already as the encoder writes it only
	copyBytes                      // []byte: base64 in JSON
	copySlice
	copyArray
	copyMap
	copyPointer
	copyInterface // nil only
	copyStruct
)

// copyPlan is the cached plan for one type.
type copyPlan struct {
	how    copyHow
	fields []copyField // copyStruct: the fields JSON encodes

	// copyEnum: texts UnmarshalText accepted and the value it set, so a
	// known value is not parsed again. Bounded by maxEnumTexts.
	enumMu    sync.RWMutex
	enumTexts map[string]string

	// scratches holds pointers to zero values of the type, for the copy
	// of a whole payload (decodedCopy).
	scratches sync.Pool
}

// maxEnumTexts bounds a plan's enumTexts: an enum has a few values.
const maxEnumTexts = 256

// copyField is one field a struct's JSON holds.
type copyField struct {
	index     []int // through embedded structs
	omitEmpty bool
}

var (
	copyPlans sync.Map // reflect.Type -> *copyPlan

	timeType            = reflect.TypeFor[time.Time]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// planFor returns t's plan, building and caching it on first use.
func planFor(t reflect.Type) *copyPlan {
	if p, ok := copyPlans.Load(t); ok {
		return p.(*copyPlan)
	}
	p := buildPlan(t)
	p.scratches.New = func() any { return reflect.New(t).Interface() }
	copyPlans.Store(t, p)
	return p
}

func buildPlan(t reflect.Type) *copyPlan {
	switch t {
	case timeType:
		return &copyPlan{how: copyTime}
	case rawMessageType:
		return &copyPlan{how: copyRaw}
	}
	if hasJSONMethods(t) {
		if t.Kind() == reflect.String && !implementsEither(t, jsonMarshalerType, textMarshalerType) &&
			!implementsEither(t, jsonUnmarshalerType, nil) {
			return &copyPlan{how: copyEnum} // only *T's UnmarshalText
		}
		return &copyPlan{how: copyUnsupported}
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return &copyPlan{how: copyPlain}
	case reflect.String:
		return &copyPlan{how: copyString}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !hasJSONMethods(t.Elem()) {
			return &copyPlan{how: copyBytes}
		}
		return &copyPlan{how: copySlice}
	case reflect.Array:
		return &copyPlan{how: copyArray}
	case reflect.Map:
		return &copyPlan{how: copyMap}
	case reflect.Pointer:
		return &copyPlan{how: copyPointer}
	case reflect.Interface:
		return &copyPlan{how: copyInterface}
	case reflect.Struct:
		return structPlan(t)
	}
	return &copyPlan{how: copyUnsupported}
}

// hasJSONMethods reports whether t or *t has any of the JSON or text
// marshalling methods.
func hasJSONMethods(t reflect.Type) bool {
	return implementsEither(t, jsonMarshalerType, jsonUnmarshalerType) ||
		implementsEither(t, textMarshalerType, textUnmarshalerType)
}

// implementsEither reports whether t or *t implements a or b (b may be nil).
func implementsEither(t, a, b reflect.Type) bool {
	for _, typ := range []reflect.Type{t, reflect.PointerTo(t)} {
		if typ.Implements(a) || b != nil && typ.Implements(b) {
			return true
		}
	}
	return false
}

// structPlan lists the fields t's JSON holds. A struct whose JSON names
// could collide (even only in case), or that embeds a pointer, or uses the
// string or omitzero options, is left to the decode.
func structPlan(t reflect.Type) *copyPlan {
	p := &copyPlan{how: copyStruct}
	seen := map[string]bool{}
	if !addFields(p, t, nil, seen) {
		return &copyPlan{how: copyUnsupported}
	}
	return p
}

func addFields(p *copyPlan, t reflect.Type, prefix []int, seen map[string]bool) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if tag == "-" {
			continue
		}
		if strings.Contains(","+opts+",", ",string,") || strings.Contains(","+opts+",", ",omitzero,") {
			return false
		}
		index := append(append([]int(nil), prefix...), i)
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				return false
			}
			if ft.Kind() == reflect.Struct && !hasJSONMethods(ft) {
				if !addFields(p, ft, index, seen) {
					return false
				}
				continue
			}
			if !f.IsExported() {
				continue
			}
		} else if !f.IsExported() {
			continue
		}
		if !hasTag || name == "" {
			name = f.Name
		}
		key := strings.ToLower(name)
		if seen[key] {
			return false
		}
		seen[key] = true
		p.fields = append(p.fields, copyField{index: index, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	return true
}

// copyDecoded sets dst, a settable zero value of src's type, to what
// decoding src's JSON would; omitEmpty is the field's omitempty option. It
// reports false when it cannot.
func copyDecoded(dst, src reflect.Value, omitEmpty bool) bool {
	switch p := planFor(src.Type()); p.how {
	case copyPlain:
		dst.Set(src)
	case copyString:
		if !utf8.ValidString(src.String()) {
			return false
		}
		dst.SetString(src.String())
	case copyEnum:
		return p.copyEnumValue(dst, src, omitEmpty)
	case copyTime:
		// Encoded in RFC 3339 with Z for a zero offset, whatever the
		// location, and decoded as UTC without a monotonic reading.
		t, _ := reflect.TypeAssert[time.Time](src) // without boxing it
		if _, offset := t.Zone(); offset != 0 {
			return false
		}
		if dst.CanAddr() {
			*dst.Addr().Interface().(*time.Time) = t.UTC()
		} else {
			dst.Set(reflect.ValueOf(t.UTC()))
		}
	case copyRaw:
		return copyRawValue(dst, src, omitEmpty)
	case copyBytes:
		if src.IsNil() || src.Len() == 0 && omitEmpty {
			return true
		}
		b := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		reflect.Copy(b, src)
		dst.Set(b)
	case copySlice:
		return copySliceValue(dst, src, omitEmpty)
	case copyArray:
		for i := range src.Len() {
			if !copyDecoded(dst.Index(i), src.Index(i), false) {
				return false
			}
		}
	case copyMap:
		return copyMapValue(dst, src, omitEmpty)
	case copyPointer:
		if src.IsNil() {
			return true
		}
		n := reflect.New(src.Type().Elem())
		if !copyDecoded(n.Elem(), src.Elem(), false) {
			return false
		}
		dst.Set(n)
	case copyInterface:
		return src.IsNil()
	case copyStruct:
		for _, f := range p.fields {
			if !copyDecoded(dst.FieldByIndex(f.index), src.FieldByIndex(f.index), f.omitEmpty) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

// copyEnumValue decodes src's text into dst with its UnmarshalText, as
// the JSON decode does, or sets what it set for the same text before; an
// empty value under omitempty is not encoded.
func (p *copyPlan) copyEnumValue(dst, src reflect.Value, omitEmpty bool) bool {
	s := src.String()
	if s == "" && omitEmpty {
		return true
	}
	p.enumMu.RLock()
	v, known := p.enumTexts[s]
	p.enumMu.RUnlock()
	if known {
		dst.SetString(v)
		return true
	}
	if !utf8.ValidString(s) {
		return false
	}
	u, ok := dst.Addr().Interface().(encoding.TextUnmarshaler)
	if !ok || u.UnmarshalText([]byte(s)) != nil { // an error is the decode's to report
		return false
	}
	p.enumMu.Lock()
	if p.enumTexts == nil {
		p.enumTexts = map[string]string{}
	}
	if len(p.enumTexts) < maxEnumTexts {
		p.enumTexts[s] = dst.String()
	}
	p.enumMu.Unlock()
	return true
}

// copyRawValue copies raw JSON that the encoder writes as it is (compact,
// nothing it escapes); anything else is left to the decode.
func copyRawValue(dst, src reflect.Value, omitEmpty bool) bool {
	raw := src.Bytes()
	switch {
	case len(raw) == 0 && omitEmpty:
		return true
	case src.IsNil():
		dst.SetBytes([]byte("null")) // encoded as null, which decodes as those bytes
		return true
	case !encodedAsIs(raw):
		return false
	}
	dst.SetBytes(append([]byte(nil), raw...))
	return true
}

// encodedAsIs reports whether the encoder writes raw JSON as it is: not
// empty, no whitespace outside strings, none of the characters it escapes
// for HTML (<, >, &) or as line separators (U+2028, U+2029).
func encodedAsIs(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	inString, escaped := false, false
	for i, c := range raw {
		switch {
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9):
			return false
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return true
}

func copySliceValue(dst, src reflect.Value, omitEmpty bool) bool {
	if src.IsNil() || src.Len() == 0 && omitEmpty {
		return true
	}
	s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
	for i := range src.Len() {
		if !copyDecoded(s.Index(i), src.Index(i), false) {
			return false
		}
	}
	dst.Set(s)
	return true
}

func copyMapValue(dst, src reflect.Value, omitEmpty bool) bool {
	if src.IsNil() || src.Len() == 0 && omitEmpty {
		return true
	}
	t := src.Type()
	m := reflect.MakeMapWithSize(t, src.Len())
	it := src.MapRange()
	for it.Next() {
		k := reflect.New(t.Key()).Elem()
		if !copyMapKey(k, it.Key()) {
			return false
		}
		v := reflect.New(t.Elem()).Elem()
		if !copyDecoded(v, it.Value(), false) {
			return false
		}
		m.SetMapIndex(k, v)
	}
	dst.Set(m)
	return true
}

// copyMapKey copies a map key as JSON writes it (string kinds as they are,
// integers in decimal) and reads it back (through UnmarshalText when the
// key type has one).
func copyMapKey(dst, src reflect.Value) bool {
	switch t := src.Type(); {
	case t.Kind() == reflect.String && reflect.PointerTo(t).Implements(textUnmarshalerType):
		p := planFor(t)
		return p.how == copyEnum && p.copyEnumValue(dst, src, false)
	case hasJSONMethods(t):
		return false
	case t.Kind() == reflect.String:
		if !utf8.ValidString(src.String()) {
			return false
		}
		dst.SetString(src.String())
	case src.CanInt() || src.CanUint():
		dst.Set(src)
	default:
		return false
	}
	return true
}
