package mcp_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/mcp"
)

func TestParseConfigRefusesBadFields(t *testing.T) {
	cases := []struct {
		name, servers, agents, want string
	}{
		{"neither command nor url", `{"gh":{}}`, ``, "mcp_servers.gh has neither command"},
		{"both", `{"gh":{"command":"x","url":"http://h"}}`, ``, "mcp_servers.gh has both"},
		{"oauth", `{"gh":{"url":"https://h/mcp","oauth":{"client_id":"x"}}}`, ``, "mcp_servers.gh.oauth is not supported yet"},
		{"secret value in env", `{"gh":{"command":"x","env":{"TOKEN":"ghp_abc def"}}}`, ``, "mcp_servers.gh.env.TOKEN"},
		{"header value", `{"gh":{"url":"https://h/mcp","headers":{"Authorization":"Bearer x"}}}`, ``, "mcp_servers.gh.headers.Authorization"},
		{"bad url", `{"gh":{"url":"ftp://h"}}`, ``, "mcp_servers.gh.url"},
		{"unknown field", `{"gh":{"command":"x","argz":[]}}`, ``, `mcp_servers.gh: json: unknown field "argz"`},
		{"bad name", `{"g h":{"command":"x"}}`, ``, "mcp_servers.g h is not a usable server name"},
		{"double underscore", `{"a__b":{"command":"x"}}`, ``, "mcp_servers.a__b is not a usable server name"},
		{"headers on stdio", `{"gh":{"command":"x","headers":{"A":"B"}}}`, ``, "mcp_servers.gh.headers"},
		{"negative timeout", `{"gh":{"command":"x","timeout_seconds":-1}}`, ``, "mcp_servers.gh.timeout_seconds"},
		{"bad pattern", `{"gh":{"command":"x","deny_tools":["["]}}`, ``, "mcp_servers.gh.deny_tools[0]"},
		{"unknown server in selection", `{"gh":{"command":"x"}}`, `{"main":["gl"]}`, `mcp_agents.main names the server "gl"`},
		{"bad selection word", `{"gh":{"command":"x"}}`, `{"main":"some"}`, `mcp_agents`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := mcp.ParseConfig(json.RawMessage(c.servers), json.RawMessage(c.agents))
			if !errors.Is(err, mcp.ErrConfig) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ParseConfig = %v, want ErrConfig naming %q", err, c.want)
			}
		})
	}
}

func TestParseConfigSelections(t *testing.T) {
	cfg, err := mcp.ParseConfig(json.RawMessage(`{"gh":{"command":"x","args":["-v"],"env":{"TOKEN":"GH_TOKEN"},"allow_tools":["get_*"],"deny_tools":["get_secret"]},
		"docs":{"url":"https://docs.example/mcp","headers":{"Authorization":"DOCS_AUTH"}}}`),
		json.RawMessage(`{"main":"all","scratch":"none","reviewer":["docs"],"*":["gh"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]string{"main": {"docs", "gh"}, "scratch": nil, "reviewer": {"docs"}, "other": {"gh"}} {
		m := mcp.NewManager(cfg, mcp.Options{})
		if got := m.ServersOf(id); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("ServersOf(%s) = %v, want %v", id, got, want)
		}
	}
	gh := cfg.Servers["gh"]
	for tool, want := range map[string]bool{"get_issue": true, "get_secret": false, "delete_repo": false} {
		if got := gh.Offers(tool); got != want {
			t.Errorf("Offers(%s) = %v, want %v", tool, got, want)
		}
	}
	if s := mcp.ParseSelection("gh, docs"); !s.Uses("docs") || s.Uses("other") {
		t.Errorf("ParseSelection(gh, docs) = %+v", s)
	}
}
