// Package openaichat is the OpenAI-compatible Chat Completions transport
// (openai_chat_completions): POST <base URL>/chat/completions, for any
// server that accepts that request shape — Ollama, vLLM, llama.cpp server,
// OpenRouter, DeepSeek and the like — configured per provider id.
//
// It sends lean wire types of its own (wire.go, named after the vendor's
// OpenAPI document) with encoding/json through providers.Post, which makes
// no retries: retry, fallback and backoff belong to providers.Chain. The
// official SDK (github.com/openai/openai-go/v3) is not used: through its
// reflective marshalling a round cost over three times a bare net/http
// round trip with the same body (BenchmarkChatRound). Each tool's emitted
// schema is encoded once and kept (providers.ToolCache). Replies are read
// as leniently as the SDK read them where compatible servers differ: tool
// arguments or content that are not a string keep their JSON text, and a
// usage count that is not an integer never fails a reply.
//
// A carrier's system notifications go as a system message (compatible
// servers often reject developer): before a message, after the last tool
// message of a tool batch. max_tokens is sent when the endpoint caps the
// reply, prompt_cache_key only to OpenAI itself. A Chat value is immutable
// and safe for concurrent use; a call starts no goroutine that outlives it.
//
// openaichat imports providers and messages and nothing else from this
// module.
package openaichat
