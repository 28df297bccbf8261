// Package mcptest is a real MCP server built with the official SDK for the
// runtime's tests: tools that echo, return images and large text, hang,
// crash the process, change the tool list, report an environment variable,
// carry destructiveHint, and take third-party-style schemas (oneOf, $ref,
// a property without type). The mcptest-server command serves it over
// stdio; tests serve it over Streamable HTTP with StreamableHandler.
//
// mcptest is imported only by tests and that command.
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PNG is the 1x1 image the image tool returns.
var PNG = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'}

// ThirdPartySchema is the input schema of the tool "lookup": the shapes
// real servers publish that providers' strict modes refuse as they are.
const ThirdPartySchema = `{
  "type": "object",
  "$schema": "http://json-schema.org/draft-07/schema#",
  "properties": {
    "target": {"oneOf": [{"type": "string"}, {"$ref": "#/definitions/ref"}]},
    "ref": {"$ref": "#/definitions/ref", "description": "where to look"},
    "anything": {"description": "no type at all"},
    "mode": {"enum": ["fast", "slow"]},
    "tags": {"items": {"type": "string"}}
  },
  "required": ["target"],
  "definitions": {
    "ref": {"properties": {"owner": {"type": "string"}, "next": {"$ref": "#/definitions/ref"}}, "required": ["owner"]}
  }
}`

// Calls counts the tool calls this process served (the count tool reports it).
var calls atomic.Int64

// NewServer builds the test server.
func NewServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "mcptest", Version: "1"}, nil)
	obj := func(props string) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{` + props + `}}`)
	}
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	args := func(r *sdk.CallToolRequest) map[string]any {
		calls.Add(1)
		var m map[string]any
		_ = json.Unmarshal(r.Params.Arguments, &m)
		return m
	}
	f := false
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: obj(`"text":{"type":"string"}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprint(args(r)["text"])), nil
		})
	s.AddTool(&sdk.Tool{Name: "noop", Description: "Do nothing.", InputSchema: obj(``),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args(r)
			return text("ok"), nil
		})
	s.AddTool(&sdk.Tool{Name: "args", Description: "Return the arguments as received.", InputSchema: json.RawMessage(ThirdPartySchema),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &f}},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args(r)
			return text(string(r.Params.Arguments)), nil
		})
	s.AddTool(&sdk.Tool{Name: "image", Description: "Return an image and a resource.", InputSchema: obj(``)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args(r)
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "a picture"},
				&sdk.ImageContent{Data: PNG, MIMEType: "image/png"},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///report.json", MIMEType: "application/json", Text: `{"ok":true}`}},
			}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "big", Description: "Return n lines of text.", InputSchema: obj(`"lines":{"type":"integer"}`)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			n, _ := args(r)["lines"].(float64)
			var b strings.Builder
			for i := range int(n) {
				fmt.Fprintf(&b, "line %d of the big output\n", i)
			}
			return text(b.String()), nil
		})
	s.AddTool(&sdk.Tool{Name: "hang", Description: "Never answer.", InputSchema: obj(``)},
		func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args(r)
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&sdk.Tool{Name: "crash", Description: "Exit the server process.", InputSchema: obj(``)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(&sdk.Tool{Name: "fail", Description: "Answer with isError.", InputSchema: obj(``)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args(r)
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such repository"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "env", Description: "Report an environment variable.", InputSchema: obj(`"name":{"type":"string"}`)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(os.Getenv(fmt.Sprint(args(r)["name"]))), nil
		})
	s.AddTool(&sdk.Tool{Name: "pid", Description: "Report the server's process id.", InputSchema: obj(``)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args(r)
			return text(fmt.Sprint(os.Getpid())), nil
		})
	s.AddTool(&sdk.Tool{Name: "delete_repo", Description: "Delete a repository (destructive).", InputSchema: obj(`"name":{"type":"string"}`),
		Annotations: &sdk.ToolAnnotations{}},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("deleted " + fmt.Sprint(args(r)["name"])), nil
		})
	s.AddTool(&sdk.Tool{Name: "add_tool", Description: "Add the tool named name (tools/list_changed follows).", InputSchema: obj(`"name":{"type":"string"}`)},
		func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			name := fmt.Sprint(args(r)["name"])
			s.AddTool(&sdk.Tool{Name: name, Description: "Added at run time.", InputSchema: obj(``)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					return text("added " + name), nil
				})
			return text("added"), nil
		})
	return s
}

// StreamableHandler serves one shared test server over Streamable HTTP;
// with header set, requests without that header value are refused.
func StreamableHandler(header, value string) http.Handler {
	srv := NewServer()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if header != "" && r.Header.Get(header) != value {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
