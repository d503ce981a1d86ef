//go:build race

package knowledge

// raceEnabled reports a -race build, where TestMetamorphicCorpus reads
// an eighth of the corpus: the race detector slows extraction about
// fifteenfold. `make test` runs the whole corpus again without it.
const raceEnabled = true
