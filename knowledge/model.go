package knowledge

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
)

// Model is the fitted part of the engine: the weights of the named
// evidence (Features), the calibration that turns a match's score into the
// probability that staff would accept it as the top citation, and the
// decision thresholds chosen for a target wrong-post rate. It is data:
// DefaultModel is embedded from model/default.json, and `herald kb fit`
// fits a new one on a forum's own labelled posts (see FitModel).
type Model struct {
	// Version is the file format version (1).
	Version int `json:"version"`
	// Method and FittedOn say how and on what the model was fitted.
	Method   string `json:"method"`
	FittedOn string `json:"fitted_on"`
	// Weights of the features; a feature without a weight counts 0.
	Weights map[string]float64 `json:"weights"`
	Bias    float64            `json:"bias"`
	// Calibration maps a match's score, and its margin over the best
	// other match, to a probability.
	Calibration Calibration `json:"calibration"`
	// TextCalibration does the same for a match that only word overlap
	// supports (not Structured), fitted on the posts whose top match is
	// one. Older model files have none; they count such a match half as
	// sure as the structured calibration says.
	TextCalibration *Calibration `json:"text_calibration,omitempty"`
	// Recalibration maps either calibration's probability onto the hit
	// rates out-of-fold top matches showed. Older model files have none.
	Recalibration *Recalibration `json:"recalibration,omitempty"`
	// Reply is the least confidence at which Herald answers; QueueFloor
	// the least at which an unsure draft is queued for staff.
	Reply      float64 `json:"reply"`
	QueueFloor float64 `json:"queue_floor"`
	// KnowledgeBase is the make-up of the knowledge base the model was
	// fitted with; DefaultModelFor picks the embedded model by it. Older
	// model files have none.
	KnowledgeBase *Composition `json:"knowledge_base,omitempty"`
}

// Composition is the make-up of a knowledge base: how many entries people
// wrote (packs, approved topics: Entry.Curated) and how many were imported
// in bulk (GitHub issues, docs folders). A model is calibrated for the
// composition it was fitted with: the text and key evidence of a match is
// relative to the best candidate's, and a thousand imported issues bring
// closer competitors than a pack of sixty entries does.
type Composition struct {
	Curated  int `json:"curated"`
	Imported int `json:"imported"`
}

// ImportedShare is the share of the entries that were imported (0 for an
// empty knowledge base).
func (c Composition) ImportedShare() float64 {
	n := c.Curated + c.Imported
	if n == 0 {
		return 0
	}
	return float64(c.Imported) / float64(n)
}

// Calibration is a Platt scaling of scores to probabilities, widened by
// the margin and by what is known of the post as a whole:
// p = σ(Slope·score + Margin·(score − best other score) +
// OtherEngine·[the post is about another engine] + Intercept). Two
// entries that fit equally well make either one less likely to be the one
// staff accept. Evidence about the post rather than an entry (the
// other_engine evidence every candidate of such a post carries) cannot be
// weighed by the ranking, whose weights compare one post's candidates
// with each other; it is weighed here, against how often such posts' top
// matches were right. Older model files have no OtherEngine (0).
type Calibration struct {
	Slope       float64 `json:"slope"`
	Margin      float64 `json:"margin"`
	OtherEngine float64 `json:"other_engine,omitempty"`
	Intercept   float64 `json:"intercept"`
}

var (
	//go:embed model/default.json
	defaultModelJSON []byte
	//go:embed model/imported.json
	importedModelJSON []byte
)

// DefaultModel returns the embedded model fitted with the embedded pack
// alone, the knowledge base Herald runs on with no config. It panics only
// if the embedded file is broken, which its test rules out.
func DefaultModel() *Model { return embeddedModel("default.json", defaultModelJSON) }

// EmbeddedModels returns the embedded models: DefaultModel, then the same
// fit with bulk-imported issues and docs pages in the knowledge base.
func EmbeddedModels() []*Model {
	return []*Model{DefaultModel(), embeddedModel("imported.json", importedModelJSON)}
}

func embeddedModel(name string, b []byte) *Model {
	m, err := ReadModel(bytes.NewReader(b))
	if err != nil {
		panic(fmt.Sprintf("knowledge: embedded model %s: %v", name, err))
	}
	return m
}

// DefaultModelFor returns the embedded model fitted with the knowledge
// base whose imported share is nearest kb's, DefaultModel on a tie. A
// pack alone gets the pack's model; a pack with a thousand imported
// issues the model whose calibration and reply threshold were fitted
// among such competitors (the pack's model, there, would stay silent on
// most posts it could answer: README, "How a post is answered").
func DefaultModelFor(kb Composition) *Model {
	var best *Model
	bestDist := math.Inf(1)
	for _, m := range EmbeddedModels() {
		share := 0.0
		if m.KnowledgeBase != nil {
			share = m.KnowledgeBase.ImportedShare()
		}
		if d := math.Abs(share - kb.ImportedShare()); d < bestDist {
			best, bestDist = m, d
		}
	}
	return best
}

