package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
)

// maxRefDepth bounds how deep $ref chains are inlined; a recursive
// definition stops there as a free-form text value.
const maxRefDepth = 4

// NormalizeSchema turns an MCP server's input schema, written for no
// provider in particular, into one every transport accepts in both its
// strict and relaxed modes (providers.EmitSchema then closes the objects
// and, in strict mode, requires every property): local $ref are inlined
// and $defs dropped, oneOf becomes anyOf, the root is an object, and a
// subschema with no type gets one (object with properties, array with
// items, the type of its enum, else a string). Anything unreadable is an
// object with no properties.
func NormalizeSchema(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil || root == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	defs := map[string]any{}
	for _, key := range []string{"$defs", "definitions"} {
		if m, ok := root[key].(map[string]any); ok {
			for name, d := range m {
				defs["#/"+key+"/"+name] = d
			}
		}
	}
	out := normalize(root, defs, 0).(map[string]any)
	out["type"] = "object"
	if _, ok := out["properties"].(map[string]any); !ok {
		out["properties"] = map[string]any{}
	}
	delete(out, "anyOf") // a root union is not an object schema any provider takes
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

// normalize returns a normalized copy of schema v.
func normalize(v any, defs map[string]any, depth int) any {
	s, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if ref, ok := s["$ref"].(string); ok {
		target, found := defs[ref]
		if !found || depth >= maxRefDepth {
			return map[string]any{"type": "string", "description": "a JSON value, as text"}
		}
		merged := map[string]any{}
		if t, ok := target.(map[string]any); ok {
			for k, x := range t {
				merged[k] = x
			}
		}
		for k, x := range s { // the referring schema's own keywords (a description) win
			if k != "$ref" {
				merged[k] = x
			}
		}
		return normalize(merged, defs, depth+1)
	}
	out := map[string]any{}
	for k, x := range s {
		switch k {
		case "$defs", "definitions", "$schema", "$id", "$comment":
		case "properties", "patternProperties":
			if m, ok := x.(map[string]any); ok {
				props := map[string]any{}
				for name, sub := range m {
					props[name] = normalize(sub, defs, depth)
				}
				out[k] = props
			}
		case "items", "not", "additionalProperties", "contains":
			out[k] = normalize(x, defs, depth)
		case "oneOf", "anyOf", "allOf", "prefixItems":
			if list, ok := x.([]any); ok {
				subs := make([]any, len(list))
				for i, sub := range list {
					subs[i] = normalize(sub, defs, depth)
				}
				if k == "oneOf" {
					k = "anyOf"
				}
				out[k] = subs
			}
		default:
			out[k] = x
		}
	}
	if _, typed := out["type"]; !typed {
		out = withType(out)
	}
	return out
}

// withType gives s, a schema without type, one when it is not a union.
func withType(s map[string]any) map[string]any {
	for _, k := range []string{"anyOf", "allOf", "not", "const"} {
		if _, ok := s[k]; ok {
			return s
		}
	}
	switch {
	case s["properties"] != nil:
		s["type"] = "object"
	case s["items"] != nil:
		s["type"] = "array"
	case s["enum"] != nil:
		s["type"] = enumType(s["enum"])
	default:
		s["type"] = "string"
		if d, _ := s["description"].(string); !strings.Contains(d, "JSON") {
			s["description"] = strings.TrimSpace(d + " (any JSON value, as text)")
		}
	}
	return s
}

// enumType is the JSON type of an enum's values: string unless they are
// all numbers or all booleans.
func enumType(v any) string {
	list, _ := v.([]any)
	kind := ""
	for _, e := range list {
		k := "string"
		switch e.(type) {
		case json.Number, float64:
			k = "number"
		case bool:
			k = "boolean"
		}
		if kind != "" && kind != k {
			return "string"
		}
		kind = k
	}
	if kind == "" {
		return "string"
	}
	return kind
}
