// Package openaichat is the OpenAI-compatible Chat Completions transport
// (openai_chat_completions): POST <base URL>/chat/completions, for any
// server that accepts that request shape — Ollama, vLLM, llama.cpp server,
// OpenRouter, DeepSeek and the like — configured per provider id.
//
// It builds requests and parses replies with the official SDK
// (github.com/openai/openai-go/v3) with its retries off and no environment
// defaults: retry, fallback and backoff belong to providers.Chain. A
// carrier's system notifications go as a system message (compatible
// servers often reject developer): before a message, after the last tool
// message of a tool batch. A Chat value is immutable and safe for
// concurrent use.
//
// openaichat imports providers and messages and nothing else from this
// module.
package openaichat
