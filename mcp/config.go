package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// ErrConfig is wrapped by every configuration error; the message names
// the field at fault and what to write instead.
var ErrConfig = errors.New("mcp config")

// ServerConfig is one MCP server of config.json mcp_servers: a stdio
// server (Command, Args, Env, Cwd) or a Streamable HTTP one (URL,
// Headers). Env and Headers map a name to the environment variable that
// holds its value, so no secret is written in the config file.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// OAuth is refused: OAuth servers are not supported yet.
	OAuth json.RawMessage `json:"oauth,omitempty"`
	// Allow and Deny filter the server's tools by name (path.Match
	// patterns); Deny wins, and a non-empty Allow hides every tool it
	// does not match.
	Allow []string `json:"allow_tools,omitempty"`
	Deny  []string `json:"deny_tools,omitempty"`
	// TimeoutSeconds bounds one tool call (default 60).
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
}

// Stdio reports a stdio server.
func (c ServerConfig) Stdio() bool { return c.Command != "" }

// Timeout is the bound of one tool call.
func (c ServerConfig) Timeout() time.Duration {
	if c.TimeoutSeconds > 0 {
		return time.Duration(c.TimeoutSeconds) * time.Second
	}
	return 60 * time.Second
}

// Offers reports whether the tool named tool passes the allow and deny lists.
func (c ServerConfig) Offers(tool string) bool {
	match := func(ps []string) bool {
		return slices.ContainsFunc(ps, func(p string) bool { ok, _ := path.Match(p, tool); return ok })
	}
	if match(c.Deny) {
		return false
	}
	return len(c.Allow) == 0 || match(c.Allow)
}

// Selection is which MCP servers an agent uses: all of them (the
// default), none, or the listed ones. In JSON it is "all", "none" or a
// list of server names.
type Selection struct {
	All     bool
	Servers []string // when not All; empty means none
}

// UnmarshalJSON reads "all", "none" or a list of names.
func (s *Selection) UnmarshalJSON(b []byte) error {
	var word string
	if json.Unmarshal(b, &word) == nil {
		switch word {
		case "all":
			*s = Selection{All: true}
			return nil
		case "none":
			*s = Selection{}
			return nil
		}
		return fmt.Errorf("%q: give \"all\", \"none\" or a list of server names", word)
	}
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return fmt.Errorf("give \"all\", \"none\" or a list of server names: %w", err)
	}
	*s = Selection{Servers: names}
	return nil
}

// MarshalJSON writes "all", "none" or the list.
func (s Selection) MarshalJSON() ([]byte, error) {
	switch {
	case s.All:
		return []byte(`"all"`), nil
	case len(s.Servers) == 0:
		return []byte(`"none"`), nil
	}
	return json.Marshal(s.Servers)
}

// ParseSelection reads an agents create --mcp value: all, none, or a
// comma-separated list of server names.
func ParseSelection(v string) Selection {
	switch v = strings.TrimSpace(v); v {
	case "all":
		return Selection{All: true}
	case "none", "":
		return Selection{}
	}
	var names []string
	for n := range strings.SplitSeq(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return Selection{Servers: names}
}

// Uses reports whether the selection includes server.
func (s Selection) Uses(server string) bool { return s.All || slices.Contains(s.Servers, server) }

// Config is the MCP part of config.json: the servers and which agents use
// them (mcp_agents: agent id, or "*" for every other agent, to a
// Selection; an agent with no entry uses every server).
type Config struct {
	Servers map[string]ServerConfig
	Agents  map[string]Selection
}

// serverName is what a server's name may be: it becomes part of its
// tools' names (mcp__<server>__<tool>), which providers limit to
// [a-zA-Z0-9_-].
var serverName = regexp.MustCompile(`^[a-zA-Z0-9-]+(_[a-zA-Z0-9-]+)*$`)

// ParseConfig decodes config.json's mcp_servers and mcp_agents (either
// may be empty) and validates them: every error wraps ErrConfig and names
// its field.
func ParseConfig(servers, agents json.RawMessage) (Config, error) {
	c := Config{Servers: map[string]ServerConfig{}, Agents: map[string]Selection{}}
	if len(bytes.TrimSpace(servers)) > 0 {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(servers, &raw); err != nil {
			return c, fmt.Errorf("%w: mcp_servers: give an object of server name to server: %v", ErrConfig, err)
		}
		for name, r := range raw {
			var s ServerConfig
			dec := json.NewDecoder(bytes.NewReader(r))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&s); err != nil {
				return c, fmt.Errorf("%w: mcp_servers.%s: %v", ErrConfig, name, err)
			}
			c.Servers[name] = s
		}
	}
	if len(bytes.TrimSpace(agents)) > 0 {
		if err := json.Unmarshal(agents, &c.Agents); err != nil {
			return c, fmt.Errorf("%w: mcp_agents: %v", ErrConfig, err)
		}
	}
	return c, c.Validate()
}

