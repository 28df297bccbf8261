package apidoc

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"

	"github.com/holon-actors/holon-actors/control"
)

// description is the document's info.description.
const description = "JSON over HTTP on $HOLON_HOME/run/control.sock (and TCP when enabled). " +
	"Every failed request answers {\"error\": {\"kind\", \"message\", \"hint\"}} (the Error schema), plus \"valid_choices\" on an invalid_answer; " +
	"each operation lists the kinds it can answer under their status. " +
	"Every route but /triggers/ and /ingress/ is the operator's: the runtime's own tool processes get 403 tool_process; " +
	"on TCP it needs Authorization: Bearer <control token> (401), and a peer past 10 wrong tokens gets 429 with Retry-After."

// Build renders the OpenAPI document of routes, indented JSON with a
// final newline. It fails on a route the document cannot describe: no
// operation id or response type, a duplicate operation id, an unknown
// error kind, an example that does not encode.
func Build(routes []control.Route) ([]byte, error) {
	doc, err := Document(routes)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode OpenAPI document: %w", err)
	}
	return append(b, '\n'), nil
}

// Document builds the OpenAPI document of routes.
func Document(routes []control.Route) (*openapi3.T, error) {
	b := newBuilder()
	doc := &openapi3.T{
		OpenAPI:    "3.0.3",
		Info:       &openapi3.Info{Title: "holon-actors control API", Version: "1", Description: description},
		Paths:      openapi3.NewPaths(),
		Components: &openapi3.Components{Schemas: b.schemas},
	}
	if err := b.errorSchemas(); err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for _, r := range routes {
		where := r.Method + " " + r.Pattern
		if prev, ok := seen[r.OperationID]; ok {
			return nil, fmt.Errorf("%s: operation id %q is %s's too", where, r.OperationID, prev)
		}
		seen[r.OperationID] = where
		op, err := b.operation(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		item := doc.Paths.Value(r.Pattern)
		if item == nil {
			item = &openapi3.PathItem{}
			doc.Paths.Set(r.Pattern, item)
		}
		item.SetOperation(r.Method, op)
	}
	return doc, nil
}

// builder turns Go types into component schemas, shared by every route.
type builder struct {
	schemas openapi3.Schemas
	names   map[string]reflect.Type // component name → the type it was made from
	gen     *openapi3gen.Generator
	err     error // the first name clash
}

func newBuilder() *builder {
	b := &builder{schemas: openapi3.Schemas{}, names: map[string]reflect.Type{}}
	b.gen = openapi3gen.NewGenerator(
		openapi3gen.CreateComponentSchemas(openapi3gen.ExportComponentSchemasOptions{
			ExportComponentSchemas: true, ExportTopLevelSchema: true}),
		openapi3gen.CreateTypeNameGenerator(b.typeName),
		openapi3gen.SchemaCustomizer(customize))
	return b
}

// typeName names the component of t: its Go name for a type of package
// control, prefixed with its package's name for another (ActorsAgentInfo,
// MessagesFailure), so that every name is unique and stays put as routes
// come and go.
func (b *builder) typeName(t reflect.Type) string {
	name := t.Name()
	switch pkg := path.Base(t.PkgPath()); {
	case t == reflect.TypeFor[control.Error]():
		name = "ErrorDetail"
	case t.PkgPath() != reflect.TypeFor[control.Route]().PkgPath() && pkg != "." && pkg != "":
		name = strings.ToUpper(pkg[:1]) + pkg[1:] + name
	}
	if prev, ok := b.names[name]; ok && prev != t && b.err == nil {
		b.err = fmt.Errorf("two types are named %s (%s and %s): the document needs one name per schema", name, prev, t)
	}
	b.names[name] = t
	return name
}

// schema returns the schema of v's type, adding the components it uses.
func (b *builder) schema(v any) (*openapi3.SchemaRef, error) {
	ref, err := b.gen.NewSchemaRefForValue(v, b.schemas)
	if err != nil {
		return nil, fmt.Errorf("schema of %T: %w", v, err)
	}
	return ref, b.err
}

// errorSchemas adds Error, the body of every failed request, and
// ErrorDetail, its "error", with the kinds as an enum.
func (b *builder) errorSchemas() error {
	detail, err := b.schema(control.Error{})
	if err != nil {
		return err
	}
	d := b.schemas["ErrorDetail"].Value
	for _, ks := range kindStatus {
		if !slices.Contains(d.Properties["kind"].Value.Enum, any(ks.kind)) {
			d.Properties["kind"].Value.Enum = append(d.Properties["kind"].Value.Enum, ks.kind)
		}
	}
	d.Properties["kind"].Value.Description = "Stable: match on it. The status of each kind is listed in the operations that answer it."
	d.Properties["message"].Value.Description = "What went wrong, with the names and values involved."
	d.Properties["hint"].Value.Description = "What to do about it."
	d.Properties["valid_choices"].Value.Description = "The values a choice or confirm suspension accepts, on invalid_answer."
	b.schemas["Error"] = openapi3.NewSchemaRef("", &openapi3.Schema{
		Type: &openapi3.Types{"object"}, Required: []string{"error"},
		Properties: openapi3.Schemas{"error": detail}})
	return nil
}

// operation describes route r.
func (b *builder) operation(r control.Route) (*openapi3.Operation, error) {
	if r.OperationID == "" || (r.Response == nil && r.ResponseType == "") {
		return nil, fmt.Errorf("the route has no operation id or response type: give its entry in control/routes.go both")
	}
	op := &openapi3.Operation{OperationID: r.OperationID, Summary: r.Summary, Responses: openapi3.NewResponses()}
	op.Parameters = append(pathParams(r.Pattern), queryParams(r.Params)...)
	if r.RequestType != "" {
		op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).
			WithDescription("The raw body, " + r.RequestType + ".").WithContent(rawContent(r.RequestType))}
	} else if r.Request != nil {
		body, err := b.content(r.Request, r.Example)
		if err != nil {
			return nil, fmt.Errorf("request: %w", err)
		}
		op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().
			WithDescription("A JSON object; unknown fields are refused (400).").WithContent(body)}
	}
	var ok openapi3.Content
	if r.ResponseType != "" {
		ok = rawContent(r.ResponseType)
	} else {
		var err error
		if ok, err = b.content(r.Response, r.ResponseExample); err != nil {
			return nil, fmt.Errorf("response: %w", err)
		}
	}
	if r.EventStream {
		sse := openapi3.NewStringSchema()
		sse.Description = "Server-Sent Events: one event per journal event, its id the event_seq, its data a StreamEvent."
		ok["text/event-stream"] = openapi3.NewMediaType().WithSchema(sse)
	}
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	op.Responses.Delete("default")
	op.Responses.Set(strconv.Itoa(status), &openapi3.ResponseRef{Value: openapi3.NewResponse().
		WithDescription(http.StatusText(status)).WithContent(ok)})
	if err := errorResponses(op.Responses, r); err != nil {
		return nil, err
	}
	return op, nil
}

