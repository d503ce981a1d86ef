package knowledge

import (
	"math"
)

// Example is one candidate match of a labelled post, for fitting the
// model's weights: its evidence and whether staff accept it (a labelled
// entry of the post).
type Example struct {
	Evidence map[string]float64
	Relevant bool
	// Group is the post the candidate belongs to (FitRankWeights).
	Group int
}

// FitWeights fits the weights of the features by L2-regularised logistic
// regression (Newton's method, deterministic): the probability that a
// candidate is relevant given its evidence. l2 is the ridge on the weights
// (not the bias); it keeps a feature that only a handful of candidates
// carry, and that therefore separates them perfectly, from growing
// without bound.
//
// Weights keep the sign of their evidence: a feature that says a match
// fits (a flag it is about is set) never counts against it, and one that
// says it does not (another platform) never counts for it. A fit that
// gives a feature the wrong sign has learned a correlation of the sample
// (curated entries list more flags), not what the evidence means; such
// features are held at zero and the rest refitted (an active-set method)
// until every sign holds.
func FitWeights(ex []Example, l2 float64, prior map[string]float64) (weights map[string]float64, bias float64) {
	d := len(Features) + 1 // the bias is the last column
	rows := make([][]float64, len(ex))
	ys := make([]float64, len(ex))
	for i, e := range ex {
		x := make([]float64, d)
		for j, f := range Features {
			x[j] = e.Evidence[f]
		}
		x[d-1] = 1
		rows[i] = x
		if e.Relevant {
			ys[i] = 1
		}
	}
	centre := make([]float64, d)
	for j, f := range Features {
		centre[j] = prior[f]
	}
	ridge := make([]float64, d)
	for j := 0; j < d-1; j++ {
		ridge[j] = l2
	}
	ridge[d-1] = biasRidge
	w := keepSigns(featureSigns(d), func(held []bool) []float64 { return newton(rows, ys, ridge, held, centre) })
	weights = map[string]float64{}
	for j, f := range Features {
		weights[f] = round3(w[j])
	}
	return weights, round3(w[d-1])
}

// keepSigns fits weights with fit, holding at zero every column whose
// weight comes out with the wrong sign for it (signs: +1 must not be
// negative, −1 must not be positive, 0 either) and refitting, until
// every sign holds: an active-set method.
func keepSigns(signs []int, fit func(held []bool) []float64) []float64 {
	held := make([]bool, len(signs))
	var w []float64
	for range signs {
		w = fit(held)
		violated := false
		for j, sign := range signs {
			if !held[j] && (sign > 0 && w[j] < 0 || sign < 0 && w[j] > 0) {
				held[j], violated = true, true
			}
		}
		if !violated {
			break
		}
	}
	return w
}

// featureSigns are the signs of d columns, the features (featureSign)
// first and then columns of either sign (the bias).
func featureSigns(d int) []int {
	signs := make([]int, d)
	for j, f := range Features {
		signs[j] = featureSign(f)
	}
	return signs
}

// featureSign is the sign a feature's weight must have: +1 for evidence
// that a match fits, −1 for evidence that it does not, 0 for features
// that describe the entry (curated, docs) and may go either way.
func featureSign(f string) int {
	switch {
	case negativeFeatures[f]:
		return -1
	case f == fCurated || f == fDocs:
		return 0
	}
	return 1
}

// biasRidge is a token ridge on the intercept: it changes nothing a
// sample can measure but keeps the fit finite when a feature is constant
// (every entry of a pack-only knowledge base is curated).
const biasRidge = 1e-3

// FitCalibration fits the calibration of top matches, from their scores,
// margins and the other_engine evidence of their posts (others, 0 or 1),
// to whether they were right. l2 is a small ridge on the slopes.
//
// The other_engine coefficient keeps its sign as FitWeights' weights do
// (keepSigns): a post about another engine is never evidence that this
// knowledge base answers it.
func FitCalibration(scores, margins, others []float64, right []bool, l2 float64) Calibration {
	rows := make([][]float64, len(scores))
	ys := make([]float64, len(scores))
	for i, s := range scores {
		rows[i] = []float64{s, margins[i], others[i], 1}
		if right[i] {
			ys[i] = 1
		}
	}
	ridge := []float64{l2, l2, l2, biasRidge}
	w := keepSigns([]int{0, 0, -1, 0}, func(held []bool) []float64 { return newton(rows, ys, ridge, held, nil) })
	return Calibration{Slope: round3(w[0]), Margin: round3(w[1]), OtherEngine: round3(w[2]), Intercept: round3(w[3])}
}

