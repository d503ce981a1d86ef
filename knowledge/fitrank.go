package knowledge

import "math"

// FitRankWeights fits the weights of the features for ranking: a
// conditional logit over each labelled post's candidates (the probability
// that the labelled entry is the one chosen among the post's candidates),
// which weighs the comparisons ranking has to make rather than the many
// easy negatives a pointwise fit is dominated by. Examples are grouped by
// Example.Group; a group without a relevant candidate says nothing about
// ranking and is left out. The same ridge towards prior and the same sign
// constraints as FitWeights hold.
//
// A conditional logit fixes only differences of scores, so the weights
// are then scaled, and a bias fitted, by a one-dimensional logistic
// regression of every candidate's relevance on its score: the scores keep
// their order within every post and sigmoid(score) stays a probability
// (Match.Relevance).
func FitRankWeights(ex []Example, l2 float64, prior map[string]float64) (weights map[string]float64, bias float64) {
	d := len(Features)
	groups := map[int][]int{}
	var order []int
	for i, e := range ex {
		if _, ok := groups[e.Group]; !ok {
			order = append(order, e.Group)
		}
		groups[e.Group] = append(groups[e.Group], i)
	}
	x := make([][]float64, len(ex))
	for i, e := range ex {
		x[i] = make([]float64, d)
		for j, f := range Features {
			x[i][j] = e.Evidence[f]
		}
	}
	var sets [][]int
	for _, g := range order {
		idx := groups[g]
		for _, i := range idx {
			if ex[i].Relevant {
				sets = append(sets, idx)
				break
			}
		}
	}
	centre := make([]float64, d)
	for j, f := range Features {
		centre[j] = prior[f]
	}
	w := keepSigns(featureSigns(d), func(held []bool) []float64 { return newtonRank(x, ex, sets, l2, held, centre) })
	// Scale and bias: relevance on the ranking score, over every candidate.
	rows := make([][]float64, len(ex))
	ys := make([]float64, len(ex))
	for i := range ex {
		s := 0.0
		for j := range w {
			s += w[j] * x[i][j]
		}
		rows[i] = []float64{s, 1}
		if ex[i].Relevant {
			ys[i] = 1
		}
	}
	ab := newton(rows, ys, []float64{biasRidge, biasRidge}, nil, nil)
	scale := ab[0]
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = 1
	}
	weights = map[string]float64{}
	for j, f := range Features {
		weights[f] = round3(scale * w[j])
	}
	return weights, round3(ab[1])
}

// newtonRank minimises the ridge-penalised negative log likelihood of the
// conditional logit: for every relevant candidate of every set, the
// probability that it is chosen among the set's candidates. Held columns
// stay at zero.
func newtonRank(x [][]float64, ex []Example, sets [][]int, l2 float64, held []bool, centre []float64) []float64 {
	d := len(centre)
	w := make([]float64, d)
	for j := range w {
		if !held[j] {
			w[j] = centre[j]
		}
	}
	loss := func(w []float64) float64 {
		l := 0.0
		for _, idx := range sets {
			s, lse := setScores(x, idx, w)
			for k, i := range idx {
				if ex[i].Relevant {
					l += lse - s[k]
				}
			}
		}
		for j := range w {
			l += 0.5 * l2 * (w[j] - centre[j]) * (w[j] - centre[j])
		}
		return l
	}
	ridge := make([]float64, d)
	for j := range ridge {
		ridge[j] = l2
	}
	for iter := 0; iter < 50; iter++ {
		g, h := rankDerivatives(x, ex, sets, w)
		maxStep, ok := ridgeNewtonStep(w, g, h, ridge, centre, held, loss)
		if !ok || maxStep < 1e-7 {
			break
		}
	}
	return w
}

// setScores returns the scores of a set's candidates under w and their
// log-sum-exp.
func setScores(x [][]float64, idx []int, w []float64) (s []float64, lse float64) {
	s = make([]float64, len(idx))
	mx := math.Inf(-1)
	for k, i := range idx {
		for j := range w {
			s[k] += w[j] * x[i][j]
		}
		mx = math.Max(mx, s[k])
	}
	for _, v := range s {
		lse += math.Exp(v - mx)
	}
	return s, mx + math.Log(lse)
}

// rankDerivatives returns the gradient and Hessian of the conditional
// logit's negative log likelihood (without the ridge): per set, the
// relevant candidates' count times the choice probabilities' mean and
// covariance of the features, less the relevant candidates' features.
func rankDerivatives(x [][]float64, ex []Example, sets [][]int, w []float64) (g []float64, h [][]float64) {
	d := len(w)
	g = make([]float64, d)
	h = make([][]float64, d)
	for j := range h {
		h[j] = make([]float64, d)
	}
	for _, idx := range sets {
		s, lse := setScores(x, idx, w)
		mean := make([]float64, d)
		nrel := 0.0
		p := make([]float64, len(idx))
		for k, i := range idx {
			p[k] = math.Exp(s[k] - lse)
			for j := range mean {
				mean[j] += p[k] * x[i][j]
			}
			if ex[i].Relevant {
				nrel++
				for j := range g {
					g[j] -= x[i][j]
				}
			}
		}
		for j := range g {
			g[j] += nrel * mean[j]
		}
		for k, i := range idx {
			for a := 0; a < d; a++ {
				da := x[i][a] - mean[a]
				if da == 0 {
					continue
				}
				for b := 0; b < d; b++ {
					h[a][b] += nrel * p[k] * da * (x[i][b] - mean[b])
				}
			}
		}
	}
	return g, h
}
