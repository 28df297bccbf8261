package actors

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/internal/mcptest"
	"github.com/holon-actors/holon-actors/mcp"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/openai"
	"github.com/holon-actors/holon-actors/tools/builtin"
)

// TestOpenAIStrictToolMatrix sends every built-in tool (and Sleep) to the
// OpenAI Responses transport in Strict mode and checks the request body the
// vendor receives: each function tool is strict, every object closed, every
// property required (optional ones nullable).
func TestOpenAIStrictToolMatrix(t *testing.T) {
	var body []byte
	reply, err := os.ReadFile("../providers/openai/testdata/responses_success.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	}))
	defer srv.Close()
	ref, _ := providers.ParseModelRef("openai/gpt-5")
	p, err := openai.NewResponses(providers.Endpoint{Ref: ref, Transport: providers.TransportResponses, BaseURL: srv.URL + "/v1/",
		APIKey: "k", Schema: providers.SchemaStrict})
	if err != nil {
		t.Fatal(err)
	}
	var specs []providers.ToolSpec
	for _, tool := range builtin.Tools(builtin.Config{}) {
		s := tool.Spec()
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	for _, tool := range runtimetools.Tools(true) { // every runtime-owned tool, Sleep first
		s := tool.Spec()
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	// Third-party MCP schemas (oneOf, $ref, a property without type),
	// as the runtime offers them (mcp.NormalizeSchema).
	for name, schema := range map[string]string{
		"mcp__gh__lookup": mcptest.ThirdPartySchema,
		"mcp__gh__loose":  `{"properties":{"q":{},"opts":{"$ref":"#/$defs/o"}},"$defs":{"o":{"oneOf":[{"type":"integer"},{"properties":{"k":{"type":"string"}}}]}}}`,
	} {
		specs = append(specs, providers.ToolSpec{Name: name, Description: "third-party", Parameters: mcp.NormalizeSchema(json.RawMessage(schema))})
	}
	req := providers.Request{AgentID: "main", Conversation: []providers.Item{{Kind: providers.ItemMessage, Text: "hi"}}, Tools: specs}
	if _, err := p.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Tools []struct {
			Type       string         `json:"type"`
			Name       string         `json:"name"`
			Strict     bool           `json:"strict"`
			Parameters map[string]any `json:"parameters"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent.Tools) != len(specs) || len(specs) < 10 {
		t.Fatalf("sent %d tools, want all %d", len(sent.Tools), len(specs))
	}
	for _, tool := range sent.Tools {
		if tool.Type != "function" || !tool.Strict {
			t.Errorf("%s: type %q strict %v, want a strict function", tool.Name, tool.Type, tool.Strict)
		}
		checkStrict(t, tool.Name, tool.Parameters)
		checkTyped(t, tool.Name, tool.Parameters)
	}
}

// checkTyped walks a schema: no oneOf or $ref (the strict mode refuses
// them), and every schema that is not a union has a type.
func checkTyped(t *testing.T, where string, s map[string]any) {
	t.Helper()
	for _, k := range []string{"oneOf", "$ref", "$defs", "definitions"} {
		if _, ok := s[k]; ok {
			t.Errorf("%s: has %s", where, k)
		}
	}
	_, typed := s["type"]
	_, union := s["anyOf"]
	if !typed && !union {
		t.Errorf("%s: no type", where)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for name, sub := range props {
			if m, ok := sub.(map[string]any); ok {
				checkTyped(t, where+"."+name, m)
			}
		}
	}
	for _, key := range []string{"items", "anyOf"} {
		switch v := s[key].(type) {
		case map[string]any:
			checkTyped(t, where+"."+key, v)
		case []any:
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					checkTyped(t, where+"."+key, m)
				}
			}
		}
	}
}

// checkStrict walks a schema: every object is closed and requires all of
// its properties.
func checkStrict(t *testing.T, where string, s map[string]any) {
	t.Helper()
	if props, ok := s["properties"].(map[string]any); ok {
		if s["additionalProperties"] != false {
			t.Errorf("%s: object not closed", where)
		}
		req := map[string]bool{}
		list, _ := s["required"].([]any)
		for _, r := range list {
			req[r.(string)] = true
		}
		for name, sub := range props {
			if !req[name] {
				t.Errorf("%s.%s: not required in Strict mode", where, name)
			}
			if m, ok := sub.(map[string]any); ok {
				checkStrict(t, where+"."+name, m)
			}
		}
	}
	for _, key := range []string{"items", "anyOf", "oneOf"} {
		switch v := s[key].(type) {
		case map[string]any:
			checkStrict(t, where+"."+key, v)
		case []any:
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					checkStrict(t, where+"."+key, m)
				}
			}
		}
	}
}
