// Package knowledge is Herald's engine: it reads a support post, extracts the
// facts in it (command lines, errors, versions, platform, GPUs, models),
// ranks known issues and docs pages against those facts, decides whether the
// evidence is strong enough to answer, and composes a cited Markdown reply.
//
// The package is pure: it performs no I/O other than reading the packs
// embedded in the binary. Storage and full-text candidate search live in
// package store; the bot wires the two together. Every function here is
// deterministic for a given input, which is what makes golden-file tests of
// replies possible.
//
// Invariants:
//   - Extraction never panics and never runs unbounded: inputs are capped at
//     MaxPostBytes and every scanner is linear in its input.
//   - Every link in a composed reply comes from a matched Entry; nothing the
//     poster wrote is echoed outside a code span, so replies cannot @mention
//     people, inject HTML or break out of a code block.
//   - Every Match carries the reasons that produced its score.
package knowledge
