package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/tools"
)

// toolsCmd groups the tool commands.
type toolsCmd struct {
	List toolsListCmd `cmd:"" help:"List every built-in tool the runtime offers its agents, with its arguments; --json prints each one's name, description and JSON schema."`
}

// toolsListCmd is `holon-actors tools list`: the catalog as the runtime
// would offer it to a model, with this environment's tool output budget.
type toolsListCmd struct{}

// Run prints the catalog.
func (c *toolsListCmd) Run(e *env) error {
	budget, err := actors.BuiltinBudget()
	if err != nil {
		return usage(err)
	}
	catalog, err := toolCatalog(budget)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, catalog)
	}
	return printTools(e.stdout, catalog)
}

// toolCatalog is every tool an agent can be offered with budget.
func toolCatalog(budget tools.Budget) ([]tools.Spec, error) {
	registry, err := actors.BuiltinTools(budget)
	if err != nil {
		return nil, err
	}
	return actors.ToolCatalog(registry), nil
}

// printTools writes each tool's name, description and arguments.
func printTools(w io.Writer, catalog []tools.Spec) error {
	for i, s := range catalog {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s\n  %s\n", s.Name, oneLineText(s.Description))
		args, err := toolArgs(s)
		if err != nil {
			return err
		}
		for _, a := range args {
			req := ""
			if a.Required {
				req = ", required"
			}
			fmt.Fprintf(w, "  - %s (%s%s): %s\n", a.Name, a.Type, req, oneLineText(a.Description))
		}
	}
	return nil
}

// toolArg is one argument of a tool, read from its JSON schema.
type toolArg struct {
	Name, Type, Description string
	Required                bool
}

// argSchema is the part of a property's JSON schema an argument shows.
type argSchema struct {
	Type        any        `json:"type"` // a name, or a list of names ("null" for optional)
	Description string     `json:"description"`
	Enum        []any      `json:"enum"`
	Items       *argSchema `json:"items"`
	Minimum     *float64   `json:"minimum"`
	Maximum     *float64   `json:"maximum"`
}

// toolArgs lists s's arguments in the order its schema declares them.
func toolArgs(s tools.Spec) ([]toolArg, error) {
	var schema struct {
		Properties map[string]argSchema `json:"properties"`
		Required   []string             `json:"required"`
	}
	if err := json.Unmarshal(s.Parameters, &schema); err != nil {
		return nil, fmt.Errorf("schema of tool %s: %w", s.Name, err)
	}
	order, err := propertyOrder(s.Parameters)
	if err != nil {
		return nil, fmt.Errorf("schema of tool %s: %w", s.Name, err)
	}
	out := make([]toolArg, 0, len(order))
	for _, name := range order {
		p := schema.Properties[name]
		out = append(out, toolArg{Name: name, Type: typeText(p), Description: p.Description,
			Required: slices.Contains(schema.Required, name)})
	}
	return out, nil
}

// propertyOrder returns the keys of a schema's "properties" as written.
func propertyOrder(schema json.RawMessage) ([]string, error) {
	var top struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &top); err != nil || len(top.Properties) == 0 {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(top.Properties))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// typeText says a property's type: "string", "array of object",
// "integer, 1 to 604800000", "string: one of a, b", "number or null".
func typeText(p argSchema) string {
	var names []string
	nullable := false
	switch t := p.Type.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, n := range t {
			if n == "null" {
				nullable = true
			} else if s, ok := n.(string); ok {
				names = append(names, s)
			}
		}
	}
	sort.Strings(names)
	text := strings.Join(names, " or ")
	if text == "" {
		text = "any"
	}
	if text == "array" && p.Items != nil {
		text = "array of " + typeText(*p.Items)
	}
	num := func(f *float64) string { return strconv.FormatFloat(*f, 'f', -1, 64) }
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		text += ", " + num(p.Minimum) + " to " + num(p.Maximum)
	case p.Minimum != nil:
		text += ", at least " + num(p.Minimum)
	case p.Maximum != nil:
		text += ", at most " + num(p.Maximum)
	}
	var enum []string
	for _, v := range p.Enum {
		if v != nil {
			enum = append(enum, fmt.Sprint(v))
		}
	}
	if len(enum) > 0 {
		text += ": one of " + strings.Join(enum, ", ")
	}
	if nullable {
		text += ", or null"
	}
	return text
}
