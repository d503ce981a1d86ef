package knowledge

// Answer is the engine's full output for one post. Its JSON form is the
// stable contract of `herald answer --format json`.
type Answer struct {
	Facts      Facts    `json:"facts"`
	Matches    []Match  `json:"matches"`
	Confidence float64  `json:"confidence"`
	Decision   Decision `json:"decision"`
	// Cited are the ids of the matches the reply cites.
	Cited []string `json:"cited"`
	// Reply is the Markdown to post; empty unless Decision is reply.
	Reply string `json:"reply"`
}

// Engine holds the settings of the pure part of the pipeline.
type Engine struct {
	// Model weighs the evidence and calibrates confidence; nil means
	// DefaultModel.
	Model      *Model
	Thresholds Thresholds
	Compose    ComposeOptions
	// MaxMatches bounds Answer.Matches (the citations are always among
	// them); 0 means 10.
	MaxMatches int

	memo symptomMemo
}

// Answer ranks the candidates for a post whose facts were already
// extracted, decides, and composes the reply.
func (e *Engine) Answer(p Post, f Facts, cands []Candidate) Answer {
	model := e.Model
	if model == nil {
		model = DefaultModel()
	}
	ranked := rank(&e.memo, p, &f, cands, model)
	decision, conf, cited := Decide(p.Title, p.Body, &f, ranked, e.Thresholds)
	n := e.MaxMatches
	if n == 0 {
		n = 10
	}
	if len(ranked) > n {
		ranked = ranked[:n]
	}
	a := Answer{Facts: f, Matches: ranked, Confidence: conf, Decision: decision, Cited: []string{}}
	if a.Matches == nil {
		a.Matches = []Match{}
	}
	if decision == DecisionReply {
		for _, m := range cited {
			a.Cited = append(a.Cited, m.ID)
		}
		a.Reply = Compose(&f, cited, e.Compose)
	}
	return a
}
