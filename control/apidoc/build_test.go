package apidoc_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/control/apidoc"
)

// regenerate is what every drift failure tells to run.
const regenerate = "regenerate it with: go test ./control -run OpenAPI -update"

func routes() []control.Route { return control.NewServer(control.Config{}).Routes() }

// committed loads control/openapi.json as a client generator reads it.
func committed(t *testing.T) (*openapi3.T, []byte) {
	t.Helper()
	b, err := os.ReadFile("../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("load control/openapi.json: %v", err)
	}
	return doc, b
}

// TestDocumentValidates: the committed document is valid OpenAPI, its
// examples valid against their schemas, and every operation has an id,
// a request schema when it takes a body, a success schema and the Error
// schema for its failures.
func TestDocumentValidates(t *testing.T) {
	doc, _ := committed(t)
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.OperationID == "" {
				t.Errorf("%s has no operationId", where)
			}
			if body := op.RequestBody; body != nil && !rawBody(body.Value.Content) {
				if mt := body.Value.Content.Get("application/json"); mt == nil || mt.Schema == nil || mt.Example == nil {
					t.Errorf("%s has a request body without a schema or an example", where)
				}
			}
			var ok, failure bool
			for code, resp := range op.Responses.Map() {
				mt := resp.Value.Content.Get("application/json")
				switch {
				case strings.HasPrefix(code, "2") && rawBody(resp.Value.Content):
					ok = true
				case mt == nil || mt.Schema == nil:
					t.Errorf("%s answers %s without a JSON schema", where, code)
				case strings.HasPrefix(code, "2"):
					ok = true
				case mt.Schema.Ref == "#/components/schemas/Error":
					failure = true
					if code != "default" && mt.Example == nil {
						t.Errorf("%s answers %s without an example", where, code)
					}
				default:
					t.Errorf("%s answers %s with %s, not the Error schema", where, code, mt.Schema.Ref)
				}
			}
			if !ok || !failure {
				t.Errorf("%s: success schema %v, error schema %v; want both", where, ok, failure)
			}
		}
	}
}

// rawBody reports whether c is one non-JSON media type of binary data
// (an agent archive).
func rawBody(c openapi3.Content) bool {
	if len(c) != 1 || c.Get("application/json") != nil {
		return false
	}
	for _, mt := range c {
		return mt.Schema != nil && mt.Schema.Value != nil && mt.Schema.Value.Format == "binary"
	}
	return false
}

// TestDocumentCoversRoutes: every route the server serves is in the
// committed document under its operation id, and the document is exactly
// what Build makes of the routes, so a route added (or changed) without
// regenerating the document fails here with what to run.
func TestDocumentCoversRoutes(t *testing.T) {
	doc, b := committed(t)
	for _, r := range routes() {
		item := doc.Paths.Value(r.Pattern)
		var op *openapi3.Operation
		if item != nil {
			op = item.GetOperation(r.Method)
		}
		if op == nil || op.OperationID != r.OperationID {
			t.Errorf("route %s %s (%s) is not in control/openapi.json: %s", r.Method, r.Pattern, r.OperationID, regenerate)
		}
	}
	want, err := apidoc.Build(routes())
	if err != nil {
		t.Fatalf("Build: %v (fix the route's entry in control/routes.go)", err)
	}
	if string(b) != string(want) {
		t.Fatalf("control/openapi.json differs from what the route table generates: %s", regenerate)
	}
}

// TestBuildRefuses: a route the document cannot describe fails the build,
// naming the route.
func TestBuildRefuses(t *testing.T) {
	ok := control.Route{Method: "GET", Pattern: "/x", OperationID: "x", Response: control.AgentList{}}
	tests := []struct {
		name   string
		routes []control.Route
		want   string
	}{
		{"no operation id", []control.Route{{Method: "GET", Pattern: "/y", Response: control.AgentList{}}}, "GET /y: the route has no operation id"},
		{"no response", []control.Route{{Method: "GET", Pattern: "/y", OperationID: "y"}}, "GET /y: the route has no operation id or response type"},
		{"duplicate id", []control.Route{ok, {Method: "POST", Pattern: "/y", OperationID: "x", Response: control.AgentList{}}}, `POST /y: operation id "x" is GET /x's too`},
		{"unknown kind", []control.Route{{Method: "GET", Pattern: "/y", OperationID: "y", Response: control.AgentList{}, Errors: []string{"oops"}}}, `error kind "oops" is not one of`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := apidoc.Build(tt.routes); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Build = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := apidoc.Build([]control.Route{ok}); err != nil {
		t.Fatalf("Build(one good route) = %v", err)
	}
}
