// Package anthropic is the Anthropic Messages transport of anthropic/*
// models: one non-streaming POST /v1/messages per round.
//
// It sends lean wire types of its own (wire.go, named after the vendor's
// API reference) with encoding/json through providers.Post, which makes
// no retries: retry, fallback and backoff belong to providers.Chain. The
// official SDK (github.com/anthropics/anthropic-sdk-go) is not used: its
// reflective marshalling made a round cost three to four times a bare
// net/http round trip with the same body (BenchmarkMessagesRound). Each
// tool's emitted schema is encoded once and kept (providers.ToolCache).
//
// Tool results are sent as the rendered receipt with is_error; system
// blocks marked CacheBreakpoint get cache_control, plus one rolling marker
// on the last conversation block. A carrier's system notifications go as
// a text block: before a message's text, after the tool_result blocks of
// a tool batch. A Messages value is immutable and safe for concurrent use;
// a call starts no goroutine that outlives it.
//
// anthropic imports providers and messages and nothing else from this
// module.
package anthropic
