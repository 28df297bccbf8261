// Package notify delivers operator notifications to an operator's webhook
// as signed delivery intents (the Delivery section of the operator
// notification RFC). It knows nothing of actors: the caller picks which
// notifications to deliver (those addressed to the primary operator),
// calls Webhook.Deliver, and records the OperatorNotificationDelivery
// steps it reports.
//
// # Wire contract
//
// Each attempt is one POST to the configured URL with these headers:
//
//	Content-Type:      application/json
//	User-Agent:        holon-actors-notify/1
//	X-Holon-Delivery:  <delivery_id>
//	X-Holon-Timestamp: <unix seconds when the attempt was signed>
//	X-Holon-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>
//
// and this body (see Intent):
//
//	{"type":"operator_notification","delivery_id":"<notification_id>",
//	 "attempt":1,"sent_at":"<RFC 3339, nanoseconds, UTC>",
//	 "notification":{<messages.OperatorNotification>}}
//
// delivery_id is the notification's ID and is the same on every attempt,
// so a receiver that has already handled it answers 2xx again and does
// nothing more. A receiver checks a request with Verify on the raw body,
// before decoding it: Verify compares in constant time and refuses a
// timestamp further than a tolerance (DefaultTolerance, 5 minutes) from
// its own clock. The signature header is a comma-separated list; a
// receiver accepts any v1 entry it can match and ignores schemes it does
// not know.
//
// # Retry policy
//
// A 2xx answer is accepted_by_transport and ends the delivery. A
// connection error, an attempt timeout (Config.Timeout, 10s), or HTTP 408,
// 425, 429 or 5xx is retried, up to Config.MaxAttempts (5) attempts in
// all: the wait before retry k is drawn uniformly from (0, min(MaxBackoff,
// BaseBackoff·2^(k-1))] (full jitter; 1s doubling to 60s), except that a
// Retry-After in seconds or as an HTTP date is honoured, capped at
// MaxBackoff. Any other answer (3xx, which is never followed, or another
// 4xx) fails at once. Each retry is reported as retrying, and the end as
// accepted_by_transport or failed; reports carry the attempt, the HTTP
// status, and a short error that never holds the URL, the secret, or more
// than 200 bytes of the response body. Response bodies are read (at most
// 64 KiB) and discarded so connections are reused.
//
// # Concurrency and ownership
//
// A Webhook is immutable and safe for concurrent use. Deliver blocks until
// the delivery ends, calls report on its own goroutine, and returns
// promptly when its context ends (as failed, reporting the context's
// error). Time (backoff waits, attempt timeouts, timestamps, report times)
// comes from Config.Clock, so tests advance a fake clock instead of
// sleeping. Deliver starts no goroutine that outlives it.
//
// notify imports messages and nothing else from this module.
package notify
