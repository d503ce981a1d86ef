package knowledge

import (
	"bytes"
	"strings"
	"testing"
)

// TestFitRecalibration: the map rises with the hit rate, pools what runs
// against it, counts each block's mean probability as one more
// observation, and interpolates between its knots and to (0, 0) and
// (1, 1) beyond them.
func TestFitRecalibration(t *testing.T) {
	t.Parallel()
	ps := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}
	right := []bool{false, true, false, false, true, true, true, true, true, true}
	r := FitRecalibration(ps, right)
	if err := r.check(); err != nil {
		t.Fatal(err)
	}
	// 0.1 alone is wrong: (0 + 0.1) / 2. 0.2 right, 0.3 and 0.4 wrong run
	// against the rise and pool: (1 + 0.3) / 4. Each right one from 0.5
	// on stays a block of its own, (1 + p) / 2, which rises with p: one
	// right post is not certainty.
	want := &Recalibration{X: []float64{0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}, Y: []float64{0.05, 0.325, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975}}
	if !equalFloats(r.X, want.X) || !equalFloats(r.Y, want.Y) {
		t.Fatalf("recalibration = %+v, want %+v", r, want)
	}
	for _, c := range []struct{ p, want float64 }{{0, 0}, {0.05, 0.025}, {0.1, 0.05}, {0.2, 0.1875}, {0.74, 0.87}, {0.975, 0.9875}, {1, 1}} {
		if got := r.Map(c.p); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("Map(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	// It rises everywhere, so it decides what the calibration decided.
	for p := 0.0; p < 1; p += 0.001 {
		if r.Map(p+0.001) <= r.Map(p) {
			t.Fatalf("Map(%v) = %v is not above Map(%v) = %v", p+0.001, r.Map(p+0.001), p, r.Map(p))
		}
	}
	var none *Recalibration
	if none.Map(0.42) != 0.42 || FitRecalibration(nil, nil) != nil {
		t.Error("no recalibration is the identity")
	}
	// Probabilities a rounding apart make one knot.
	r = FitRecalibration([]float64{0.9994, 0.9996}, []bool{false, true})
	if err := r.check(); err != nil {
		t.Errorf("%+v: %v", r, err)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] < b[i]-1e-9 || a[i] > b[i]+1e-9 {
			return false
		}
	}
	return true
}

// TestReadModelChecksRecalibration: a model file whose recalibration
// cannot be a monotone map of probabilities is refused.
func TestReadModelChecksRecalibration(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := DefaultModel().Write(&b); err != nil {
		t.Fatal(err)
	}
	base := b.String()
	for _, bad := range []string{`{"x": [0.2, 0.1], "y": [0.1, 0.2]}`, `{"x": [0.1, 0.2], "y": [0.5, 0.4]}`, `{"x": [0.1], "y": [1.5]}`, `{"x": [0.1, 0.2], "y": [0.1]}`} {
		doc := strings.Replace(base, `"reply":`, `"recalibration": `+bad+`, "reply":`, 1)
		if _, err := ReadModel(strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), "recalibration") {
			t.Errorf("%s: err = %v, want a recalibration error", bad, err)
		}
	}
}
