package providers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// SchemaMode is how a tool's source JSON schema is emitted to a provider
// (runtime-spec-v0 "Provider Tool Schema Contract").
type SchemaMode string

// The emission modes.
const (
	// SchemaRelaxed is the runtime default: strict false, every object
	// closed with additionalProperties false, the shape otherwise kept.
	SchemaRelaxed SchemaMode = "relaxed"
	// SchemaStrict makes every property required, rewrites optional
	// properties as nullable (enums include null), and closes every
	// object, recursively.
	SchemaStrict SchemaMode = "strict"
)

// String returns the mode as spelled in configuration.
func (m SchemaMode) String() string { return string(m) }

// Strict reports whether m emits strict schemas; "" means Relaxed.
func (m SchemaMode) Strict() bool { return m == SchemaStrict }

// ErrBadSchema is wrapped when a tool's source schema is not a JSON object.
var ErrBadSchema = errors.New("providers: tool schema is not a JSON object")

// EmitSchema returns the provider-facing form of a source schema. An
// empty source is an object with no properties. The output is
// deterministic once marshalled: object keys and strict required lists
// are sorted.
func EmitSchema(src json.RawMessage, mode SchemaMode) (map[string]any, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var s map[string]any
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("decode tool schema: %w: %w", ErrBadSchema, err)
	}
	emit(s, mode.Strict())
	return s, nil
}

// EmitSchemaJSON is EmitSchema marshalled.
func EmitSchemaJSON(src json.RawMessage, mode SchemaMode) (json.RawMessage, error) {
	s, err := EmitSchema(src, mode)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// emit rewrites schema s in place and recurses into every subschema.
func emit(s map[string]any, strict bool) {
	if isObject(s) {
		s["additionalProperties"] = false
		props, _ := s["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			s["properties"] = props
		}
		if strict {
			strictRequired(s, props)
		}
	}
	for _, key := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		if m, ok := s[key].(map[string]any); ok {
			for _, sub := range m {
				emitAny(sub, strict)
			}
		}
	}
	for _, key := range []string{"items", "not", "additionalItems", "contains"} {
		emitAny(s[key], strict)
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := s[key].([]any); ok {
			for _, sub := range list {
				emitAny(sub, strict)
			}
		}
	}
}

func emitAny(v any, strict bool) {
	if m, ok := v.(map[string]any); ok {
		emit(m, strict)
	}
}

// isObject reports whether s describes an object.
func isObject(s map[string]any) bool {
	switch t := s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	_, ok := s["properties"]
	return ok
}

// strictRequired makes every property required and the formerly optional
// ones nullable.
func strictRequired(s, props map[string]any) {
	was := map[string]bool{}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				was[name] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	req := make([]any, 0, len(names))
	for _, name := range names {
		req = append(req, name)
		if !was[name] {
			if sub, ok := props[name].(map[string]any); ok {
				props[name] = nullable(sub)
			}
		}
	}
	s["required"] = req
}

// nullable returns s accepting null as well: null added to its type and
// enum, or s wrapped in anyOf with a null schema when it has no type.
func nullable(s map[string]any) map[string]any {
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, nil) {
		s["enum"] = append(enum, nil)
	}
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			s["type"] = []any{t, "null"}
		}
		return s
	case []any:
		if !slices.Contains(t, any("null")) {
			s["type"] = append(t, "null")
		}
		return s
	}
	if list, ok := s["anyOf"].([]any); ok && len(s) == 1 {
		s["anyOf"] = append(list, map[string]any{"type": "null"})
		return s
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}
