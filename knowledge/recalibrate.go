package knowledge

import (
	"fmt"
	"math"
	"slices"
)

// Recalibration is a monotone map of calibrated probabilities onto the hit
// rates they showed, fitted by isotonic regression (pool adjacent
// violators) on out-of-fold top matches: a Platt scaling is a sigmoid,
// and when the hit rate rises more steeply than one (about eleven points
// too sure at 0.4–0.6 and fourteen too unsure at 0.7–0.8 in the pooled
// held-out table of the vllm-dev posts) it cannot follow. X are the
// blocks' mean probabilities, increasing; Y their hit rates, increasing
// (see Map).
type Recalibration struct {
	X []float64 `json:"x"`
	Y []float64 `json:"y"`
}

// check reports a recalibration a model file cannot use: knots of
// different counts, probabilities outside [0, 1], or knots that do not
// rise.
func (r *Recalibration) check() error {
	if r == nil {
		return nil
	}
	if len(r.X) != len(r.Y) || len(r.X) == 0 {
		return fmt.Errorf("knowledge: model recalibration has %d x and %d y knots", len(r.X), len(r.Y))
	}
	for i := range r.X {
		for _, v := range []float64{r.X[i], r.Y[i]} {
			if math.IsNaN(v) || v < 0 || v > 1 {
				return fmt.Errorf("knowledge: model recalibration knot %d is (%v, %v), want probabilities", i, r.X[i], r.Y[i])
			}
		}
		if i > 0 && (r.X[i] <= r.X[i-1] || r.Y[i] < r.Y[i-1]) {
			return fmt.Errorf("knowledge: model recalibration knot %d (%v, %v) does not rise from (%v, %v)", i, r.X[i], r.Y[i], r.X[i-1], r.Y[i-1])
		}
	}
	return nil
}

// Map recalibrates p. Between knots the map is linear, and below the
// first and above the last it runs to (0, 0) and (1, 1), so that it
// rises everywhere: a map flat at its ends would tie every post beyond
// them, and thresholds chosen on the recalibrated confidences would then
// split posts the calibration had told apart.
func (r *Recalibration) Map(p float64) float64 {
	if r == nil || len(r.X) == 0 {
		return p
	}
	p = min(max(p, 0), 1)
	x0, y0 := 0.0, 0.0
	for i := range r.X {
		if p <= r.X[i] {
			if r.X[i] == x0 {
				return r.Y[i]
			}
			return y0 + (p-x0)/(r.X[i]-x0)*(r.Y[i]-y0)
		}
		x0, y0 = r.X[i], r.Y[i]
	}
	if x0 >= 1 {
		return y0
	}
	return y0 + (p-x0)/(1-x0)*(1-y0)
}

// FitRecalibration fits the isotonic map of probabilities ps onto
// whether each was right. Each block's hit rate counts its own mean
// probability as one more observation, (hits + p̄) / (n + 1): a block of
// three right top matches at 0.75 says 0.94 rather than certainty. The
// one observation is set by hand, not fitted: it is the least prior that
// keeps every rate off 0 and 1 (so the map rises everywhere, see Map)
// and leaves the Platt probability to speak only where a block has a
// post or two; no other strength was tried.
func FitRecalibration(ps []float64, right []bool) *Recalibration {
	if len(ps) == 0 {
		return nil
	}
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	type block struct{ n, hits, sumP float64 }
	rate := func(b block) float64 { return (b.hits + b.sumP/b.n) / (b.n + 1) }
	var blocks []block
	for _, i := range idx {
		b := block{n: 1, sumP: ps[i]}
		if right[i] {
			b.hits = 1
		}
		blocks = append(blocks, b)
		for len(blocks) > 1 {
			last, prev := blocks[len(blocks)-1], blocks[len(blocks)-2]
			if rate(prev) < rate(last) && prev.sumP/prev.n < last.sumP/last.n {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{prev.n + last.n, prev.hits + last.hits, prev.sumP + last.sumP})
		}
	}
	r := &Recalibration{}
	for _, b := range blocks {
		x, y := round3(b.sumP/b.n), round3(rate(b))
		if n := len(r.X); n > 0 && x <= r.X[n-1] {
			// Two blocks a rounding apart are one knot, at the higher rate.
			r.Y[n-1] = max(r.Y[n-1], y)
			continue
		}
		r.X = append(r.X, x)
		r.Y = append(r.Y, y)
	}
	return r
}
