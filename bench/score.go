package bench

import (
	"math"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/heraldbot/herald/knowledge"
)

// Report holds the figures for one system, in percent where named _pct or
// hit/mrr. Counts say how many cases each figure was computed over.
type Report struct {
	StrictHit1  float64 `json:"strict_hit1"`
	StrictHit3  float64 `json:"strict_hit3"`
	StrictMRR   float64 `json:"strict_mrr"`
	LenientHit3 float64 `json:"lenient_hit3"`
	StrictN     int     `json:"strict_n"`
	LenientN    int     `json:"lenient_n"`

	AbstainSilentPct     float64 `json:"abstain_silent_pct"`
	NotSupportIgnoredPct float64 `json:"not_support_ignored_pct"`
	SupportSilentPct     float64 `json:"support_silent_pct"`
	WrongPostPct         float64 `json:"wrong_post_pct"`
	Replies              int     `json:"replies"`
	WrongPosts           int     `json:"wrong_posts"`

	// ExtractPct is the share of all scored extraction fields that were
	// right; Fields breaks it down. Absent for systems that do not extract.
	ExtractPct float64               `json:"extract_pct"`
	Fields     map[string]FieldScore `json:"fields,omitempty"`
	Cases      []CaseScore           `json:"cases,omitempty"`
}

// FieldScore counts one extraction field. Of the facts not Right, Wrong
// were stated with another value (a wrong fact in a reply) and the rest
// were not stated at all.
type FieldScore struct {
	Right int     `json:"right"`
	Wrong int     `json:"wrong"`
	Total int     `json:"total"`
	Pct   float64 `json:"pct"`
}

// CaseScore is one case's outcome, for the per-case table.
type CaseScore struct {
	ID         string   `json:"case_id"`
	Category   string   `json:"category"`
	Decision   string   `json:"decision"`
	Confidence float64  `json:"confidence"`
	Rank       int      `json:"strict_rank"`  // 1-based rank of the first strict answer, 0 if none
	Lenient    int      `json:"lenient_rank"` // same for answers ∪ topic_match
	Wrong      bool     `json:"wrong_post"`
	Missed     []string `json:"extraction_missed,omitempty"`
}

// Score compares results with the cases' labels. Results are matched to
// cases by id; a case without a result counts as silence with no ranking.
func Score(cases []Case, results []Result, s *knowledge.Schema) Report {
	byID := map[string]Result{}
	for _, r := range results {
		byID[r.CaseID] = r
	}
	var rep Report
	var t tally
	fields := map[string]*FieldScore{}
	extracts := false
	for _, c := range cases {
		r := byID[c.ID]
		cs := t.count(&rep, c, r)
		if r.Facts != nil {
			extracts = true
			cs.Missed = scoreExtraction(c.Expect, r.Facts, s, fields)
		}
		rep.Cases = append(rep.Cases, cs)
	}
	t.finish(&rep)
	if extracts {
		rep.Fields = map[string]FieldScore{}
		right, total := 0, 0
		for k, f := range fields {
			f.Pct = pct(float64(f.Right), f.Total)
			rep.Fields[k] = *f
			right += f.Right
			total += f.Total
		}
		rep.ExtractPct = pct(float64(right), total)
	}
	return rep
}

// tally counts the decisions and ranks Score reports as percentages.
type tally struct {
	strict1, strict3, mrr, len3                              float64
	abstainN, abstainSilent, nsN, nsIgnored, supN, supSilent int
}