// newton maximises the L2-penalised log likelihood of a logistic model
// with Newton's method; ridge holds each column's penalty towards centre
// (nil: zero), and the columns held (nil: none) stay at zero.
func newton(rows [][]float64, ys []float64, ridge []float64, held []bool, centre []float64) []float64 {
	d := len(ridge)
	if centre == nil {
		centre = make([]float64, d)
	}
	w := make([]float64, d)
	for j := range w {
		if held == nil || !held[j] {
			w[j] = centre[j]
		}
	}
	for iter := 0; iter < 50; iter++ {
		g := make([]float64, d)
		h := make([][]float64, d)
		for j := range h {
			h[j] = make([]float64, d)
		}
		for i, x := range rows {
			z := 0.0
			for j := range x {
				z += w[j] * x[j]
			}
			p := sigmoid(z)
			r := p - ys[i]
			v := p * (1 - p)
			for j := range x {
				if x[j] == 0 {
					continue
				}
				g[j] += r * x[j]
				for k := range x {
					h[j][k] += v * x[j] * x[k]
				}
			}
		}
		maxStep, ok := ridgeNewtonStep(w, g, h, ridge, centre, held, func(w []float64) float64 {
			return penalisedLoss(rows, ys, ridge, centre, w)
		})
		if !ok {
			break
		}
		if maxStep < 1e-9 {
			break
		}
	}
	return w
}

// penalisedLoss is the negative log likelihood of a logistic model plus
// its ridge penalty.
func penalisedLoss(rows [][]float64, ys, ridge, centre, w []float64) float64 {
	loss := 0.0
	for i, x := range rows {
		z := 0.0
		for j := range x {
			z += w[j] * x[j]
		}
		// log(1+e^z) − y·z, computed without overflow.
		if z > 0 {
			loss += z + math.Log1p(math.Exp(-z)) - ys[i]*z
		} else {
			loss += math.Log1p(math.Exp(z)) - ys[i]*z
		}
	}
	for j := range w {
		d := w[j] - centre[j]
		loss += ridge[j] * d * d / 2
	}
	return loss
}

// solve solves a·x = b by Gaussian elimination with partial pivoting; nil
// when a is singular.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		if math.Abs(m[piv][col]) < 1e-12 {
			return nil
		}
		m[col], m[piv] = m[piv], m[col]
		for r := col + 1; r < n; r++ {
			f := m[r][col] / m[col][col]
			for c := col; c <= n; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for c := r + 1; c < n; c++ {
			s -= m[r][c] * x[c]
		}
		x[r] = s / m[r][r]
	}
	return x
}

// ridgeNewtonStep takes one damped Newton step on w, given the gradient g
// and Hessian h of the unpenalised loss at w: it adds the ridge towards
// centre, keeps the held columns (nil: none) where they are, and halves
// the step until the penalised loss does not rise. A full step from far
// away (probabilities near 0 or 1, a flat Hessian) can overshoot and
// diverge. It returns the largest change of a weight, and false when the
// system cannot be solved.
func ridgeNewtonStep(w, g []float64, h [][]float64, ridge, centre []float64, held []bool, loss func([]float64) float64) (float64, bool) {
	d := len(w)
	for j := 0; j < d; j++ {
		g[j] += ridge[j] * (w[j] - centre[j])
		h[j][j] += ridge[j] + 1e-9
		if held != nil && held[j] {
			// No step for a held column: its gradient is zero and its
			// row and column of the Hessian are the identity.
			g[j] = 0
			for k := 0; k < d; k++ {
				h[j][k], h[k][j] = 0, 0
			}
			h[j][j] = 1
		}
	}
	step := solve(h, g)
	if step == nil {
		return 0, false
	}
	before := loss(w)
	next := make([]float64, d)
	for t := 1.0; t > 1e-6; t /= 2 {
		for j := range w {
			next[j] = w[j] - t*step[j]
		}
		if loss(next) <= before {
			break
		}
	}
	maxStep := 0.0
	for j := range w {
		maxStep = math.Max(maxStep, math.Abs(next[j]-w[j]))
		w[j] = next[j]
	}
	return maxStep, true
}
