package control

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"strings"
)

// openAPIDoc is the checked-in OpenAPI document; TestOpenAPIInSync keeps it
// equal to BuildOpenAPI().
//
//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) openAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPIDoc)
}

// BuildOpenAPI renders the OpenAPI 3.1 document of routes.
func BuildOpenAPI(routes []Route) ([]byte, error) {
	paths := map[string]map[string]any{}
	for _, r := range routes {
		op := map[string]any{
			"summary":   r.Summary,
			"responses": responsesFor(r),
		}
		if params := parametersFor(r); len(params) > 0 {
			op["parameters"] = params
		}
		if r.Method == http.MethodPost {
			op["requestBody"] = map[string]any{"required": false, "content": map[string]any{
				"application/json": map[string]any{"schema": map[string]any{"type": "object"}}}}
		}
		if paths[r.Pattern] == nil {
			paths[r.Pattern] = map[string]any{}
		}
		paths[r.Pattern][strings.ToLower(r.Method)] = op
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "holon-actors control API", "version": "1",
			"description": "JSON over HTTP on $HOLON_HOME/run/control.sock (and TCP when enabled). Errors are {\"error\":{\"kind\",\"message\",\"hint\"}}, plus \"valid_choices\" on an invalid_answer. " +
				"Every route but /triggers/ and /ingress/ is the operator's: the runtime's own tool processes get 403 tool_process; " +
				"on TCP it needs Authorization: Bearer <control token> (401), and a peer past 10 wrong tokens gets 429 with Retry-After."},
		"paths": paths,
		"components": map[string]any{"schemas": map[string]any{"Error": map[string]any{
			"type": "object", "required": []string{"error"},
			"properties": map[string]any{"error": map[string]any{"type": "object", "required": []string{"kind", "message"},
				"properties": map[string]any{"kind": map[string]any{"type": "string"}, "message": map[string]any{"type": "string"},
					"hint":          map[string]any{"type": "string"},
					"valid_choices": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}},
		}}},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n'), err
}

func parametersFor(r Route) []map[string]any {
	var out []map[string]any
	for _, name := range []string{"id", "suspension_id"} {
		if strings.Contains(r.Pattern, "{"+name+"}") {
			out = append(out, map[string]any{"name": name, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
	}
	if r.Method == http.MethodGet && strings.HasSuffix(r.Pattern, "/{id}/suspensions") {
		out = append(out, map[string]any{"name": "state", "in": "query", "schema": map[string]any{"type": "string", "enum": []string{SuspensionsOpen}}})
	}
	if r.Method == http.MethodGet && (strings.HasSuffix(r.Pattern, "/events") || strings.HasSuffix(r.Pattern, "/transcript") || strings.HasSuffix(r.Pattern, "/briefs")) {
		out = append(out, map[string]any{"name": "last", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 1, "maximum": MaxLast}})
	}
	if r.Method == http.MethodDelete && r.Pattern == "/control/agents/{id}" {
		out = append(out, map[string]any{"name": "force", "in": "query", "schema": map[string]any{"type": "boolean"}})
	}
	if strings.HasSuffix(r.Pattern, "/events") {
		out = append(out,
			map[string]any{"name": "after", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 0}},
			map[string]any{"name": "limit", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 1, "maximum": MaxPageLimit}},
			map[string]any{"name": "Last-Event-ID", "in": "header", "schema": map[string]any{"type": "integer"}})
	}
	return out
}

func responsesFor(r Route) map[string]any {
	errRef := map[string]any{"description": "error", "content": map[string]any{
		"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}}
	ok := map[string]any{"description": "success", "content": map[string]any{"application/json": map[string]any{}}}
	out := map[string]any{"default": errRef}
	if strings.HasSuffix(r.Pattern, "/events") {
		ok["content"] = map[string]any{"application/json": map[string]any{}, "text/event-stream": map[string]any{}}
		out["429"] = map[string]any{"description": "too many event streams open: retry after Retry-After seconds",
			"headers": map[string]any{"Retry-After": map[string]any{"schema": map[string]any{"type": "integer"}}},
			"content": errRef["content"]}
	}
	if strings.HasSuffix(r.Pattern, "/export") {
		ok = map[string]any{"description": "the agent archive", "content": map[string]any{ArchiveContentType: map[string]any{}}}
	}
	switch {
	case strings.HasSuffix(r.Pattern, "/prompt"), strings.HasSuffix(r.Pattern, "/shutdown"):
		out["202"] = ok
	case r.Pattern == "/control/agents", r.Pattern == "/control/agents/import", r.Method == http.MethodPost && strings.HasSuffix(r.Pattern, "/work-items"):
		out["201"] = ok
	default:
		out["200"] = ok
	}
	return out
}
