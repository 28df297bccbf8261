package anthropic

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// defaultMaxTokens is max_tokens when the endpoint sets no cap; the
// Messages API requires one.
const defaultMaxTokens = 8192

// maxSystemBreakpoints leaves one of Anthropic's four cache breakpoints
// for the rolling conversation marker.
const maxSystemBreakpoints = 3

// params lowers a request to a Messages body. The system prompt and
// system blocks become system text blocks, the marked ones (at most the
// last three) with cache_control; the conversation becomes alternating
// user and assistant messages; the turn-scoped context blocks follow the
// rolling cache marker in the last user message, so the cached prefix
// holds the whole history.
func (p *Messages) params(req providers.Request) (request, error) {
	body := request{MaxTokens: defaultMaxTokens, Model: p.ep.Ref.Model}
	if p.ep.MaxOutputTokens > 0 {
		body.MaxTokens = p.ep.MaxOutputTokens
	}
	body.System = system(req.Frame)
	body.Messages = addContext(conversation(req.Conversation), req.Frame.ContextBlocks)
	tools, err := p.tools.Encode(req.Tools, p.ep.Schema, func(s providers.ToolSpec, schema json.RawMessage) (json.RawMessage, error) {
		return encodeTool(s, schema, p.ep.Schema)
	})
	if err != nil {
		return body, err
	}
	if tools == nil {
		tools = []json.RawMessage{} // the list goes even when empty
	}
	body.Tools = tools
	return body, nil
}

func text(s string) *textBlock { return &textBlock{Text: s, Type: "text"} }

// system is the system prompt and the non-empty system blocks as text
// blocks, the last three marked ones with cache_control.
func system(f providers.PromptFrame) []textBlock {
	var out []textBlock
	if f.SystemPrompt != "" {
		out = append(out, textBlock{Text: f.SystemPrompt, Type: "text"})
	}
	marked := 0
	for i := len(f.SystemBlocks) - 1; i >= 0; i-- { // count from the end: later marks cover more
		if f.SystemBlocks[i].CacheBreakpoint && f.SystemBlocks[i].Text != "" {
			marked++
		}
	}
	skip := max(marked-maxSystemBreakpoints, 0)
	for _, b := range f.SystemBlocks {
		if b.Text == "" {
			continue
		}
		tb := textBlock{Text: b.Text, Type: "text"}
		if b.CacheBreakpoint {
			if skip > 0 {
				skip--
			} else {
				tb.CacheControl = ephemeral
			}
		}
		out = append(out, tb)
	}
	return out
}

// conversation groups items into alternating messages: an assistant
// round is one assistant message (text, then tool_use blocks); the user
// side between rounds is one user message with the tool_result blocks
// first, as the API requires, then the text of messages and
// notifications. The system notifications a carrier holds become one text
// block: right before a message's text, or right after the tool_result
// blocks for a tool batch.
func conversation(conv []providers.Item) []message {
	out := make([]message, 0, len(conv)+1)
	var results, batchNotes, texts []contentBlock
	flush := func() {
		if len(results)+len(batchNotes)+len(texts) > 0 {
			content := append(append(results, batchNotes...), texts...)
			out = append(out, message{Role: "user", Content: content})
			results, batchNotes, texts = nil, nil, nil
		}
	}
	for i, it := range conv {
		switch it.Kind {
		case providers.ItemAssistant:
			flush()
			out = append(out, message{Role: "assistant", Content: assistant(it)})
		case providers.ItemToolResult:
			results = append(results, &toolResultBlock{ToolUseID: it.CallID, IsError: it.IsError,
				Content: []textBlock{{Text: nonEmpty(it.Text), Type: "text"}}, Type: "tool_result"})
			batchNotes = appendNotifications(batchNotes, providers.BatchNotifications(conv, i))
		default:
			texts = appendNotifications(texts, it.Notifications)
			texts = append(texts, text(providers.ItemText(it)))
		}
	}
	flush()
	return out
}

