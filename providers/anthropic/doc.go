// Package anthropic is the Anthropic Messages transport of anthropic/*
// models: one non-streaming POST /v1/messages per round.
//
// Requests and replies use the official SDK
// (github.com/anthropics/anthropic-sdk-go) with its retries off and no
// environment defaults: retry, fallback and backoff belong to
// providers.Chain. Tool results are sent as the rendered receipt with
// is_error; system blocks marked CacheBreakpoint get cache_control, plus one
// rolling marker on the last conversation block. A carrier's system
// notifications go as a text block: before a message's text, after the
// tool_result blocks of a tool batch. A Messages value is immutable and
// safe for concurrent use.
//
// anthropic imports providers and messages and nothing else from this
// module.
package anthropic
