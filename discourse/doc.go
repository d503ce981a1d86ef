// Package discourse is Herald's client for the Discourse HTTP API, plus
// verification of webhook deliveries and the DiscourseConnect login flow.
//
// The client speaks the API as real servers do (see ../shared's
// API-FACTS): Api-Key and Api-Username headers, the shared site-wide
// budget for API-key traffic (60 requests a minute by default), both
// shapes of HTTP 429, 404s with empty bodies, 422s from post creation and
// fields whose shape differs across server versions.
//
// Invariants:
//   - Every request passes the client-side limiter; after a 429 the client
//     refuses further calls, without sending them, until the server's wait
//     is over.
//   - GETs are retried with backoff and jitter on 5xx, timeouts and
//     resets; POSTs and PUTs are never retried blindly.
//   - Non-2xx responses become one of the typed errors of errors.go; error
//     bodies are read with a size limit.
//   - The API key never appears in logs, errors or panics.
//
// The package knows nothing of what the bot decides; it imports no other
// Herald package. Package discoursetest is an in-process fake forum.
package discourse