// ReadModel reads and checks a model file.
func ReadModel(r io.Reader) (*Model, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var m Model
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("knowledge: read model: %w", err)
	}
	if m.Version != 1 {
		return nil, fmt.Errorf("knowledge: model version %d, want 1", m.Version)
	}
	for name, w := range m.Weights {
		if !contains(Features, name) {
			return nil, fmt.Errorf("knowledge: model weight for unknown feature %q", name)
		}
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("knowledge: model weight %s is %v", name, w)
		}
	}
	if err := m.Recalibration.check(); err != nil {
		return nil, err
	}
	if m.Reply <= 0 || m.Reply > 1.01 || m.QueueFloor < 0 || m.QueueFloor > m.Reply {
		return nil, fmt.Errorf("knowledge: model thresholds reply %.3f, queue floor %.3f: want 0 < floor ≤ reply ≤ 1.01", m.Reply, m.QueueFloor)
	}
	return &m, nil
}

// Write writes the model as indented JSON.
func (m *Model) Write(w io.Writer) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("knowledge: write model: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Score is the model's score of a match's evidence: the bias plus the
// weighted features.
func (m *Model) Score(evidence map[string]float64) float64 {
	s := m.Bias
	for _, f := range Features {
		if x := evidence[f]; x != 0 {
			s += m.Weights[f] * x
		}
	}
	return s
}

// Probability calibrates a score with its margin over the best other
// match and the post's own evidence (other is 1 for a post about another
// engine, else 0).
func (m *Model) Probability(score, margin, other float64) float64 {
	return m.Calibration.probability(score, margin, other)
}

func (c Calibration) probability(score, margin, other float64) float64 {
	return sigmoid(c.Slope*score + c.Margin*margin + c.OtherEngine*other + c.Intercept)
}

// textProbability calibrates a match that only word overlap supports.
func (m *Model) textProbability(score, margin, other float64) float64 {
	if c := m.TextCalibration; c != nil {
		return c.probability(score, margin, other)
	}
	return 0.5 * m.Probability(score, margin, other)
}

// Margins returns, for matches sorted best first, each one's score minus
// the best score among the others. A match with no competitor is measured
// against an entry with no evidence at all, which scores the model's
// bias: every entry the index did not return is such a one. (A fixed
// margin of 10 stood there before; it made a lone match that fits
// poorly, a post with few words of its own, look surer than any match
// with a close second: a "Killed" under a code fence and nothing else
// was answered at 0.97 with a relevance of 0.06.)
func (m *Model) Margins(ms []Match) []float64 {
	out := make([]float64, len(ms))
	for i := range ms {
		switch {
		case len(ms) == 1:
			out[i] = ms[0].Score - m.Bias
		case i == 0:
			out[i] = ms[0].Score - ms[1].Score
		default:
			out[i] = ms[i].Score - ms[0].Score
		}
	}
	return out
}

// Rescore scores matches with the model, sorts them best first (ties by
// id) and sets each one's calibrated Confidence: a match that only word
// overlap supports (not Structured) by TextCalibration.
func (m *Model) Rescore(ms []Match) []Match {
	for i := range ms {
		ms[i].Score = round3(m.Score(ms[i].Evidence))
		ms[i].Relevance = round3(sigmoid(ms[i].Score))
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Score != ms[j].Score {
			return ms[i].Score > ms[j].Score
		}
		return ms[i].ID < ms[j].ID
	})
	for i, margin := range m.Margins(ms) {
		other := ms[i].Evidence[OtherEngineEvidence]
		c := m.Probability(ms[i].Score, margin, other)
		if !ms[i].Structured {
			c = m.textProbability(ms[i].Score, margin, other)
		}
		ms[i].Confidence = round3(m.Recalibration.Map(c))
	}
	return ms
}

// PriorWeights are the weights Herald ranked with before they were fitted,
// set by hand on the first 25 labelled posts. Fitting pulls the weights
// towards them (a ridge around them rather than around zero), so that a
// forum with few labelled posts keeps sensible weights for evidence its
// posts rarely show, and a forum with many moves as far as its posts say.
func PriorWeights() map[string]float64 {
	return map[string]float64{
		fText: 1.2, fSignature: 3.0, fClass: 1.0, fSymptom: 1.0, fFlags: 0.8, fTogether: 0.5,
		fTopic: 0.5, fModel: 1.0, fVersionIn: 0.8, fPlatformHit: 0.2, fPlatformNear: -0.2,
		fPlatformMiss: -0.8, fVersionOut: -1.0, fFixed: -1.2,
		// Set when the feature was added, before any labelled post
		// showed it fitted: a post naming an entry is the poster's own
		// judgement that it is about their problem, worth about what the
		// same error message is (signature, 3.0) less the chance that the
		// poster names it as what did not help.
		fNamed: 2.0,
		// Set when the feature was added: for a post on another
		// platform than CUDA, an entry that names none is most likely a
		// report from CUDA, the platform most reports come from, which
		// for a ROCm post is what platform_near says (-0.2).
		fPlatformUnstated: -0.2,
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
