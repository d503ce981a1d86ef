package knowledge

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Index is an in-memory inverted index over the structured keys of
// entries — flags, exception classes, topic tags, model families, and the
// words of titles and symptoms — used to find candidates for a post in
// microseconds however large the knowledge base is. Entries are
// identified by the caller's integer ids (the store's row ids).
//
// An Index is immutable once built and safe for concurrent use.
type Index struct {
	postings map[string][]int32
	n        int
	maxID    int32
	curated  []bool    // by id
	pool     sync.Pool // *[]float64 score arrays of length maxID+1
}

// IndexBuilder accumulates entries for an Index.
type IndexBuilder struct {
	postings map[string][]int32
	n        int
	maxID    int32
	curated  map[int32]bool
}

// NewIndexBuilder returns an empty builder.
func NewIndexBuilder() *IndexBuilder {
	return &IndexBuilder{postings: map[string][]int32{}, curated: map[int32]bool{}}
}

// Add indexes one entry under id.
func (b *IndexBuilder) Add(id int32, e *Entry) {
	b.n++
	b.maxID = max(b.maxID, id)
	if e.Curated() {
		b.curated[id] = true
	}
	for _, k := range EntryKeys(e) {
		b.postings[k] = append(b.postings[k], id)
	}
}

// Build returns the index; the builder must not be used afterwards.
func (b *IndexBuilder) Build() *Index {
	for _, post := range b.postings {
		slices.Sort(post) // Search looks ids up in them
	}
	curated := make([]bool, b.maxID+1)
	for id := range b.curated {
		curated[id] = true
	}
	return &Index{postings: b.postings, n: b.n, maxID: b.maxID, curated: curated}
}

// Len returns the number of indexed entries.
func (x *Index) Len() int { return x.n }

// KeyKinds are the kinds of index key, by their prefix, in the order of
// Hit.Kinds: flag, exception class, topic tag, model family, title word,
// symptom word, body word.
const KeyKinds = "fegmtsb"

// Key prefixes and their weights in candidate scoring. They are set by
// hand and decide which entries become candidates; how much each kind of
// shared key says about a fit is fitted afterwards (Hit.Kinds feeds the
// ranking model's key_* features).
var keyWeights = map[byte]float64{
	'f': 2.0, // flag or environment variable
	'e': 2.5, // exception class
	'g': 1.0, // topic tag
	'm': 1.5, // model family
	't': 1.0, // title word
	's': 1.2, // symptom word
	'b': 0.5, // word of the summary, advice or the head of the body
}

// maxBodyIndex bounds how much of an entry's free text is indexed: the
// head of an imported issue carries its command and error; the rest is log.
const maxBodyIndex = 2 << 10

// EntryKeys returns the index keys of an entry, each prefixed by its kind
// ("f:--cpu-offload-gb", "e:outofmemoryerror", "t:offload").
func EntryKeys(e *Entry) []string {
	var ks keySet
	add := ks.add
	for _, f := range e.Flags {
		name, _, _ := strings.Cut(f, " ")
		name, _, _ = strings.Cut(name, "=")
		add("f:" + strings.ToLower(name))
	}
	for _, sym := range e.Symptoms {
		if class, msg := splitSymptom(sym); class != "" {
			add("e:" + strings.ToLower(lastDotted(class)))
			for w := range tokenSet(msg) {
				add("s:" + w)
			}
		} else {
			for w := range tokenSet(sym) {
				add("s:" + w)
			}
		}
	}
	for _, t := range e.Tags {
		add("g:" + strings.ToLower(t))
	}
	for _, m := range e.Models {
		if k := squash(m); len(k) >= 3 {
			add("m:" + k)
		}
	}
	title := titleWords(titleText(e.Title))
	for w := range tokenSet(title) {
		add("t:" + w)
	}
	for w := range titleCompounds(title) {
		add("t:" + w)
	}
	body := e.Summary + "\n" + e.adviceText() + "\n" + e.Body + "\n" + e.SourceText
	if len(body) > maxBodyIndex {
		body = body[:maxBodyIndex]
	}
	for w := range tokenSet(body) {
		add("b:" + w)
	}
	for _, r := range entryRefs(e) {
		add(refKey + r)
	}
	return ks.keys
}