// content is the application/json content of v's type, with example ex.
func (b *builder) content(v, ex any) (openapi3.Content, error) {
	ref, err := b.schema(v)
	if err != nil {
		return nil, err
	}
	mt := openapi3.NewMediaType().WithSchemaRef(ref)
	if ex != nil {
		raw, err := json.Marshal(ex)
		if err != nil {
			return nil, fmt.Errorf("example: %w", err)
		}
		var decoded any
		if err := json.Unmarshal(raw, &decoded); err != nil {
			return nil, fmt.Errorf("example: %w", err)
		}
		mt.Example = decoded
	}
	return openapi3.Content{"application/json": mt}, nil
}

// rawContent is a binary body of media type ct.
func rawContent(ct string) openapi3.Content {
	sc := openapi3.NewStringSchema()
	sc.Format = "binary"
	return openapi3.Content{ct: openapi3.NewMediaType().WithSchema(sc)}
}

// errorResponses adds one response per error status of r, naming its
// kinds, with an example of the first, and the default response.
func errorResponses(rs *openapi3.Responses, r control.Route) error {
	for _, k := range r.Errors {
		if statusOf(k) == 0 {
			return fmt.Errorf("error kind %q is not one of control's Kind constants", k)
		}
	}
	byStatus := map[int][]string{}
	var order []int
	for _, k := range routeKinds(r) {
		s := statusOf(k)
		if byStatus[s] == nil {
			order = append(order, s)
		}
		byStatus[s] = append(byStatus[s], k)
	}
	for _, s := range order {
		kinds := byStatus[s]
		resp := openapi3.NewResponse().WithDescription(http.StatusText(s) + ": " + strings.Join(kinds, ", ")).
			WithContent(errorContent(kinds[0]))
		if s == http.StatusTooManyRequests {
			resp.Headers = openapi3.Headers{"Retry-After": &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
				Description: "Seconds to wait before trying again.", Schema: openapi3.NewIntegerSchema().NewRef()}}}}
		}
		rs.Set(strconv.Itoa(s), &openapi3.ResponseRef{Value: resp})
	}
	rs.Set("default", &openapi3.ResponseRef{Value: openapi3.NewResponse().
		WithDescription("Any other failure, in the same shape.").WithContent(errorContent(""))})
	return nil
}

// errorContent is the Error schema, with an example of kind (none when
// kind is empty).
func errorContent(kind string) openapi3.Content {
	mt := openapi3.NewMediaType().WithSchemaRef(openapi3.NewSchemaRef("#/components/schemas/Error", nil))
	if kind != "" {
		ex := kindExamples[kind]
		mt.Example = map[string]any{"error": map[string]any{"kind": kind, "message": ex[0], "hint": ex[1]}}
	}
	return openapi3.Content{"application/json": mt}
}

// pathParamRE finds the {name} segments of a pattern.
var pathParamRE = regexp.MustCompile(`\{([a-z_]+)\}`)

func hasPathParams(pattern string) bool { return pathParamRE.MatchString(pattern) }

// pathDescriptions describe the path parameters.
var pathDescriptions = map[string]string{
	"id":            "The agent id: 1 to 128 letters, digits, '.', '_' or '-'.",
	"suspension_id": "The suspension id, as listed by GET /agents/{id}/suspensions.",
	"token":         "The trigger token: the capability URL's last segment.",
}

func pathParams(pattern string) openapi3.Parameters {
	var out openapi3.Parameters
	for _, m := range pathParamRE.FindAllStringSubmatch(pattern, -1) {
		p := openapi3.NewPathParameter(m[1]).WithSchema(openapi3.NewStringSchema()).
			WithDescription(pathDescriptions[m[1]])
		out = append(out, &openapi3.ParameterRef{Value: p})
	}
	return out
}

func queryParams(ps []control.Param) openapi3.Parameters {
	var out openapi3.Parameters
	for _, p := range ps {
		s := &openapi3.Schema{Type: &openapi3.Types{p.Type}, Min: p.Min, Max: p.Max}
		for _, e := range p.Enum {
			s.Enum = append(s.Enum, e)
		}
		out = append(out, &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: p.Name, In: p.In,
			Description: p.Description, Schema: s.NewRef()}})
	}
	return out
}