// count scores one case's result into rep and t.
func (t *tally) count(rep *Report, c Case, r Result) CaseScore {
	cs := CaseScore{ID: c.ID, Category: c.Category, Decision: string(r.Decision), Confidence: r.Confidence}
	cs.Rank = firstRank(r.Ranked, c.Answers)
	lenient := append(append([]string(nil), c.Answers...), c.TopicMatch...)
	cs.Lenient = firstRank(r.Ranked, lenient)
	if c.Category == Support && len(c.Answers) > 0 {
		rep.StrictN++
		if cs.Rank == 1 {
			t.strict1++
		}
		if cs.Rank >= 1 && cs.Rank <= 3 {
			t.strict3++
		}
		if cs.Rank > 0 {
			t.mrr += 1 / float64(cs.Rank)
		}
	}
	if c.Category == Support && len(lenient) > 0 {
		rep.LenientN++
		if cs.Lenient >= 1 && cs.Lenient <= 3 {
			t.len3++
		}
	}
	replied := r.Decision == knowledge.DecisionReply
	switch c.Category {
	case Abstain:
		t.abstainN++
		if !replied {
			t.abstainSilent++
		}
	case NotSupport:
		t.nsN++
		if r.Decision == knowledge.DecisionIgnore {
			t.nsIgnored++
		}
	case Support:
		t.supN++
		if !replied {
			t.supSilent++
		}
	}
	if !replied {
		return cs
	}
	rep.Replies++
	switch {
	case c.Category != Support:
		cs.Wrong = true
	case len(lenient) > 0:
		top := r.Cited
		if len(top) > 3 {
			top = top[:3]
		}
		cs.Wrong = !slices.ContainsFunc(top, func(id string) bool { return slices.Contains(lenient, id) })
	}
	if cs.Wrong {
		rep.WrongPosts++
	}
	return cs
}

func (t *tally) finish(rep *Report) {
	rep.StrictHit1 = pct(t.strict1, rep.StrictN)
	rep.StrictHit3 = pct(t.strict3, rep.StrictN)
	rep.StrictMRR = pct(t.mrr, rep.StrictN)
	rep.LenientHit3 = pct(t.len3, rep.LenientN)
	rep.AbstainSilentPct = pct(float64(t.abstainSilent), t.abstainN)
	rep.NotSupportIgnoredPct = pct(float64(t.nsIgnored), t.nsN)
	rep.SupportSilentPct = pct(float64(t.supSilent), t.supN)
	rep.WrongPostPct = pct(float64(rep.WrongPosts), rep.Replies)
}

func pct(x float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return math.Round(10000*x/float64(n)) / 100
}

// firstRank returns the 1-based rank of the first id of want in ranked, or 0.
func firstRank(ranked, want []string) int {
	for i, id := range ranked {
		if slices.Contains(want, id) {
			return i + 1
		}
	}
	return 0
}

// scoreExtraction scores the labelled fields of one case and returns the
// names of those Herald got wrong.
func scoreExtraction(e Expect, f *knowledge.Facts, s *knowledge.Schema, fields map[string]*FieldScore) []string {
	var missed []string
	// mark counts one labelled fact; said reports whether Herald stated
	// a value at all, so that a wrong fact is told from a missing one.
	mark := func(name string, ok, said bool) {
		fs := fields[name]
		if fs == nil {
			fs = &FieldScore{}
			fields[name] = fs
		}
		fs.Total++
		switch {
		case ok:
			fs.Right++
		case said:
			fs.Wrong++
			missed = append(missed, name)
		default:
			missed = append(missed, name)
		}
	}
	main := mainCommand(f, s)
	if e.Command != nil && *e.Command != "" {
		want := knowledge.ParseCommand(*e.Command, s)
		mark("command", main != nil && want != nil && sameCommand(*main, *want), main != nil)
	}
	for flag, v := range e.Flags {
		want := ""
		switch v := v.(type) {
		case string:
			want = v
		case bool:
			// true: a flag without a value.
		default:
			continue
		}
		name := knowledge.NormalizeFlag(s.CanonicalFlag(flag))
		want = unquote(want)
		got, ok := "", false
		if main != nil {
			got, ok = main.Flags[name]
			if !ok && main.Via != "" {
				// The wrapper's own flags: docker run --gpus all.
				got, ok = f.Flag(name)
			}
		} else {
			got, ok = f.MentionedFlags[name]
		}
		mark("flags", ok && got == want, ok)
	}
	if e.Exception != nil && *e.Exception != "" {
		mark("exception", len(f.Errors) > 0 && f.Errors[0].Type == *e.Exception, len(f.Errors) > 0)
	}
	for pkg, v := range e.Versions {
		got := f.Versions[strings.ToLower(pkg)]
		mark("versions", sameVersion(got, v), got != "")
	}
	if e.Platform != nil && *e.Platform != "" {
		want := *e.Platform
		if want == "unknown" {
			want = ""
		}
		got := f.Platform
		if !slices.Contains(labelPlatforms[:], got) {
			got = "" // a platform the case format has no value for
		}
		mark("platform", got == want, got != "")
	}
	if e.Model != nil && *e.Model != "" {
		mark("model", len(f.Models) > 0 && sameModel(f.Models[0], *e.Model), len(f.Models) > 0)
	}
	return missed
}