// refKey prefixes the keys of the addresses an entry is known by and a
// post names (Facts.Refs). They are not scored: an entry the post names
// becomes a candidate whatever else it shares, and ranking weighs the
// naming (the "named" feature).
const refKey = "r:"

// PostKeys returns the index keys a post's facts, title and text ask for.
func PostKeys(p Post, f *Facts) []string {
	title := titleWords(titleText(p.Title))
	var ks keySet
	add := ks.add
	for _, c := range f.Commands {
		for k := range c.Flags {
			add("f:" + k)
		}
	}
	for k := range f.MentionedFlags {
		add("f:" + k)
	}
	for k := range f.Env {
		add("f:" + strings.ToLower(k))
	}
	for i, e := range f.Errors {
		if i == 3 {
			break
		}
		add("e:" + strings.ToLower(lastDotted(e.Type)))
		for w := range tokenSet(e.Message) {
			add("s:" + w)
		}
	}
	for _, t := range f.Topics {
		add("g:" + t)
	}
	// A parser option names the family whose output it reads
	// (--tool-call-parser glm47): no model of the post's (parserNames),
	// but a family it runs, whose entries are candidates as a model's are.
	families := slices.Concat(f.Models, slices.Sorted(maps.Keys(parserNames(f.Commands, f.MentionedFlags))))
	for _, m := range families {
		_, name, ok := strings.Cut(m, "/")
		if !ok {
			name = m
		}
		// Model families are matched by prefix of the squashed name.
		sq := squash(name)
		for n := 3; n <= len(sq) && n <= 16; n++ {
			add("m:" + sq[:n])
		}
	}
	for w := range tokenSet(title) {
		add("t:" + w)
		add("s:" + w)
		add("b:" + w)
	}
	for w := range titleCompounds(title) {
		add("t:" + w)
	}
	if f.Intent != "" {
		for w := range tokenSet(f.Intent) {
			add("b:" + w)
		}
	}
	for fl := range settingFlags(postWords(p.Body)) {
		add("f:" + fl)
	}
	for _, r := range f.Refs {
		add(refKey + r)
	}
	return ks.keys
}

// Hit is a candidate id with its index score.
type Hit struct {
	ID    int32
	Score float64
	// Kinds splits Score by the kind of key that earned it, in the order
	// of KeyKinds.
	Kinds [len(KeyKinds)]float64
}

// A key carried by more than a twentieth of the entries (and more than
// minSkipPostings) says little — its IDF is a fifth of a rare key's — and
// is skipped, which bounds the work per post on large knowledge bases.
const minSkipPostings = 2000

// Search scores every entry sharing a key with the post by the summed
// IDF-weighted keys and returns the best k, plus the best curated entries
// up to kc more, best first, then the entries the post names (reference
// keys, refKey) that are not among them yet. Curated entries are few and
// precise; taking them apart keeps thousands of noisy imports from
// crowding them out.
func (x *Index) Search(keys []string, k, kc int) []Hit {
	if x == nil || x.n == 0 || k <= 0 {
		return nil
	}
	sp, _ := x.pool.Get().(*[]float64)
	if sp == nil {
		s := make([]float64, x.maxID+1)
		sp = &s
	}
	scores := *sp
	var touched, named []int32
	for _, key := range keys {
		if strings.HasPrefix(key, refKey) {
			named = append(named, x.postings[key]...)
			continue
		}
		post, w := x.weighed(key)
		for _, id := range post {
			if scores[id] == 0 {
				touched = append(touched, id)
			}
			scores[id] += w
		}
	}
	// Keep the best k overall and the best kc curated ones with two
	// bounded heaps instead of sorting every touched entry.
	top := newHitHeap(k)
	cur := newHitHeap(kc)
	namedScore := make(map[int32]float64, len(named))
	for _, id := range named {
		namedScore[id] = scores[id]
	}
	for _, id := range touched {
		h := Hit{ID: id, Score: scores[id]}
		scores[id] = 0
		if x.curated[id] {
			// A curated entry pushed out of (or never in) the top k may
			// still be among the best curated ones.
			cur.offer(h)
		}
		top.offer(h)
	}
	x.pool.Put(sp)
	hits := top.sorted()
	seen := make(map[int32]bool, len(hits))
	for _, h := range hits {
		seen[h.ID] = true
	}
	for _, h := range cur.sorted() {
		if !seen[h.ID] {
			seen[h.ID] = true
			hits = append(hits, h)
		}
	}
	for _, id := range named {
		if !seen[id] {
			seen[id] = true
			hits = append(hits, Hit{ID: id, Score: namedScore[id]})
		}
	}
	x.splitByKind(keys, hits)
	return hits
}

