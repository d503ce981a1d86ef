// Package bench measures Herald: it reads labelled support cases, scores
// extraction, retrieval and decisions against their labels (for Herald and
// for a plain BM25 baseline alike), builds the confidence reliability
// table, scores SemEval-2016 Task 3 subtask B rankings exactly as the
// official scorer does, and generates realistic knowledge bases for speed
// runs. It also fits Herald's model on labelled predictions (FitModel) and
// cross-validates it (CrossValidate). Invariants of the fit: the
// calibration is fitted on out-of-fold scores (each post scored by
// weights fitted without it), and the thresholds are chosen on
// confidences whose weights, calibration and recalibration were all
// fitted without the post they are read off.
//
// The package is pure: callers run the engine and hand in its results, so
// every metric here is tested on hand-checked toy inputs.
package bench
