package actors_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/testkit"
	"github.com/holon-actors/holon-actors/tools"
)

// TestToolCatalogIsWhatTheModelIsOffered: the catalog of the built-in
// registry is, tool for tool, what an agent with the built-in tools,
// NotifyOperator and a home (so the memory tools) offers the model in a
// request.
func TestToolCatalogIsWhatTheModelIsOffered(t *testing.T) {
	registry, err := actors.BuiltinTools(tools.DefaultBudget())
	if err != nil {
		t.Fatal(err)
	}
	h := testkit.NewWith(t, testkit.Options{Steps: []testkit.Step{testkit.Reply("ok")},
		Deps: func(home string, d *actors.AgentDeps) {
			d.Tools, d.NotifyOperatorTool, d.ToolEnv = registry, true, actors.ToolEnv{Home: home}
		}})
	h.Prompt("main", "hi")
	h.WaitEvent("main", testkit.OfType("turn_terminal"))
	reqs := h.Provider.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	var offered []tools.Spec
	for _, s := range reqs[0].Tools {
		offered = append(offered, tools.Spec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	catalog := actors.ToolCatalog(registry)
	names := func(ss []tools.Spec) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	if !slices.Equal(names(catalog), names(offered)) {
		t.Fatalf("catalog %v, offered %v", names(catalog), names(offered))
	}
	for i, s := range catalog {
		if s.Description != offered[i].Description || string(s.Parameters) != string(offered[i].Parameters) {
			t.Errorf("%s: catalog and request differ", s.Name)
		}
		var schema map[string]any
		if err := json.Unmarshal(s.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: parameters %s are not an object schema (%v)", s.Name, s.Parameters, err)
		}
	}
}
