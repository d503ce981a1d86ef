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
}

// FitWeights fits the weights of the features by L2-regularised logistic
// regression (Newton's method, deterministic): the probability that a
// candidate is relevant given its evidence. l2 is the ridge on the weights
// (not the bias); it keeps a feature that only a handful of candidates
// carry, and that therefore separates them perfectly, from growing
// without bound.
func FitWeights(ex []Example, l2 float64) (weights map[string]float64, bias float64) {
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
	ridge := make([]float64, d)
	for j := 0; j < d-1; j++ {
		ridge[j] = l2
	}
	w := newton(rows, ys, ridge)
	weights = map[string]float64{}
	for j, f := range Features {
		weights[f] = round3(w[j])
	}
	return weights, round3(w[d-1])
}

// FitCalibration fits a Platt scaling, p = σ(slope·score + intercept), of
// the scores of top matches to whether they were right. l2 is a small
// ridge on the slope.
func FitCalibration(scores []float64, right []bool, l2 float64) Calibration {
	rows := make([][]float64, len(scores))
	ys := make([]float64, len(scores))
	for i, s := range scores {
		rows[i] = []float64{s, 1}
		if right[i] {
			ys[i] = 1
		}
	}
	w := newton(rows, ys, []float64{l2, 0})
	return Calibration{Slope: round3(w[0]), Intercept: round3(w[1])}
}

// newton maximises the L2-penalised log likelihood of a logistic model
// with Newton's method from zero; ridge holds each column's penalty.
func newton(rows [][]float64, ys []float64, ridge []float64) []float64 {
	d := len(ridge)
	w := make([]float64, d)
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
		for j := 0; j < d; j++ {
			g[j] += ridge[j] * w[j]
			h[j][j] += ridge[j] + 1e-9
		}
		step := solve(h, g)
		if step == nil {
			break
		}
		maxStep := 0.0
		for j := range w {
			w[j] -= step[j]
			maxStep = math.Max(maxStep, math.Abs(step[j]))
		}
		if maxStep < 1e-9 {
			break
		}
	}
	return w
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
