package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// SemEvalQuery is one original question of SemEval-2016 Task 3 subtask B
// with its ten search-engine candidates, as dev-subtaskB.jsonl holds them.
type SemEvalQuery struct {
	QID        string `json:"qid"`
	Subject    string `json:"subject"`
	Body       string `json:"body"`
	Candidates []struct {
		ID      string `json:"id"`
		IRRank  int    `json:"ir_rank"`
		Subject string `json:"subject"`
		Body    string `json:"body"`
		Label   string `json:"label"`
	} `json:"candidates"`
}

// ReadSemEvalQueries reads the JSONL text of the queries.
func ReadSemEvalQueries(r io.Reader) ([]SemEvalQuery, error) {
	var out []SemEvalQuery
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q SemEvalQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("bench: semeval line %d: %w", n, err)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// Gold is a SemEval relevancy file: per query its candidates in file
// order, which are relevant, and their IR ranks.
type Gold struct {
	Order  []string
	Cands  map[string][]string
	Rel    map[[2]string]bool
	IRRank map[[2]string]int
}

var candRankRE = regexp.MustCompile(`_R(\d+)$`)

// ReadGold reads `orig_qid related_qid ir_rank ir_score true|false` lines.
// A zero IR rank is taken from the related id's _R suffix, as the
// reference scorer does.
func ReadGold(r io.Reader) (*Gold, error) {
	g := &Gold{Cands: map[string][]string{}, Rel: map[[2]string]bool{}, IRRank: map[[2]string]int{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		t := strings.Fields(sc.Text())
		if len(t) == 0 {
			continue
		}
		if len(t) < 5 || (t[4] != "true" && t[4] != "false") {
			return nil, fmt.Errorf("bench: gold line %d: want 5 fields ending in true|false", n)
		}
		q, c := t[0], t[1]
		if _, ok := g.Cands[q]; !ok {
			g.Order = append(g.Order, q)
		}
		g.Cands[q] = append(g.Cands[q], c)
		g.Rel[[2]string{q, c}] = t[4] == "true"
		rk, err := strconv.ParseFloat(t[2], 64)
		if err != nil {
			return nil, fmt.Errorf("bench: gold line %d: rank: %w", n, err)
		}
		if rk == 0 {
			if m := candRankRE.FindStringSubmatch(c); m != nil {
				rk, _ = strconv.ParseFloat(m[1], 64)
			}
		}
		g.IRRank[[2]string{q, c}] = int(rk)
	}
	return g, sc.Err()
}

// IRRanking is the search engine's order of each query's candidates.
func (g *Gold) IRRanking() map[string][]string {
	out := map[string][]string{}
	for _, q := range g.Order {
		c := append([]string(nil), g.Cands[q]...)
		sort.SliceStable(c, func(i, j int) bool { return g.IRRank[[2]string{q, c[i]}] < g.IRRank[[2]string{q, c[j]}] })
		out[q] = c
	}
	return out
}

// ReadRun reads a run in either format the reference scorer accepts: one
// ranking per line (`qid cand1 cand2 ...`, best first) or the official
// five columns (`qid cand rank score true|false`, higher score better,
// ties kept in gold order).
func ReadRun(r io.Reader, g *Gold) (map[string][]string, error) {
	scored := map[string]map[string]float64{}
	ranked := map[string][]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		t := strings.Fields(sc.Text())
		if len(t) == 0 || strings.HasPrefix(t[0], "#") {
			continue
		}
		if len(t) == 5 && (t[4] == "true" || t[4] == "false") && slicesContains(g.Cands[t[0]], t[1]) {
			s, err := strconv.ParseFloat(t[3], 64)
			if err != nil {
				return nil, fmt.Errorf("bench: run line %d: score: %w", n, err)
			}
			if scored[t[0]] == nil {
				scored[t[0]] = map[string]float64{}
			}
			scored[t[0]][t[1]] = s
			continue
		}
		if _, dup := ranked[t[0]]; dup {
			return nil, fmt.Errorf("bench: run line %d: query %s listed twice", n, t[0])
		}
		ranked[t[0]] = t[1:]
	}
	for q, sc := range scored {
		pos := map[string]int{}
		for i, c := range g.Cands[q] {
			pos[c] = i
		}
		var c []string
		for id := range sc {
			c = append(c, id)
		}
		sort.Slice(c, func(i, j int) bool {
			if sc[c[i]] != sc[c[j]] {
				return sc[c[i]] > sc[c[j]]
			}
			return pos[c[i]] < pos[c[j]]
		})
		ranked[q] = c
	}
	return ranked, sc.Err()
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SemEvalScore holds the official metrics, ×100.
type SemEvalScore struct {
	MAP    float64 `json:"map"`
	AvgRec float64 `json:"avgrec"`
	MRR    float64 `json:"mrr"`
	N      int     `json:"queries"`
}

// ScoreSemEval scores a ranking against the gold exactly as the official
// scorer (threshold 10, queries with no relevant candidate kept as 0).
// Unknown ids are dropped and unranked candidates appended in gold order.
func ScoreSemEval(g *Gold, run map[string][]string) (SemEvalScore, error) {
	const th = 10
	var s SemEvalScore
	acc := make([]float64, th)
	maxrel := make([]float64, th)
	for _, q := range g.Order {
		lst, ok := run[q]
		if !ok {
			return s, fmt.Errorf("bench: run lacks query %s", q)
		}
		seen := map[string]bool{}
		var order []string
		for _, c := range lst {
			if slicesContains(g.Cands[q], c) && !seen[c] {
				order = append(order, c)
				seen[c] = true
			}
		}
		for _, c := range g.Cands[q] {
			if !seen[c] {
				order = append(order, c)
			}
		}
		hits, nrel := 0, 0
		ap, rr := 0.0, 0.0
		for _, c := range g.Cands[q] {
			if g.Rel[[2]string{q, c}] {
				nrel++
			}
		}
		for i, c := range order {
			if i >= th {
				break
			}
			if g.Rel[[2]string{q, c}] {
				hits++
				ap += float64(hits) / float64(i+1)
				if rr == 0 {
					rr = 1 / float64(i+1)
				}
			}
		}
		if hits > 0 {
			s.MAP += ap / float64(hits)
		}
		s.MRR += rr
		running := 0
		for k := 0; k < th; k++ {
			if k < len(order) && g.Rel[[2]string{q, order[k]}] {
				running++
			}
			acc[k] += float64(running)
			maxrel[k] += float64(min(k+1, nrel))
		}
		s.N++
	}
	if s.N == 0 {
		return s, fmt.Errorf("bench: empty gold")
	}
	avg := 0.0
	for k := 0; k < th; k++ {
		if maxrel[k] > 0 {
			avg += acc[k] / maxrel[k]
		}
	}
	s.MAP = 100 * s.MAP / float64(s.N)
	s.MRR = 100 * s.MRR / float64(s.N)
	s.AvgRec = 100 * avg / th
	return s, nil
}
