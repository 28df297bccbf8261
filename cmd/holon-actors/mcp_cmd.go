package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// mcpCmd groups the commands about the runtime's MCP servers.
type mcpCmd struct {
	List  mcpListCmd  `cmd:"" help:"List the MCP servers: state, tools, crashes and last error (--agent: the servers that agent uses)."`
	Tools mcpToolsCmd `cmd:"" help:"List one MCP server's tools as agents see them (starts the server if idle)."`
}

// mcpClient is what the mcp commands need of the runtime's client; the
// control socket's client has it, a remote client does not.
type mcpClient interface {
	MCPServers(ctx context.Context, agent string) (control.MCPServerList, error)
	MCPTools(ctx context.Context, name string) (control.MCPToolList, error)
}

func dialMCP(e *env) (mcpClient, func(), error) {
	c, err := dial(e)
	if err != nil {
		return nil, nil, err
	}
	m, ok := c.(mcpClient)
	if !ok {
		c.Close()
		return nil, nil, errors.New("the mcp commands need the control socket or API, not --remote")
	}
	return m, c.Close, nil
}

type mcpListCmd struct{}

// Run prints one line per server.
func (mcpListCmd) Run(ctx context.Context, e *env) error {
	c, done, err := dialMCP(e)
	if err != nil {
		return err
	}
	defer done()
	list, err := c.MCPServers(ctx, e.Agent)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, list)
	}
	if len(list.Servers) == 0 {
		fmt.Fprintln(e.stdout, "no MCP servers (configure them in config.json mcp_servers)")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tTRANSPORT\tSTATE\tTOOLS\tCRASHES\tLAST ERROR")
	for _, s := range list.Servers {
		tools := strings.Join(s.Tools, ",")
		if tools == "" {
			tools = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", s.Name, s.Transport, s.State, tools, s.Crashes, orDash(s.LastError))
	}
	return tw.Flush()
}

type mcpToolsCmd struct {
	Server string `arg:"" help:"The server's name in config.json mcp_servers."`
}

// Run prints one line per tool.
func (t *mcpToolsCmd) Run(ctx context.Context, e *env) error {
	c, done, err := dialMCP(e)
	if err != nil {
		return err
	}
	defer done()
	list, err := c.MCPTools(ctx, t.Server)
	if err != nil {
		return err
	}
	if e.JSON {
		return printJSON(e, list)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tDESTRUCTIVE\tDESCRIPTION")
	for _, tool := range list.Tools {
		fmt.Fprintf(tw, "%s\t%v\t%s\n", tool.Name, tool.Destructive, tool.Description)
	}
	return tw.Flush()
}

// mcpStatusRows is the status line of agent id's MCP servers: each
// server's state and tool count, or "none" when its own selection (own,
// agents create --mcp) chose none; nothing when it uses none by the
// config or the client cannot ask (a remote client).
func mcpStatusRows(ctx context.Context, c runtimeClient, id string, own *messages.MCPSelection) [][2]string {
	m, ok := c.(mcpClient)
	if !ok {
		return nil
	}
	list, err := m.MCPServers(ctx, id)
	if err == nil && len(list.Servers) == 0 && own != nil {
		return [][2]string{{"mcp servers", "none (agents create --mcp " + own.String() + ")"}}
	}
	if err != nil || len(list.Servers) == 0 {
		return nil
	}
	var parts []string
	for _, s := range list.Servers {
		parts = append(parts, fmt.Sprintf("%s (%s, %d tools)", s.Name, s.State, len(s.Tools)))
	}
	return [][2]string{{"mcp servers", strings.Join(parts, ", ")}}
}
