package providers

// PromptCapability is a transport's prompt-lowering capability
// (runtime-spec-v0 "Provider Prompt Frame").
type PromptCapability string

// The prompt capabilities.
const (
	CapFullRequestOnly      PromptCapability = "full_request_only"
	CapPromptCacheKey       PromptCapability = "prompt_cache_key"
	CapPromptCacheBlocks    PromptCapability = "prompt_cache_blocks"
	CapIncrementalResponses PromptCapability = "incremental_responses"
	CapContextManagement    PromptCapability = "context_management"
)

// String returns the capability as spelled in diagnostics.
func (c PromptCapability) String() string { return string(c) }

// Capable is implemented by transports that declare their capabilities.
type Capable interface {
	Capabilities() []PromptCapability
}

// CapabilitiesOf returns p's declared capabilities, full_request_only for
// a provider that declares none.
func CapabilitiesOf(p Provider) []PromptCapability {
	if c, ok := p.(Capable); ok {
		if caps := c.Capabilities(); len(caps) > 0 {
			return caps
		}
	}
	return []PromptCapability{CapFullRequestOnly}
}