// appendNotifications appends ns, rendered, as one text block; nothing
// when ns is empty.
func appendNotifications(blocks []contentBlock, ns []messages.SystemNotification) []contentBlock {
	if len(ns) == 0 {
		return blocks
	}
	return append(blocks, text(messages.RenderSystemNotifications(ns)))
}

// assistant is an assistant round's content: its text, then a tool_use
// block per call with the call's arguments as input.
func assistant(it providers.Item) []contentBlock {
	var blocks []contentBlock
	if it.Text != "" {
		blocks = append(blocks, text(it.Text))
	}
	for _, c := range it.ToolCalls {
		blocks = append(blocks, &toolUseBlock{ID: c.ID, Input: json.RawMessage(providers.Arguments(c)), Name: c.Name, Type: "tool_use"})
	}
	if len(blocks) == 0 {
		blocks = append(blocks, text("(no reply)")) // the API rejects empty content
	}
	return blocks
}

// nonEmpty keeps a tool result's text block valid: the API rejects empty
// text blocks.
func nonEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// addContext puts the rolling cache marker on the last block of the last
// user message, then appends the context blocks after it, in a user
// message of their own when the conversation does not end with one.
func addContext(msgs []message, blocks []providers.Block) []message {
	n := len(msgs)
	if n == 0 || msgs[n-1].Role != "user" {
		if !slices.ContainsFunc(blocks, func(b providers.Block) bool { return b.Text != "" }) {
			return msgs // no empty user message: the API rejects empty content
		}
		msgs = append(msgs, message{Role: "user"})
		n++
	}
	last := &msgs[n-1]
	if len(last.Content) > 0 {
		mark(last.Content[len(last.Content)-1])
	}
	for _, b := range blocks {
		if b.Text != "" {
			last.Content = append(last.Content, text(b.Text))
		}
	}
	return msgs
}

// mark sets cache_control on a text or tool_result block.
func mark(b contentBlock) {
	switch b := b.(type) {
	case *textBlock:
		b.CacheControl = ephemeral
	case *toolResultBlock:
		b.CacheControl = ephemeral
	}
}

// encodeTool is one Tool; strict is sent only in strict mode.
func encodeTool(s providers.ToolSpec, schema json.RawMessage, mode providers.SchemaMode) (json.RawMessage, error) {
	in, err := encodeInputSchema(schema)
	if err != nil {
		return nil, err
	}
	return json.Marshal(tool{InputSchema: in, Name: s.Name, Description: s.Description, Strict: mode.Strict()})
}

// encodeInputSchema writes an emitted schema as an input_schema: its
// properties, the names of its required list, type object (whatever the
// schema said), then each other keyword, sorted by name.
func encodeInputSchema(schema json.RawMessage) (json.RawMessage, error) {
	var kw map[string]json.RawMessage
	if err := json.Unmarshal(schema, &kw); err != nil {
		return nil, err
	}
	head := inputSchema{Properties: kw["properties"], Required: names(kw["required"]), Type: "object"}
	if string(head.Properties) == "null" {
		head.Properties = nil
	}
	b, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	delete(kw, "properties")
	delete(kw, "required")
	delete(kw, "type")
	buf := bytes.NewBuffer(b[:len(b)-1]) // head always has type: the object is never empty
	for _, k := range slices.Sorted(maps.Keys(kw)) {
		name, _ := json.Marshal(k)
		buf.WriteByte(',')
		buf.Write(name)
		buf.WriteByte(':')
		buf.Write(kw[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// names is the string entries of a required list; nil when it is absent
// or not a list.
func names(list json.RawMessage) []string {
	var entries []json.RawMessage
	if json.Unmarshal(list, &entries) != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		var name string
		if len(e) > 0 && e[0] == '"' && json.Unmarshal(e, &name) == nil {
			out = append(out, name)
		}
	}
	return out
}