// labelPlatforms are the platforms the case format can label; a post on
// any other (Ascend NPUs: "platform enum has no NPU value -> 'unknown'",
// vllm-dev C1-017 and C1-039) is labelled "unknown", and Herald's name
// for its platform is compared as unknown.
var labelPlatforms = [...]string{"cuda", "rocm", "cpu", "xpu", "tpu", "neuron"}

func mainCommand(f *knowledge.Facts, s *knowledge.Schema) *knowledge.Command {
	return f.MainCommand(s)
}

// sameCommand compares program, subcommand, positional arguments and flags.
func sameCommand(a, b knowledge.Command) bool {
	return a.String() == b.String()
}

// Bucket is one row of the reliability table.
type Bucket struct {
	Low, High float64
	N         int     // posts whose top confidence fell here
	Correct   int     // of those, posts whose top match staff would accept
	Pct       float64 // Correct/N in percent
	MeanConf  float64 // mean confidence of the posts here, in percent
	// CILow and CIHigh bound the hit rate's 95% Wilson score interval,
	// in percent: with a handful of posts in a bucket, a hit rate far
	// from the confidence may still be what chance gives.
	CILow, CIHigh float64
}

// Consistent reports whether the bucket's mean confidence lies inside
// the 95% interval of its hit rate (an empty bucket is).
func (b Bucket) Consistent() bool {
	return b.N == 0 || b.MeanConf >= b.CILow && b.MeanConf <= b.CIHigh
}

// wilson is the 95% Wilson score interval of k successes in n trials, in
// percent.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 100
	}
	return wilsonRate(float64(k)/float64(n), float64(n))
}

// wilsonRate is the 95% Wilson score interval of a hit rate p over nf
// trials, which may be an average count, in percent.
func wilsonRate(p, nf float64) (lo, hi float64) {
	if nf <= 0 {
		return 0, 100
	}
	const z = 1.959964
	mid := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	round := func(x float64) float64 { return math.Round(1000*x) / 10 }
	return round(max(0, mid-half)), round(min(1, mid+half))
}

