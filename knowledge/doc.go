// Package knowledge is Herald's engine: it reads a support post, extracts the
// facts in it (command lines, errors, versions, platform, GPUs, models),
// ranks known issues and docs pages against those facts, decides whether the
// evidence is strong enough to answer, and composes a cited Markdown reply.
//
// The package is pure: it performs no I/O other than reading the packs
// and the models embedded in the binary (DefaultModelFor picks one by
// the knowledge base's Composition). Storage and full-text candidate
// search live in package store; the bot wires the two together. Every
// function here is deterministic for a given input, which is what makes
// golden-file tests of replies possible. Fitting (FitWeights,
// FitCalibration) is pure too: it takes labelled examples and returns
// numbers; package bench assembles it into a Model.
//
// Invariants:
//   - Extraction never panics and never runs unbounded: inputs are capped at
//     MaxPostBytes, Markdown is parsed in bounded pieces with quote nesting
//     capped, and every other scanner is linear in its input.
//   - Extraction reads classes of input, with the words it needs (the
//     main package, its log lines, the packages whose versions are read,
//     hardware, model families, device names, issue labels, error
//     templates) taken from the packs' Vocabulary and the knowledge
//     base's entries, not from Go (the other engines a post may be
//     about too). What Go still names are the generic signs of a platform
//     (platformSignals: "+rocm" and "+cpu" version suffixes, HIP errors,
//     --gpus) and the forms in which CUDA, ROCm, NCCL, the NVIDIA driver
//     and Python state their own versions.
//   - Every link in a composed reply comes from a matched Entry; facts from
//     the post appear only in code spans, and any other text that is not a
//     curated pack's own is made inert (Inert), so replies cannot @mention
//     people, show images, inject HTML or BBCode, or break out of a code
//     span; a pack's own prose keeps its emphasis but loses its mentions,
//     hashtags and HTML. ReplyProblems checks a reply for exactly that.
//   - What a post says, not how it is formatted, decides its answer:
//     extraction and ranking read normalised text, Discourse's [code]
//     blocks as the fenced blocks Discourse renders them as, a line of
//     code typed on a fence's own line as code rather than a language
//     hint, a title without a help-request template, and GPU names as
//     the hardware reader spells them; the metamorphic tests hold facts
//     and answers to it.
//   - Every Match carries the named evidence (Evidence) the Model weighs
//     into its Score, the reasons shown to staff, and a calibrated
//     Confidence.
//   - Decide replies only with a structured match (more than shared
//     words) whose confidence reaches the fitted threshold, and never to
//     a post about another engine (Facts.OtherEngine).
package knowledge
