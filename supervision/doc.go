// Package supervision decides what happens when an actor fails: restart
// policies (a failure budget of intensity per period, capped exponential
// backoff with jitter), the deciders that map a failure to restart, stop or
// escalate, and escalation up the actor tree. It is a thin layer over
// protoactor's supervisor strategies; it does not use protoactor's
// ExponentialBackoffStrategy, which is linear and never gives up.
//
// Policies are immutable values, safe to share between actors; the state of
// a budget (recent failures, current backoff) belongs to the one supervisor
// that owns it. Time comes from an injected clock, so tests advance it
// instead of sleeping.
//
// supervision imports messages and protoactor and nothing else from this
// module: never persistence, tools, providers, actors, cmd or testkit.
package supervision
