package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/tools"
)

// toolsDoc is the generated page of the built-in tools.
var toolsDoc = filepath.Join("..", "..", "docs", "tools.md")

// defaultCatalog is the catalog with the default tool output budget, as
// the runtime offers it when no budget override is set.
func defaultCatalog(t *testing.T) []tools.Spec {
	t.Helper()
	catalog, err := toolCatalog(tools.DefaultBudget())
	if err != nil {
		t.Fatal(err)
	}
	return catalog
}

// TestToolsList: tools list --json prints every tool of the catalog with
// its schema, and the table every tool with each of its arguments.
func TestToolsList(t *testing.T) {
	t.Setenv("HOLON_DEFAULT_TOOL_OUTPUT_TOKENS", "")
	t.Setenv("HOLON_MAX_TOOL_OUTPUT_TOKENS", "")
	catalog := defaultCatalog(t)
	code, out, errOut := runCLI(t, "--json", "tools", "list")
	if code != exitOK || errOut != "" {
		t.Fatalf("tools list --json = %d, stderr %q", code, errOut)
	}
	var listed []tools.Spec
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("tools list --json printed %q: %v", out, err)
	}
	if len(listed) != len(catalog) {
		t.Fatalf("listed %d tools, the catalog has %d", len(listed), len(catalog))
	}
	for i, s := range catalog {
		var a, b any
		_ = json.Unmarshal(s.Parameters, &a)
		if err := json.Unmarshal(listed[i].Parameters, &b); err != nil || listed[i].Name != s.Name ||
			listed[i].Description != s.Description || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("listed %s differs from the catalog's %s", listed[i].Name, s.Name)
		}
	}
	for _, want := range []string{"Sleep", "ExecCommand", "RequestOperatorInput", "SpawnAgent", "TaskOutput"} {
		if !slices.ContainsFunc(listed, func(s tools.Spec) bool { return s.Name == want }) {
			t.Errorf("tools list --json has no %s", want)
		}
	}

	code, out, errOut = runCLI(t, "tools", "list")
	if code != exitOK || errOut != "" {
		t.Fatalf("tools list = %d, stderr %q", code, errOut)
	}
	for _, s := range catalog {
		args, err := toolArgs(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, s.Name+"\n") {
			t.Errorf("tools list has no %s", s.Name)
		}
		for _, a := range args {
			if !strings.Contains(out, "  - "+a.Name+" (") {
				t.Errorf("tools list has no argument %s of %s", a.Name, s.Name)
			}
		}
	}
	if !strings.Contains(out, "  - cmd (string, required): shell command line to run\n") {
		t.Errorf("tools list does not show ExecCommand's cmd as a required string:\n%s", out)
	}
}

// TestToolsListBadBudget: an invalid budget override is a usage error
// naming it, as it is for run.
func TestToolsListBadBudget(t *testing.T) {
	t.Setenv("HOLON_MAX_TOOL_OUTPUT_TOKENS", "lots")
	code, out, errOut := runCLI(t, "tools", "list")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "HOLON_MAX_TOOL_OUTPUT_TOKENS") {
		t.Fatalf("tools list with a bad budget = %d, stdout %q, stderr %q; want %d naming the variable", code, out, errOut, exitUsage)
	}
}

// TestToolsDoc: docs/tools.md is what the catalog generates; go test
// ./cmd/holon-actors -run TestToolsDoc -update rewrites it.
func TestToolsDoc(t *testing.T) {
	want, err := toolsMarkdown(defaultCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(toolsDoc, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/holon-actors -run TestToolsDoc -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docs/tools.md differs from the built-in tools: regenerate it with go test ./cmd/holon-actors -run TestToolsDoc -update")
	}
}

// toolsMarkdown renders the catalog as docs/tools.md.
func toolsMarkdown(catalog []tools.Spec) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Built-in tools\n\n" +
		"<!-- Generated from the runtime's tool catalog by go test ./cmd/holon-actors -run TestToolsDoc -update; do not edit. -->\n\n" +
		"Every agent is offered these tools, in this order, with these descriptions and argument schemas " +
		"(`holon-actors tools list --json` prints the same). Sleep and the tools from RequestOperatorInput to " +
		"CompleteWorkItem are the runtime's own: the agent applies them itself. NotifyOperator is offered when the " +
		"agent's profile exposes it. The output budgets in the descriptions are the defaults " +
		"(HOLON_DEFAULT_TOOL_OUTPUT_TOKENS and HOLON_MAX_TOOL_OUTPUT_TOKENS change them).\n\n")
	for _, s := range catalog {
		fmt.Fprintf(&b, "- [%s](#%s)\n", s.Name, strings.ToLower(s.Name))
	}
	for _, s := range catalog {
		args, err := toolArgs(s)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", s.Name, oneLineText(s.Description))
		if len(args) == 0 {
			b.WriteString("No arguments.\n\n")
		} else {
			b.WriteString("| Argument | Type | Required | Description |\n|---|---|---|---|\n")
			for _, a := range args {
				req := "no"
				if a.Required {
					req = "yes"
				}
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", a.Name, cell(a.Type), req, cell(a.Description))
			}
			b.WriteString("\n")
		}
		var schema bytes.Buffer
		if err := json.Indent(&schema, s.Parameters, "", "  "); err != nil {
			return nil, fmt.Errorf("schema of tool %s: %w", s.Name, err)
		}
		fmt.Fprintf(&b, "<details><summary>JSON schema</summary>\n\n```json\n%s\n```\n\n</details>\n", schema.Bytes())
	}
	return b.Bytes(), nil
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLineText(s), "|", `\|`) }