// weighed returns a key's postings and what sharing it earns: its kind's
// weight times its IDF. A key too common to say anything has none.
func (x *Index) weighed(key string) ([]int32, float64) {
	post := x.postings[key]
	if len(post) == 0 || len(post) > minSkipPostings && len(post) > x.n/20 {
		return nil, 0
	}
	return post, keyWeights[key[0]] * math.Log(1+float64(x.n)/float64(len(post)))
}

// splitByKind sets each hit's Kinds: the keys it shares with the post,
// summed by kind, looked up in the sorted postings of the few hits only.
func (x *Index) splitByKind(keys []string, hits []Hit) {
	for _, key := range keys {
		kind := strings.IndexByte(KeyKinds, key[0])
		if kind < 0 {
			continue
		}
		post, w := x.weighed(key)
		for i := range hits {
			if _, ok := slices.BinarySearch(post, hits[i].ID); ok {
				hits[i].Kinds[kind] += w
			}
		}
	}
}

// settingRE matches snake_case setting names (gpu_memory_utilization,
// max_model_len): in prose and Python they name the same settings as the
// command-line flags --gpu-memory-utilization and --max-model-len.
var settingRE = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+){1,5}\b`)

// settingFlags returns the flags named as snake_case settings in the first
// part of a post.
func settingFlags(body string) map[string]bool {
	if len(body) > scanLimit {
		body = body[:scanLimit]
	}
	out := map[string]bool{}
	for _, m := range settingRE.FindAllString(body, 200) {
		out["--"+strings.ReplaceAll(m, "_", "-")] = true
	}
	return out
}

// hitHeap keeps the best n hits offered (a min-heap on score).
type hitHeap struct {
	n int
	h []Hit
}

func newHitHeap(n int) *hitHeap { return &hitHeap{n: n, h: make([]Hit, 0, n)} }

// worse reports whether a ranks below b (lower score, then higher id).
func worse(a, b Hit) bool { return a.Score < b.Score || a.Score == b.Score && a.ID > b.ID }

func (q *hitHeap) offer(h Hit) {
	if q.n == 0 {
		return
	}
	if len(q.h) < q.n {
		q.h = append(q.h, h)
		for i := len(q.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(q.h[i], q.h[p]) {
				break
			}
			q.h[i], q.h[p] = q.h[p], q.h[i]
			i = p
		}
		return
	}
	if !worse(q.h[0], h) {
		return
	}
	q.h[0] = h
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(q.h) && worse(q.h[l], q.h[m]) {
			m = l
		}
		if r < len(q.h) && worse(q.h[r], q.h[m]) {
			m = r
		}
		if m == i {
			return
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
}

// sorted returns the kept hits, best first.
func (q *hitHeap) sorted() []Hit {
	out := append([]Hit(nil), q.h...)
	slices.SortFunc(out, func(a, b Hit) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return out
}

// keySet collects keys once each, in first-seen order.
type keySet struct {
	seen map[string]bool
	keys []string
}

func (k *keySet) add(key string) {
	if k.seen == nil {
		k.seen = map[string]bool{}
	}
	if !k.seen[key] {
		k.seen[key] = true
		k.keys = append(k.keys, key)
	}
}