// Reliability buckets the posts a bot may answer by the confidence of
// their top match and reports how often staff would accept that match:
// support posts with labels (accepted when the top match is a labelled
// entry), abstain posts and not-support posts that were not ignored
// (never accepted: nothing fits). A calibrated confidence has each
// bucket's Pct near its MeanConf.
func Reliability(cases []Case, results []Result, edges []float64) []Bucket {
	byID := map[string]Result{}
	for _, r := range results {
		byID[r.CaseID] = r
	}
	buckets := make([]Bucket, len(edges)-1)
	for i := range buckets {
		buckets[i] = Bucket{Low: edges[i], High: edges[i+1]}
	}
	sums := make([]float64, len(buckets))
	for _, c := range cases {
		r := byID[c.ID]
		lenient := c.lenient()
		switch {
		case r.Decision == knowledge.DecisionIgnore:
			continue
		case c.Category == Support && len(lenient) == 0:
			continue
		}
		i := sort.SearchFloat64s(edges, r.Confidence)
		if i > 0 && (i == len(edges) || edges[i] != r.Confidence) {
			i--
		}
		if i >= len(buckets) {
			i = len(buckets) - 1
		}
		b := &buckets[i]
		b.N++
		sums[i] += r.Confidence
		if c.Category == Support && len(r.Ranked) > 0 && slices.Contains(lenient, r.Ranked[0]) {
			b.Correct++
		}
	}
	for i := range buckets {
		buckets[i].Pct = pct(float64(buckets[i].Correct), buckets[i].N)
		buckets[i].CILow, buckets[i].CIHigh = wilson(buckets[i].Correct, buckets[i].N)
		if buckets[i].N > 0 {
			buckets[i].MeanConf = math.Round(10000*sums[i]/float64(buckets[i].N)) / 100
		}
	}
	return buckets
}

// PoolBuckets adds up the reliability tables of several splits of the
// same posts (the same edges in each): each post is in every split, held
// out by a different fold's model, so the pooled table averages away
// what one split's folds do to a bucket of a handful of posts. Its hit
// rates and mean confidences are over every split's posts; its 95%
// intervals are those of one split's average count per bucket, since a
// post counted once per split is not that many independent posts.
func PoolBuckets(splits [][]Bucket) []Bucket {
	if len(splits) == 0 {
		return nil
	}
	out := make([]Bucket, len(splits[0]))
	sums := make([]float64, len(out))
	for _, bs := range splits {
		for i, b := range bs {
			out[i].Low, out[i].High = b.Low, b.High
			out[i].N += b.N
			out[i].Correct += b.Correct
			sums[i] += b.MeanConf * float64(b.N)
		}
	}
	for i := range out {
		b := &out[i]
		b.Pct = pct(float64(b.Correct), b.N)
		if b.N > 0 {
			b.MeanConf = math.Round(100*sums[i]/float64(b.N)) / 100
			b.CILow, b.CIHigh = wilsonRate(float64(b.Correct)/float64(b.N), float64(b.N)/float64(len(splits)))
		} else {
			b.CILow, b.CIHigh = 0, 100
		}
	}
	return out
}

var parenRE = regexp.MustCompile(`\([^)]*\)`)

// sameModel compares a model id with a label after normalisation: case,
// annotations in parentheses, alternatives separated by " / ", and local
// paths reduced to their last element.
func sameModel(got, label string) bool {
	norm := func(s string) string {
		s = strings.TrimSpace(strings.ToLower(s))
		s = strings.TrimRight(s, "/")
		if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "~/") {
			s = path.Base(s)
		}
		return s
	}
	g := norm(got)
	for _, alt := range strings.Split(parenRE.ReplaceAllString(label, ""), " / ") {
		if a := norm(alt); a != "" && a == g {
			return true
		}
	}
	return false
}

// sameVersion compares versions as written, but for the "v" some posters
// and image tags put before the number (v0.7.3 is 0.7.3).
func sameVersion(got, want string) bool {
	norm := func(s string) string { return strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v") }
	return got != "" && norm(got) == norm(want)
}

// unquote strips one pair of matching shell quotes from a labelled value
// ("'ptb'" as written on the command line is the value ptb).
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// CalibrationGap is the mean distance, in points, between each bucket's
// hit rate and its mean confidence, weighted by the bucket's posts (the
// expected calibration error); 0 means confidence says exactly what
// happens.
func CalibrationGap(buckets []Bucket) float64 {
	sum, n := 0.0, 0
	for _, b := range buckets {
		sum += float64(b.N) * math.Abs(b.Pct-b.MeanConf)
		n += b.N
	}
	if n == 0 {
		return 0
	}
	return math.Round(10*sum/float64(n)) / 10
}
