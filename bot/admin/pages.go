package admin

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/bot/review"
	"github.com/heraldbot/herald/knowledge"

	"github.com/yuin/goldmark"

	"github.com/heraldbot/herald/store"
)

// markdown renders untrusted Markdown safely: goldmark drops raw HTML and
// dangerous link schemes by default; images become plain links so that
// nothing remote is loaded (the CSP forbids it too).
var markdown = goldmark.New()

var imageRE = regexp.MustCompile(`!\[`)

func render(md string) template.HTML {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(imageRE.ReplaceAllString(md, "[")), &buf); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(md) + "</pre>")
	}
	return template.HTML(buf.String()) //nolint:gosec // goldmark output without WithUnsafe
}

var queueStates = []string{store.StatePending, store.StateApproved, store.StateDone, store.StateRejected,
	store.StateSkipped, store.StateFailed, store.StateShadow, store.StateDropped}

const pageSize = 50

func age(t time.Time, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}

func (s *Server) queue(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state := q.Get("state")
	if state == "" {
		state = store.StatePending
	}
	category, _ := strconv.Atoi(q.Get("category"))
	minConf, _ := strconv.ParseFloat(q.Get("min"), 64)
	before, _ := strconv.ParseInt(q.Get("before"), 10, 64)
	list, err := s.cfg.DB.ListActions(r.Context(), store.ActionFilter{States: []string{state}, CategoryID: category,
		MinConfidence: minConf, BeforeID: before, Limit: pageSize})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	counts, err := s.cfg.DB.CountActions(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	type count struct {
		State string
		N     int
	}
	data := struct {
		page
		Rows     []queueRow
		Counts   []count
		States   []string
		State    string
		Category int
		Min      float64
		Next     string
	}{page: s.page(r, "Queue"), States: queueStates, State: state, Category: category, Min: minConf}
	for _, st := range queueStates {
		if counts[st] > 0 {
			data.Counts = append(data.Counts, count{st, counts[st]})
		}
	}
	now := s.cfg.Now()
	for i := range list {
		data.Rows = append(data.Rows, s.queueRow(&list[i], now))
	}
	if len(list) == pageSize {
		v := url.Values{"state": {state}, "before": {strconv.FormatInt(list[len(list)-1].ID, 10)}}
		if category > 0 {
			v.Set("category", strconv.Itoa(category))
		}
		if minConf > 0 {
			v.Set("min", q.Get("min"))
		}
		data.Next = s.cfg.Prefix + "/?" + v.Encode()
	}
	s.render(w, http.StatusOK, "queue", data)
}

// queueRow is one action as the queue lists it.
type queueRow struct {
	ID                                           int64
	Title, TopicURL, Trigger, Reason, Asker, Age string
	Category                                     string
	Confidence                                   float64
	Matches                                      []string
	Mode                                         string
}

func (s *Server) queueRow(a *store.Action, now time.Time) queueRow {
	rp := s.decodeReply(a)
	rw := queueRow{ID: a.ID, Title: action.Describe(a.Kind, a.Payload), TopicURL: s.topicURL(a.TopicID), Trigger: rp.Trigger, Reason: a.Reason,
		Asker: rp.Asker, Age: age(a.CreatedAt, now), Category: s.categoryName(rp.CategoryID), Confidence: a.Confidence, Mode: a.Mode}
	for j, m := range rp.Matches {
		if j == 3 {
			break
		}
		// The most telling reason: anything but plain word overlap.
		reason := ""
		for _, rs := range m.Reasons {
			if rs != "words of the post match this entry" {
				reason = " — " + rs
				break
			}
		}
		rw.Matches = append(rw.Matches, m.ID+reason)
	}
	return rw
}

type diffLine struct{ Op, Text string }

// lineDiff is a longest-common-subsequence diff of two texts by line.
func lineDiff(a, b string) []diffLine {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(x)*len(y) > 4_000_000 {
		return []diffLine{{"-", "(too long to compare)"}}
	}
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out = append(out, diffLine{"=", x[i]})
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, diffLine{"+", y[j]})
			j++
		default:
			out = append(out, diffLine{"-", x[i]})
			i++
		}
	}
	return out
}

