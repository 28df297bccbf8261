package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// KindToolError is the error kind of a call the MCP server answered with
// isError; KindUnavailable of a server that cannot be reached;
// KindTimeout of a call that outlived its server's timeout.
const (
	KindToolError   = "mcp_tool_error"
	KindUnavailable = "mcp_server_unavailable"
	KindTimeout     = "mcp_timeout"
)

// CallResult is the result of an MCP tool call as the canonical envelope
// keeps it: the text content (bounded, the whole of it in TextArtifact
// when it was cut), the structured content, and the images, audio and
// resources kept as artifacts.
type CallResult struct {
	Server       string             `json:"server"`
	Tool         string             `json:"tool"`
	Text         string             `json:"text,omitempty"`
	Truncated    bool               `json:"truncated,omitempty"`
	TextArtifact *tools.ArtifactRef `json:"text_artifact,omitempty"`
	Structured   json.RawMessage    `json:"structured,omitempty"`
	Artifacts    []Artifact         `json:"artifacts,omitempty"`
}

// Artifact is one non-text content block of a result: an image, audio or
// an embedded resource saved as a file (Path), or a resource link (URI
// only).
type Artifact struct {
	Kind     string `json:"kind"` // image, audio, resource, resource_link
	MIMEType string `json:"mime_type,omitempty"`
	URI      string `json:"uri,omitempty"`
	Path     string `json:"path,omitempty"`
	Bytes    int    `json:"bytes,omitempty"`
	Error    string `json:"error,omitempty"` // why it could not be kept
}

// resultOf turns the server's answer into the tool's result: text within
// the output budget, everything else into artifacts with a text receipt.
func resultOf(ctx context.Context, server, tool, name string, r *sdk.CallToolResult) tools.Result {
	cfg, _ := exec.ConfigFrom(ctx)
	out := CallResult{Server: server, Tool: tool}
	dir := "mcp/" + server + "/" + callDir()
	var text []string
	for i, c := range r.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			text = append(text, c.Text)
		case *sdk.ImageContent:
			out.Artifacts = append(out.Artifacts, keep(cfg.Artifacts, dir, i, "image", c.MIMEType, "", c.Data))
		case *sdk.AudioContent:
			out.Artifacts = append(out.Artifacts, keep(cfg.Artifacts, dir, i, "audio", c.MIMEType, "", c.Data))
		case *sdk.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			data := c.Resource.Blob
			if data == nil {
				data = []byte(c.Resource.Text)
			}
			out.Artifacts = append(out.Artifacts, keep(cfg.Artifacts, dir, i, "resource", c.Resource.MIMEType, c.Resource.URI, data))
		case *sdk.ResourceLink:
			out.Artifacts = append(out.Artifacts, Artifact{Kind: "resource_link", MIMEType: c.MIMEType, URI: c.URI})
		}
	}
	full := strings.Join(text, "\n")
	budget := cfg.Budget
	if budget.Validate() != nil {
		budget = tools.DefaultBudget()
	}
	out.Text, out.Truncated = tools.HeadTail(full, budget.Tokens(0)*tools.CharsPerToken)
	if out.Truncated && cfg.Artifacts != nil {
		if a := keep(cfg.Artifacts, dir, len(r.Content), "text", "text/plain", "", []byte(full)); a.Path != "" {
			out.TextArtifact = &tools.ArtifactRef{Path: a.Path}
		}
	}
	if r.StructuredContent != nil && len(text) == 0 {
		out.Structured, _ = json.Marshal(r.StructuredContent)
	}
	if r.IsError {
		msg, _ := tools.HeadTail(full, 2000)
		return tools.Failure(name, messages.ToolError, tools.ToolError{
			Kind: KindToolError, Message: strings.TrimSpace("the MCP server reported an error: " + msg),
			RecoveryHint: "read the server's message, fix the arguments and call again",
		})
	}
	summary := fmt.Sprintf("%s on MCP server %s returned %d content block(s)", tool, server, len(r.Content))
	return tools.Build(tools.SuccessEnvelope(name, summary, out), receipt)
}

// receipt renders a CallResult for the model: the text, then a line per
// artifact saying where it is.
var receipt tools.Renderer = tools.RenderFunc(func(env tools.Envelope) string {
	var r CallResult
	if json.Unmarshal(env.Result, &r) != nil {
		return env.SummaryText
	}
	var b strings.Builder
	b.WriteString(r.Text)
	if r.TextArtifact != nil {
		fmt.Fprintf(&b, "\n[output truncated; the full text is at %s]", r.TextArtifact.Path)
	}
	if len(r.Structured) > 0 {
		b.WriteString(tools.PrettyJSON(r.Structured))
	}
	for _, a := range r.Artifacts {
		switch {
		case a.Path != "":
			fmt.Fprintf(&b, "\n[%s %s, %d bytes, kept at %s]", a.Kind, a.MIMEType, a.Bytes, a.Path)
		case a.Error != "":
			fmt.Fprintf(&b, "\n[%s %s not kept: %s]", a.Kind, a.MIMEType, a.Error)
		default:
			fmt.Fprintf(&b, "\n[%s %s]", a.Kind, a.URI)
		}
	}
	if b.Len() == 0 {
		return env.SummaryText
	}
	return strings.TrimLeft(b.String(), "\n")
})

// keep writes one content block as the artifact dir/<i>.<ext>.
func keep(dir *tools.ArtifactDir, sub string, i int, kind, mime, uri string, data []byte) Artifact {
	a := Artifact{Kind: kind, MIMEType: mime, URI: uri, Bytes: len(data)}
	if dir == nil {
		a.Error = "the agent has no artifact directory"
		return a
	}
	name := fmt.Sprintf("%s/%d%s", sub, i, extension(mime))
	f, err := dir.Create(name)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	_, err = f.Write(dir.Redact(data))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		a.Error = err.Error()
		return a
	}
	a.Path = dir.Path(name)
	return a
}

func extension(mime string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "application/json":
		return ".json"
	case "text/plain":
		return ".txt"
	}
	return ".bin"
}

// callDir names one call's artifact directory.
func callDir() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
