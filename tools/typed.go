package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
)

// SchemaAdjuster is implemented by argument structs whose derived schema
// needs what struct tags cannot say, such as enums or bounds. It is called
// once, on the zero value, when the tool is built.
type SchemaAdjuster interface {
	AdjustSchema(s *jsonschema.Schema)
}

// Validator is implemented by argument structs with rules beyond the
// schema. A *FieldError names the offending field for the model.
type Validator interface {
	Validate() error
}

// FieldError is an argument problem tied to one field.
type FieldError struct {
	Field   string
	Problem string
	Hint    string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Problem }

// typed is a Tool whose arguments decode into A and are checked against
// the schema derived from A.
type typed[A any] struct {
	spec     Spec
	resolved *jsonschema.Resolved
	run      func(context.Context, A) Result
}

// Typed builds a Tool from an argument struct A: the schema published in
// Spec().Parameters is derived from A (json tags name the fields, fields
// without omitempty are required, a jsonschema tag is the description),
// and Call decodes the model's arguments into A, rejecting unknown fields,
// wrong types, missing fields and enum violations as invalid_tool_input
// errors with details.field, details.parse_error and a recovery_hint
// before run is called. A schema that cannot be derived is a programmer
// error and panics.
func Typed[A any](name, description string, run func(ctx context.Context, args A) Result) Tool {
	s, err := SchemaFor[A]()
	if err != nil {
		panic(fmt.Sprintf("tools: schema of %s: %v", name, err))
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("tools: resolve schema of %s: %v", name, err))
	}
	raw, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tools: marshal schema of %s: %v", name, err))
	}
	return &typed[A]{spec: Spec{Name: name, Description: description, Parameters: raw}, resolved: resolved, run: run}
}

// SchemaFor derives the JSON schema of the argument struct A, applying
// A's AdjustSchema when it has one.
func SchemaFor[A any]() (*jsonschema.Schema, error) {
	s, err := jsonschema.For[A](nil)
	if err != nil {
		return nil, fmt.Errorf("derive schema: %w", err)
	}
	var zero A
	if adj, ok := any(&zero).(SchemaAdjuster); ok {
		adj.AdjustSchema(s)
	} else if adj, ok := any(zero).(SchemaAdjuster); ok {
		adj.AdjustSchema(s)
	}
	return s, nil
}

func (t *typed[A]) Spec() Spec { return t.spec }

func (t *typed[A]) Call(ctx context.Context, args json.RawMessage) Result {
	a, ferr := DecodeArgs[A](t.resolved, args)
	if ferr != nil {
		return InvalidInput(t.spec.Name, ferr)
	}
	return t.run(ctx, a)
}

// DecodeArgs decodes the model's JSON arguments into A and checks them
// against resolved (A's schema) and A's Validate. Empty or null arguments
// count as {}, and a property whose value is null counts as omitted: a
// provider in strict schema mode makes every property required and has
// the model send null for the ones it leaves out.
func DecodeArgs[A any](resolved *jsonschema.Resolved, args json.RawMessage) (A, *FieldError) {
	var a A
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	var generic any
	if err := json.Unmarshal(trimmed, &generic); err != nil {
		return a, &FieldError{Problem: "the arguments are not valid JSON: " + err.Error()}
	}
	obj, ok := generic.(map[string]any)
	if !ok {
		return a, &FieldError{Problem: "the arguments are not a JSON object"}
	}
	if dropNulls(obj) {
		var err error
		if trimmed, err = json.Marshal(obj); err != nil {
			return a, &FieldError{Problem: "the arguments could not be re-encoded: " + err.Error()}
		}
	}
	if resolved != nil {
		if err := resolved.Validate(generic); err != nil {
			return a, schemaFieldError(err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, decodeFieldError(err)
	}
	if v, ok := any(&a).(Validator); ok {
		if err := v.Validate(); err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				return a, fe
			}
			return a, &FieldError{Problem: err.Error()}
		}
	}
	return a, nil
}

// dropNulls deletes, in place and recursively through objects and arrays,
// every object property whose value is null; true when it deleted one.
func dropNulls(v any) bool {
	dropped := false
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
				dropped = true
			} else if dropNulls(x) {
				dropped = true
			}
		}
	case []any:
		for _, x := range v {
			if dropNulls(x) {
				dropped = true
			}
		}
	}
	return dropped
}

var (
	pointerRe  = regexp.MustCompile(`validating (/[^:]*):`)
	missingRe  = regexp.MustCompile(`missing properties: \["([^"]*)"`)
	unknownRe  = regexp.MustCompile(`additional properties \["([^"]*)"`)
	unknownFld = regexp.MustCompile(`unknown field "([^"]*)"`)
)

// schemaFieldError turns a jsonschema validation error into the field it
// is about (a dotted path, [] for array items) and the problem.
func schemaFieldError(err error) *FieldError {
	msg := err.Error()
	field := ""
	if ms := pointerRe.FindAllStringSubmatch(msg, -1); len(ms) > 0 {
		field = pointerToField(ms[len(ms)-1][1])
	}
	for _, re := range []*regexp.Regexp{missingRe, unknownRe} {
		if m := re.FindStringSubmatch(msg); m != nil {
			field = joinField(field, m[1])
		}
	}
	problem := msg
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.HasPrefix(msg, "validating") {
		problem = msg[i+2:]
		if j := strings.LastIndex(msg[:i], ": "); j >= 0 && !strings.Contains(msg[j+2:i], "/") {
			problem = msg[j+2:]
		}
	}
	return &FieldError{Field: field, Problem: problem}
}

// pointerToField maps /properties/items/items/properties/x to items[].x.
func pointerToField(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	field := ""
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties":
			if i+1 < len(parts) {
				field = joinField(field, parts[i+1])
				i++
			}
		case "items":
			field += "[]"
		}
	}
	return field
}

func joinField(base, name string) string {
	if base == "" {
		return name
	}
	return base + "." + name
}

func decodeFieldError(err error) *FieldError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &FieldError{Field: te.Field, Problem: fmt.Sprintf("want %s, got JSON %s", te.Type, te.Value)}
	}
	if m := unknownFld.FindStringSubmatch(err.Error()); m != nil {
		return &FieldError{Field: m[1], Problem: "unknown field"}
	}
	return &FieldError{Problem: err.Error()}
}

// InvalidInput is the invalid_tool_input failure for a FieldError.
func InvalidInput(tool string, fe *FieldError) Result {
	details := map[string]string{"tool_name": tool, "parse_error": fe.Problem}
	if fe.Field != "" {
		details["field"] = fe.Field
	}
	hint := fe.Hint
	if hint == "" {
		hint = "provide input for " + tool + " that matches the published tool schema"
		if fe.Field != "" {
			hint = "fix field " + fe.Field + " and call " + tool + " again with input that matches the published tool schema"
		}
	}
	return Failure(tool, messages.ToolError, ToolError{
		Kind:         KindInvalidToolInput,
		Message:      "input for " + tool + " does not match the tool schema",
		Details:      mustJSON(details),
		RecoveryHint: hint,
	})
}
