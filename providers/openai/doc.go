// Package openai is the OpenAI Responses transport: Responses, the
// non-streaming JSON contract of openai/* models, and Codex, the streaming
// (SSE) contract of openai-codex/* models with the Codex request rules.
//
// Both build requests and parse replies with the official SDK
// (github.com/openai/openai-go/v3) with its retries off and no environment
// defaults: retry, fallback and backoff belong to providers.Chain. They are
// immutable and safe for concurrent use; a call starts no goroutine that
// outlives it. A carrier's system notifications go as a developer
// message: just before a message, just after the last
// function_call_output of a tool batch.
//
// openai imports providers and messages and nothing else from this module.
package openai
