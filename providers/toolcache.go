package providers

import (
	"encoding/json"
	"fmt"
	"sync"
)

// maxCachedTools bounds a ToolCache; past it the cache starts over.
const maxCachedTools = 4096

// ToolCache keeps each tool's wire encoding, keyed by everything that goes
// into it: the schema mode, name, description and parameters. An agent
// sends the same catalog every round, and emitting a schema (decode,
// rewrite, encode) costs more than the rest of a request together. A
// transport keeps one; it is safe for concurrent use.
type ToolCache struct {
	mu    sync.Mutex
	tools map[string]json.RawMessage
}

// ToolEncoder turns a tool and its schema, emitted in the cache's mode,
// into the vendor's wire form.
type ToolEncoder func(s ToolSpec, schema json.RawMessage) (json.RawMessage, error)

// Encode returns each tool's wire form, from the cache when it can; enc
// runs for a tool not seen before. A schema that fails to emit, or a tool
// enc refuses, fails the whole catalog and is not kept.
func (c *ToolCache) Encode(specs []ToolSpec, mode SchemaMode, enc ToolEncoder) ([]json.RawMessage, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := make([]json.RawMessage, 0, len(specs))
	for _, s := range specs {
		key := string(mode) + "\x00" + s.Name + "\x00" + s.Description + "\x00" + string(s.Parameters)
		c.mu.Lock()
		b, ok := c.tools[key]
		c.mu.Unlock()
		if !ok {
			schema, err := EmitSchemaJSON(s.Parameters, mode)
			if err == nil {
				b, err = enc(s, schema)
			}
			if err != nil {
				return nil, fmt.Errorf("tool %s: %w", s.Name, err)
			}
			c.put(key, b)
		}
		out = append(out, b)
	}
	return out, nil
}

// Len is how many encodings the cache holds.
func (c *ToolCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.tools)
}

func (c *ToolCache) put(key string, b json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tools == nil || len(c.tools) >= maxCachedTools {
		c.tools = map[string]json.RawMessage{}
	}
	c.tools[key] = b
}
