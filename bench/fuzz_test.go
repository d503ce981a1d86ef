package bench

import (
	"strings"
	"testing"
)

func FuzzReadCases(f *testing.F) {
	f.Add(`{"case_id":"B1","category":"support","title":"t","body":"b","expect":{"command":"vllm serve m","flags":{"--a":true}},"answers":["x"]}`)
	f.Add("\n\n{}\n")
	f.Fuzz(func(t *testing.T, in string) {
		cases, err := ReadCases(strings.NewReader(in))
		if err == nil {
			for _, c := range cases {
				if c.Category != Support && c.Category != Abstain && c.Category != NotSupport {
					t.Errorf("category %q accepted", c.Category)
				}
			}
			// Scoring any accepted input must not panic.
			Score(cases, nil, nil)
		}
	})
}

func FuzzReadGoldAndRun(f *testing.F) {
	f.Add(toyGold, "Q1 Q1_R3 Q1_R1\nQ2 Q2_R1 0 1.5 true\n")
	f.Add("Q1 Q1_R0 0 0 true\n", "")
	f.Fuzz(func(t *testing.T, gold, run string) {
		g, err := ReadGold(strings.NewReader(gold))
		if err != nil {
			return
		}
		r, err := ReadRun(strings.NewReader(run), g)
		if err != nil {
			return
		}
		if s, err := ScoreSemEval(g, r); err == nil && (s.MAP < 0 || s.MAP > 100 || s.MRR < 0 || s.MRR > 100) {
			t.Errorf("score out of range: %+v", s)
		}
	})
}
