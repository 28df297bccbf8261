// Package openai is the OpenAI Responses transport: Responses, the
// non-streaming JSON contract of openai/* models, and Codex, the streaming
// (SSE) contract of openai-codex/* models with the Codex request rules.
//
// Both send lean wire types of their own (wire.go, named after the
// vendor's OpenAPI document) with encoding/json through providers.Post,
// which makes no retries: retry, fallback and backoff belong to
// providers.Chain. The official SDK (github.com/openai/openai-go/v3)
// still parses the Codex event stream (packages/ssestream); its request
// and response types are not used because their reflective marshalling
// cost about three times a whole loopback round trip (bench transport).
// Each tool's emitted schema is encoded once and kept (providers.ToolCache).
//
// The transports are immutable and safe for concurrent use; a call starts
// no goroutine that outlives it. A carrier's system notifications go as a
// developer message: just before a message, just after the last
// function_call_output of a tool batch.
//
// openai imports providers and messages and nothing else from this module.
package openai
