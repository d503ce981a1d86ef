// Package bench measures Herald: it reads labelled support cases, scores
// extraction, retrieval and decisions against their labels (for Herald and
// for a plain BM25 baseline alike), builds the confidence reliability
// table, scores SemEval-2016 Task 3 subtask B rankings exactly as the
// official scorer does, and generates realistic knowledge bases for speed
// runs.
//
// The package is pure: callers run the engine and hand in its results, so
// every metric here is tested on hand-checked toy inputs.
package bench
