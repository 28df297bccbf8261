package providers

import (
	"encoding/json"
	"fmt"
	"sync"
)

// maxCachedTools bounds a ToolCache; past it the cache starts over.
const maxCachedTools = 4096

// ToolCache keeps each tool's wire encoding by schema mode and name, with
// the description and parameters it was made from: a tool whose spec
// changed is encoded again. An agent
// sends the same catalog every round, and emitting a schema (decode,
// rewrite, encode) costs more than the rest of a request together. A
// transport keeps one; it is safe for concurrent use.
type ToolCache struct {
	mu    sync.Mutex
	tools map[toolKey]cachedTool
}

// toolKey names a cached tool; the rest of its spec is compared on lookup
// (no key is built from the schema on the hot path).
type toolKey struct {
	mode SchemaMode
	name string
}

type cachedTool struct {
	description, parameters string
	encoded                 json.RawMessage
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
		key := toolKey{mode, s.Name}
		c.mu.Lock()
		hit, ok := c.tools[key]
		c.mu.Unlock()
		b := hit.encoded
		if !ok || hit.description != s.Description || hit.parameters != string(s.Parameters) {
			schema, err := EmitSchemaJSON(s.Parameters, mode)
			if err == nil {
				b, err = enc(s, schema)
			}
			if err != nil {
				return nil, fmt.Errorf("tool %s: %w", s.Name, err)
			}
			c.put(key, cachedTool{description: s.Description, parameters: string(s.Parameters), encoded: b})
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

func (c *ToolCache) put(key toolKey, t cachedTool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tools == nil || len(c.tools) >= maxCachedTools {
		c.tools = map[toolKey]cachedTool{}
	}
	c.tools[key] = t
}
