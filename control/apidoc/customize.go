package apidoc

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// customize completes the schemas the generator makes by reflection with
// what encoding/json does: a struct's fields without omitempty or
// omitzero, and not pointers, are always present (required); a nil slice
// or map, a nil json.RawMessage and a nil interface encode as null.
func customize(_ string, t reflect.Type, _ reflect.StructTag, s *openapi3.Schema) error {
	switch {
	case t.Kind() == reflect.Uint64:
		s.Max = nil // 2^64-1 does not survive a float64: the minimum says enough
	case t == reflect.TypeFor[json.RawMessage](), t.Kind() == reflect.Interface:
		s.Nullable = true
	case t.Kind() == reflect.Slice, t.Kind() == reflect.Map:
		s.Nullable = true
	case t.Kind() == reflect.Struct && s.Properties != nil:
		s.Required = nil
		for _, name := range requiredFields(t) {
			if _, ok := s.Properties[name]; ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	return nil
}

// requiredFields lists the JSON names of t's fields encoding/json always
// writes, embedded structs' included.
func requiredFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				continue // a nil embedded pointer writes none of its fields
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, requiredFields(ft)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") || f.Type.Kind() == reflect.Pointer {
			continue
		}
		out = append(out, name)
	}
	return out
}
