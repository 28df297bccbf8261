// Package providers talks to language models: the Provider interface, the
// provider-neutral request (prompt frame, replayable conversation, tool
// catalog) and response, retry, fallback between candidates, the circuit
// breaker, the attempt timeline, failure artifacts and token usage.
// Vendor transports live in providers/<vendor> and implement the
// interface: providers/openai (Responses, and Codex streaming),
// providers/openaichat (OpenAI-compatible Chat Completions) and
// providers/anthropic (Messages); providers/catalog builds them from model
// refs and endpoints.
//
// A Provider is an immutable, shared client, safe for concurrent use:
// options such as the tool set return a new value (WithTools) instead of
// changing it. Every call takes a context and returns when it is cancelled;
// a provider starts no goroutine that outlives the call.
//
// Retry is runtime-owned: transports never retry (Post makes one
// request), and a Chain retries one candidate per RetryPolicy (the spec's
// phase-1 policy), then falls back to the next, consulting each
// candidate's Breaker first. Time comes
// from an injected clockwork.Clock, so tests advance it instead of
// sleeping. Success carries the ProviderAttemptTimeline in
// Response.Timeline; failure is a *ChainError carrying it, and
// ArtifactOf/FailureOf normalize it for operator surfaces and the journal.
// Credentials are Secret values: they never print, marshal or appear in
// errors.
//
// The request and conversation types are providers/llm's (a leaf of
// data and pure functions an agent's state can hold); providers re-exports
// them. providers imports messages and providers/llm and nothing else from
// this module: never
// persistence, tools, supervision, actors, cmd or testkit, and not
// protoactor. Transport actors in package actors run on top of this
// package.
package providers