func (s *Server) draft(w http.ResponseWriter, r *http.Request) {
	id, err := actionID(r)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	a, err := s.cfg.DB.Action(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rp := s.decodeReply(a)
	audit, err := s.cfg.DB.Audit(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	facts := factRows(&rp.Facts)
	outs, err := s.cfg.DB.EntryOutcomes(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	outcome := map[string]string{}
	for _, m := range rp.Matches {
		if o, ok := outs[m.ID]; ok {
			outcome[m.ID] = fmt.Sprintf("cited %d times: %d accepted, %d liked, %d unhelpful", o.Cited, o.Accepted, o.Liked, o.Negative)
		}
	}
	data := struct {
		page
		Outcome           map[string]string
		Action            *store.Action
		Reply             action.Reply
		TopicURL, Result  string
		Question, Preview template.HTML
		Facts             []factRow
		CategoryName      string
		Audit             []store.AuditEntry
		Diff              []diffLine
		Notice            string
		// Judgeable: staff may say what answers the post now (review.Judge).
		Judgeable bool
	}{page: s.page(r, rp.TopicTitle), Outcome: outcome, Action: a, Reply: rp, TopicURL: s.topicURL(a.TopicID),
		Question: render(rp.Question), Preview: render(rp.Draft), Facts: facts, Audit: audit, Notice: r.URL.Query().Get("notice"),
		CategoryName: s.categoryName(rp.CategoryID), Judgeable: review.CanJudge(a)}
	if rp.Original != "" && rp.Original != rp.Draft {
		data.Diff = lineDiff(rp.Original, rp.Draft)
	}
	if p, ok := strings.CutPrefix(a.Result, "post:"); ok {
		data.Result = strings.TrimRight(s.cfg.ForumURL, "/") + "/p/" + p
	}
	s.render(w, http.StatusOK, "draft", data)
}

func (s *Server) approve(w http.ResponseWriter, r *http.Request) { s.decide(w, r, review.Approve) }

func (s *Server) reject(w http.ResponseWriter, r *http.Request) { s.decide(w, r, review.Reject) }

func (s *Server) judge(w http.ResponseWriter, r *http.Request) { s.decide(w, r, review.Judge) }

// decide applies a moderator's decision through the one review path.
func (s *Server) decide(w http.ResponseWriter, r *http.Request, verb review.Verb) {
	id, err := actionID(r)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	fits := r.PostForm["fits"]
	if other := r.PostForm.Get("fits_other"); strings.TrimSpace(other) != "" {
		fits = append(fits, strings.Split(other, ",")...)
	}
	_, err = review.Decide(r.Context(), s.cfg.DB, review.Decision{ActionID: id, Actor: sessionOf(r).Username, Verb: verb,
		Draft: r.PostForm.Get("draft"), Whisper: r.PostForm.Get("as") == "whisper", Reason: r.PostForm.Get("reason"),
		Fits: fits, NothingFits: r.PostForm.Get("nothing_fits") == "1", NotSupport: r.PostForm.Get("not_support") == "1"})
	if verb == review.Judge && errors.Is(err, store.ErrConflict) {
		http.Error(w, "someone judged this post, or its reply moved, since the page was loaded; reload it", http.StatusConflict)
		return
	}
	if !s.reviewFailed(w, r, err) {
		notice := "Approved: the bot posts it on its next cycle."
		switch verb {
		case review.Reject:
			notice = "Rejected."
		case review.Judge:
			notice = "Labelled: herald queue labels writes it out for herald kb fit."
		}
		http.Redirect(w, r, fmt.Sprintf("%s/actions/%d?notice=%s", s.cfg.Prefix, id, url.QueryEscape(notice)), http.StatusSeeOther)
	}
}

// reviewFailed answers a failed review and reports whether there was one.
func (s *Server) reviewFailed(w http.ResponseWriter, r *http.Request, err error) bool {
	var invalid *review.InvalidError
	switch {
	case err == nil:
		return false
	case errors.As(err, &invalid):
		http.Error(w, invalid.Msg, http.StatusBadRequest)
	case errors.Is(err, store.ErrConflict):
		http.Error(w, "this draft was already decided", http.StatusConflict)
	case errors.Is(err, store.ErrNotFound):
		http.NotFound(w, r)
	default:
		s.fail(w, r, err)
	}
	return true
}

// teach records a proposal to turn an approved answer into a knowledge
// entry; the learning loop reviews and imports proposals.
func (s *Server) teach(w http.ResponseWriter, r *http.Request) {
	id, err := actionID(r)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	err = review.Teach(r.Context(), s.cfg.DB, id, sessionOf(r).Username)
	var invalid *review.InvalidError
	if errors.As(err, &invalid) {
		http.Error(w, invalid.Msg, http.StatusConflict)
		return
	}
	if !s.reviewFailed(w, r, err) {
		http.Redirect(w, r, fmt.Sprintf("%s/actions/%d?notice=%s", s.cfg.Prefix, id, url.QueryEscape("Proposed as a knowledge entry; it waits in the queue.")), http.StatusSeeOther)
	}
}

func (s *Server) historyPage(w http.ResponseWriter, r *http.Request, heading string, f store.ActionFilter, self string) {
	before, _ := strconv.ParseInt(r.URL.Query().Get("before"), 10, 64)
	f.BeforeID, f.Limit = before, pageSize
	list, err := s.cfg.DB.ListActions(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	type row struct {
		ID                                             int64
		When, Title, State, Who, Reason, Result, Label string
		Edited                                         bool
	}
	data := struct {
		page
		Heading string
		Rows    []row
		Next    string
	}{page: s.page(r, heading), Heading: heading}
	for i := range list {
		a := &list[i]
		rp := s.decodeReply(a)
		rw := row{ID: a.ID, When: a.CreatedAt.Format("2006-01-02 15:04"), Title: action.Describe(a.Kind, a.Payload), State: a.State,
			Who: a.DecidedBy, Reason: a.Reason, Edited: rp.Original != "" && rp.Original != rp.Draft, Label: rp.Judgement()}
		if a.DecidedBy == "" {
			rw.Who = "bot (" + a.Mode + ")"
		}
		if p, ok := strings.CutPrefix(a.Result, "post:"); ok {
			rw.Result = strings.TrimRight(s.cfg.ForumURL, "/") + "/p/" + p
		}
		data.Rows = append(data.Rows, rw)
	}
	if len(list) == pageSize {
		data.Next = self + "?before=" + strconv.FormatInt(list[len(list)-1].ID, 10)
	}
	s.render(w, http.StatusOK, "history", data)
}

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	s.historyPage(w, r, "History", store.ActionFilter{States: []string{store.StateApproved, store.StateSending, store.StateDone,
		store.StateRejected, store.StateSkipped, store.StateFailed, store.StateDropped}}, s.cfg.Prefix+"/history")
}

func (s *Server) shadow(w http.ResponseWriter, r *http.Request) {
	s.historyPage(w, r, "What Herald would have posted this week", store.ActionFilter{States: []string{store.StateShadow},
		Since: s.cfg.Now().Add(-7 * 24 * time.Hour)}, s.cfg.Prefix+"/shadow")
}

// factRow is one line of the facts table: a label and its values, as text.
type factRow struct {
	K string
	V []string
}

// factRows turns extracted facts into a readable table: commands as
// written out, errors with their class and message, versions, hardware.
func factRows(f *knowledge.Facts) []factRow {
	var rows []factRow
	add := func(k string, vs ...string) {
		var keep []string
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				keep = append(keep, v)
			}
		}
		if len(keep) > 0 {
			rows = append(rows, factRow{k, keep})
		}
	}
	var cmds []string
	for _, c := range f.Commands {
		s := c.String()
		if c.Via != "" {
			s += "  (via " + c.Via + ")"
		}
		cmds = append(cmds, s)
	}
	add("Commands", cmds...)
	var errs []string
	for _, e := range f.Errors {
		s := e.Type
		if e.Message != "" {
			s += ": " + e.Message
		}
		if e.Inferred {
			s += "  (class inferred from a known message)"
		}
		errs = append(errs, s)
	}
	add("Errors", errs...)
	keys := make([]string, 0, len(f.Versions))
	for k := range f.Versions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var vers []string
	for _, k := range keys {
		vers = append(vers, k+" "+f.Versions[k])
	}
	add("Versions", vers...)
	add("Platform", f.Platform)
	var gpus []string
	for _, g := range f.GPUs {
		s := g.Name
		if g.Count > 0 {
			s = fmt.Sprintf("%d × %s", g.Count, s)
		}
		if g.MemoryGiB > 0 {
			s += fmt.Sprintf(", %g GiB", g.MemoryGiB)
		}
		gpus = append(gpus, s)
	}
	add("GPUs", gpus...)
	add("Models", f.Models...)
	var env []string
	for k, v := range f.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	add("Environment", env...)
	add("OS", f.OS)
	add("Topics", strings.Join(f.Topics, ", "))
	add("Goal", f.Intent)
	return rows
}

// categoryName is a category's name for the page, or its id when the
// forum's categories are not known.
func (s *Server) categoryName(id int) string {
	if name, ok := s.cfg.Categories[id]; ok {
		return name
	}
	if id == 0 {
		return "no category"
	}
	return fmt.Sprintf("category %d", id)
}