// Validate checks every server and selection, naming the field at fault.
func (c Config) Validate() error {
	for _, name := range c.Names() {
		if err := validateServer(name, c.Servers[name]); err != nil {
			return err
		}
	}
	for id, sel := range c.Agents {
		for _, s := range sel.Servers {
			if _, ok := c.Servers[s]; !ok {
				return fmt.Errorf("%w: mcp_agents.%s names the server %q, which mcp_servers does not have", ErrConfig, id, s)
			}
		}
	}
	return nil
}

// Names lists the servers, sorted.
func (c Config) Names() []string {
	names := make([]string, 0, len(c.Servers))
	for n := range c.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SelectionOf is agent id's selection: its entry, else "*", else all.
func (c Config) SelectionOf(id string) Selection {
	if s, ok := c.Agents[id]; ok {
		return s
	}
	if s, ok := c.Agents["*"]; ok {
		return s
	}
	return Selection{All: true}
}

func validateServer(name string, s ServerConfig) error {
	field := "mcp_servers." + name
	bad := func(sub, format string, a ...any) error {
		return fmt.Errorf("%w: %s%s %s", ErrConfig, field, sub, fmt.Sprintf(format, a...))
	}
	switch {
	case !serverName.MatchString(name) || strings.Contains(name, "__"):
		return bad("", "is not a usable server name: use letters, digits, - and single _ (it becomes part of mcp__%s__<tool>)", name)
	case len(s.OAuth) > 0:
		return bad(".oauth", "is not supported yet: give the token in a header from an environment variable (headers: {\"Authorization\": \"MY_TOKEN_ENV\"})")
	case s.Command == "" && s.URL == "":
		return bad("", "has neither command (a stdio server) nor url (a Streamable HTTP server): give one")
	case s.Command != "" && s.URL != "":
		return bad("", "has both command and url: give command for a stdio server or url for a Streamable HTTP one")
	case s.Command != "" && len(s.Headers) > 0:
		return bad(".headers", "is for url servers: give a stdio server its secrets through env")
	case s.URL != "" && (len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != ""):
		return bad("", "is a url server: args, env and cwd are for stdio servers (command)")
	case s.TimeoutSeconds < 0:
		return bad(".timeout_seconds", "%d is negative: give the seconds one call may take, or 0 for 60", s.TimeoutSeconds)
	}
	if s.URL != "" {
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad(".url", "%q is not an http(s) URL", s.URL)
		}
	}
	for _, m := range []struct {
		sub string
		vs  map[string]string
	}{{".env", s.Env}, {".headers", s.Headers}} {
		for k, v := range m.vs {
			if !envName.MatchString(v) {
				return bad(m.sub+"."+k, "%q is not an environment variable name: give the NAME of the variable holding the value, never the value itself", v)
			}
		}
	}
	for _, l := range []struct {
		sub string
		ps  []string
	}{{".allow_tools", s.Allow}, {".deny_tools", s.Deny}} {
		for i, p := range l.ps {
			if _, err := path.Match(p, ""); err != nil || strings.TrimSpace(p) == "" {
				return bad(fmt.Sprintf("%s[%d]", l.sub, i), "%q is not a tool name or pattern", p)
			}
		}
	}
	return nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// SelectionFrom is an agent's journaled selection (messages.MCPSelection)
// as a Selection.
func SelectionFrom(s messages.MCPSelection) Selection {
	return Selection{All: s.All, Servers: slices.Clone(s.Servers)}
}

// Message is the selection as it is journaled.
func (s Selection) Message() messages.MCPSelection {
	return messages.MCPSelection{All: s.All, Servers: slices.Clone(s.Servers)}
}
