package providers_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
)

const sourceSchema = `{
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "unit": {"type": "string", "enum": ["c", "f"]},
    "days": {"type": "integer"},
    "where": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}, "required": ["lat"]},
    "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}},
    "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
  },
  "required": ["city"]
}`

func TestEmitSchema(t *testing.T) {
	tests := []struct {
		name string
		mode providers.SchemaMode
		want string
	}{
		{"relaxed closes objects and keeps optional fields", providers.SchemaRelaxed,
			`{"additionalProperties":false,"properties":{"city":{"type":"string"},"days":{"type":"integer"},"either":{"anyOf":[{"type":"string"},{"type":"integer"}]},` +
				`"tags":{"items":{"additionalProperties":false,"properties":{"k":{"type":"string"}},"type":"object"},"type":"array"},"unit":{"enum":["c","f"],"type":"string"},` +
				`"where":{"additionalProperties":false,"properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat"],"type":"object"}},"required":["city"],"type":"object"}`},
		{"strict requires everything and makes optional fields nullable", providers.SchemaStrict,
			`{"additionalProperties":false,"properties":{"city":{"type":"string"},"days":{"type":["integer","null"]},"either":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]},` +
				`"tags":{"items":{"additionalProperties":false,"properties":{"k":{"type":["string","null"]}},"required":["k"],"type":"object"},"type":["array","null"]},` +
				`"unit":{"enum":["c","f",null],"type":["string","null"]},` +
				`"where":{"additionalProperties":false,"properties":{"lat":{"type":"number"},"lon":{"type":["number","null"]}},"required":["lat","lon"],"type":["object","null"]}},` +
				`"required":["city","days","either","tags","unit","where"],"type":"object"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := providers.EmitSchemaJSON(json.RawMessage(sourceSchema), tt.mode)
			if err != nil {
				t.Fatalf("EmitSchemaJSON: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("EmitSchemaJSON =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestEmitSchemaStrictInvariants(t *testing.T) {
	s, err := providers.EmitSchema(json.RawMessage(sourceSchema), providers.SchemaStrict)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			req, _ := m["required"].([]any)
			if m["additionalProperties"] != false || len(req) != len(props) {
				t.Errorf("%s: object not closed or not fully required: %v", path, m)
			}
			for k, sub := range props {
				walk(path+"."+k, sub)
			}
		}
		walk(path+"[]", m["items"])
		if list, ok := m["anyOf"].([]any); ok {
			for _, sub := range list {
				walk(path+"|", sub)
			}
		}
	}
	walk("$", s)
}

func TestEmitSchemaEdges(t *testing.T) {
	got, err := providers.EmitSchemaJSON(nil, providers.SchemaStrict)
	if err != nil || string(got) != `{"additionalProperties":false,"properties":{},"required":[],"type":"object"}` {
		t.Errorf("EmitSchemaJSON(nil) = %s, %v", got, err)
	}
	if _, err := providers.EmitSchema(json.RawMessage(`[1]`), providers.SchemaRelaxed); !errors.Is(err, providers.ErrBadSchema) {
		t.Errorf("EmitSchema(array) = %v, want ErrBadSchema", err)
	}
}
