package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

type greetArgs struct {
	Name  string   `json:"name" jsonschema:"who to greet"`
	Times int      `json:"times,omitempty"`
	Style string   `json:"style,omitempty"`
	Tags  []tagArg `json:"tags,omitempty"`
}

type tagArg struct {
	Key string `json:"key"`
}

func (greetArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["style"].Enum = []any{"plain", "loud"}
}

func (a *greetArgs) Validate() error {
	if a.Times < 0 || a.Times > 3 {
		return &tools.FieldError{Field: "times", Problem: "must be 0..3"}
	}
	return nil
}

func greetTool() tools.Tool {
	return tools.Typed("Greet", "Greet someone.", func(_ context.Context, a greetArgs) tools.Result {
		return tools.Success("Greet", "greeted "+a.Name, a)
	})
}

func TestTypedSchemaFromStruct(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(greetTool().Spec().Parameters, &s); err != nil {
		t.Fatal(err)
	}
	if s["additionalProperties"] != false {
		t.Errorf("additionalProperties = %v, want false", s["additionalProperties"])
	}
	if req, _ := s["required"].([]any); len(req) != 1 || req[0] != "name" {
		t.Errorf("required = %v, want [name]", s["required"])
	}
	props := s["properties"].(map[string]any)
	if d := props["name"].(map[string]any)["description"]; d != "who to greet" {
		t.Errorf("name description = %v", d)
	}
	if e := props["style"].(map[string]any)["enum"]; e == nil {
		t.Error("style has no enum")
	}
}

func TestTypedInvalidInput(t *testing.T) {
	cases := []struct {
		name, args, field, parse string
	}{
		{"missing field", `{}`, "name", "missing"},
		{"wrong type", `{"name": 3}`, "name", "type"},
		{"unknown field", `{"name":"a","nmae":"b"}`, "nmae", "additional"},
		{"enum", `{"name":"a","style":"quiet"}`, "style", "does not equal"},
		{"nested", `{"name":"a","tags":[{}]}`, "tags[].key", "missing"},
		{"validator", `{"name":"a","times":9}`, "times", "0..3"},
		{"not an object", `[1]`, "", "not a JSON object"},
		{"not json", `{"name":`, "", "not valid JSON"},
	}
	tool := greetTool()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := tool.Call(context.Background(), json.RawMessage(c.args))
			if res.Status != messages.ToolError {
				t.Fatalf("status = %s, want error", res.Status)
			}
			var env tools.Envelope
			if err := json.Unmarshal(res.Envelope, &env); err != nil {
				t.Fatal(err)
			}
			if env.Status != "error" || env.Error == nil || env.Error.Kind != tools.KindInvalidToolInput || env.Result != nil {
				t.Fatalf("envelope = %s", res.Envelope)
			}
			var d map[string]string
			if err := json.Unmarshal(env.Error.Details, &d); err != nil {
				t.Fatal(err)
			}
			if d["field"] != c.field || !strings.Contains(d["parse_error"], c.parse) || d["tool_name"] != "Greet" {
				t.Errorf("details = %v, want field %q and parse_error containing %q", d, c.field, c.parse)
			}
			if env.Error.RecoveryHint == "" || !strings.Contains(res.Receipt, `"kind": "invalid_tool_input"`) {
				t.Errorf("hint %q, receipt %s", env.Error.RecoveryHint, res.Receipt)
			}
		})
	}
}

func TestTypedValidCall(t *testing.T) {
	for _, args := range []string{`{"name":"Ada","times":2,"style":"loud"}`, ` {"name":"Ada"} `} {
		res := greetTool().Call(context.Background(), json.RawMessage(args))
		if res.Status != messages.ToolOK || res.Receipt != "greeted Ada" {
			t.Errorf("Call(%s) = %s %q", args, res.Status, res.Receipt)
		}
	}
}

func TestRegistryWithTypedTools(t *testing.T) {
	r, err := tools.NewRegistry(greetTool())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tools.NewRegistry(greetTool(), greetTool()); err == nil {
		t.Error("two tools with one name were accepted")
	}
	if _, ok := r.Lookup("Greet"); !ok {
		t.Error("Greet not found")
	}
}

func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"a"}`, `{"name":1}`, `{"name":"a","tags":[{"key":"k"}]}`, `null`, `[`, `{"style":"loud","times":-1}`} {
		f.Add([]byte(s))
	}
	s, err := tools.SchemaFor[greetArgs]()
	if err != nil {
		f.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, fe := tools.DecodeArgs[greetArgs](resolved, data)
		if fe == nil && a.Name == "" && !strings.Contains(string(data), `"name"`) {
			t.Errorf("accepted %q without the required name", data)
		}
		res := greetTool().Call(context.Background(), data)
		if !json.Valid(res.Envelope) {
			t.Errorf("envelope is not JSON: %s", res.Envelope)
		}
	})
}

// TestTypedStrictNulls: in strict schema mode every property is required
// and the model sends null for those it leaves out; null counts as
// omitted, so a required one sent as null is still missing.
func TestTypedStrictNulls(t *testing.T) {
	res := greetTool().Call(context.Background(), json.RawMessage(`{"name":"Ada","times":null,"style":null,"tags":[{"key":"k"}]}`))
	if res.Status != messages.ToolOK || res.Receipt != "greeted Ada" {
		t.Fatalf("nulls for optional fields = %s %s", res.Status, res.Receipt)
	}
	res = greetTool().Call(context.Background(), json.RawMessage(`{"name":null,"times":null}`))
	if res.Status != messages.ToolError || !strings.Contains(res.Receipt, "name") {
		t.Fatalf("null for the required name = %s %s", res.Status, res.Receipt)
	}
}
