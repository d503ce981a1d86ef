package knowledge

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// symptomInfo is a symptom prepared for comparison.
type symptomInfo struct {
	class  string
	tokens map[string]bool // words of the message (class excluded)
	// flags are the flags a described symptom names, normalised
	// (normFlag): "error when combining a .gguf model with
	// --cpu-offload-gb" is a symptom of posts that use that flag.
	flags []string
}

// symptomMemo memoises symptom preparation: the same symptom texts recur
// across candidates and posts. It empties itself when it grows past
// symptomMemoMax, which bounds memory however large the knowledge base is.
// The zero value is ready to use and safe for concurrent use.
type symptomMemo struct {
	mu sync.Mutex
	m  map[string]symptomInfo
}

const symptomMemoMax = 50_000

// maxSymptomFlags bounds the flags read from one described symptom; a
// symptom is a line, and the pack's longest names two.
const maxSymptomFlags = 8

// titleTokens returns the words of an entry title, memoised with the
// symptoms under the title as written, so that a title seen before costs
// one lookup; it is read as a post's title is (titleText, titleWords)
// and prepared like a described symptom.
func (sm *symptomMemo) titleTokens(title string) map[string]bool {
	key := "\x00title\x00" + title
	if info, ok := sm.lookup(key); ok {
		return info.tokens
	}
	info := prepareSymptom("\x00title\x00" + titleWords(titleText(title)))
	sm.store(key, info)
	return info.tokens
}

func (sm *symptomMemo) get(sym string) symptomInfo {
	if info, ok := sm.lookup(sym); ok {
		return info
	}
	info := prepareSymptom(sym)
	sm.store(sym, info)
	return info
}

func (sm *symptomMemo) lookup(key string) (symptomInfo, bool) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	info, ok := sm.m[key]
	return info, ok
}

// store memoises info under key, emptying the memo first when it is full.
func (sm *symptomMemo) store(key string, info symptomInfo) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	if sm.m == nil || len(sm.m) >= symptomMemoMax {
		sm.m = make(map[string]symptomInfo)
	}
	sm.m[key] = info
}

// prepareSymptom prepares a symptom for comparison: its exception class
// and the words of its message, paths masked.
func prepareSymptom(sym string) symptomInfo {
	class, msg := splitSymptom(sym)
	msg = maskPathRE.ReplaceAllString(msg, " ")
	if class == "" {
		// A described symptom is compared with the post's words, which
		// leave out flag names (newPostTokens): so do its own, or "auto
		// tool choice requires --enable-auto-tool-choice …" could never
		// be covered by a post that says it.
		// Its flags are kept apart instead: the post must name each
		// (scorer.namesFlags), or a GGUF loading failure would describe
		// "error when combining a .gguf model with --cpu-offload-gb"
		// by its other words alone.
		var flags []string
		for _, fl := range flagMentionRE.FindAllString(msg, maxSymptomFlags) {
			if fl = normFlag(fl); !slices.Contains(flags, fl) {
				flags = append(flags, fl)
			}
		}
		msg = flagMentionRE.ReplaceAllString(msg, " ")
		return symptomInfo{tokens: tokenSet(msg), flags: flags}
	}
	return symptomInfo{class: class, tokens: tokenSet(msg)}
}

// splitSymptom splits "pkg.Class: message" into class and message; a
// described symptom returns an empty class.
func splitSymptom(sym string) (class, msg string) {
	sym = strings.TrimSpace(sym)
	if m := pyExcRE.FindStringSubmatch(sym); m != nil {
		return m[1], m[2]
	}
	if m := classLeadRE.FindStringSubmatch(sym); m != nil {
		return m[1], m[2]
	}
	return "", sym
}

// classLeadRE matches a symptom that starts with an exception class and
// goes on in words: "torch.OutOfMemoryError during _initialize_kv_caches".
var classLeadRE = regexp.MustCompile(`^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\s+(.*)$`)

func sameException(a, b string) bool {
	return a == b || lastDotted(a) == lastDotted(b)
}

func lastDotted(s string) string {
	if i := strings.LastIndex(s, "."); i >= 0 {
		return s[i+1:]
	}
	return s
}

var stopwords = map[string]bool{
	"the": true, "a": true, "an": true, "of": true, "to": true, "is": true, "in": true, "and": true,
	"or": true, "for": true, "on": true, "with": true, "be": true, "it": true, "this": true, "that": true,
	"was": true, "are": true, "not": true, "at": true, "by": true, "as": true, "if": true, "but": true,
	"from": true, "when": true, "can": true, "you": true, "i": true, "my": true, "n": true,
}

// tokenSet returns the lower-cased words of s (a letter then letters,
// digits or underscores), without stopwords. It is hand-written because it
// runs for every symptom of every candidate.
func tokenSet(s string) map[string]bool { return tokenSetN(s, maxSetTokens) }

// maxSetTokens bounds the words tokenSet reads: symptoms, titles and
// message excerpts are short, and this bounds the cost of a hostile one.
const maxSetTokens = 200

// maxPostTokens bounds the words read from a whole post. Issue templates
// open with an environment report of hundreds of words; the problem is
// described after it.
const maxPostTokens = 20000

// tokenSetN is tokenSet reading at most max words.
func tokenSetN(s string, max int) map[string]bool {
	out := map[string]bool{}
	n := 0
	for i := 0; i < len(s) && n < max; {
		c := s[i]
		if !isLetter(c) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && (isLetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
			j++
		}
		// A word glued to a preceding digit ("0xdead", "8x") is an id.
		if i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
			i = j
			continue
		}
		w := strings.ToLower(s[i:j])
		i = j
		n++
		if stopwords[w] {
			continue
		}
		out[w] = true
	}
	return out
}

// titleCompounds returns the joins of a title's adjacent words, split at
// any character but a letter or digit: "Qwen3-Coder", "qwen3 coder",
// "qwen3_coder" all give "qwen3coder", the word a title that writes it
// glued ("Qwen3Coder") has. Names of models, parsers and features are
// spelled all these ways; comparing titles through their joins finds the
// same name however it is spelled. At most maxSetTokens words are read.
func titleCompounds(title string) map[string]bool {
	out := map[string]bool{}
	prev := ""
	n := 0
	for i := 0; i < len(title) && n < maxSetTokens; {
		if !isAlnum(title[i]) {
			if title[i] != ' ' && title[i] != '-' && title[i] != '_' && title[i] != '.' {
				prev = "" // a word across other punctuation is no compound
			}
			i++
			continue
		}
		j := i + 1
		for j < len(title) && isAlnum(title[j]) {
			j++
		}
		w := strings.ToLower(title[i:j])
		i = j
		n++
		if prev != "" && len(prev)+len(w) >= 6 && !stopwords[prev] && !stopwords[w] {
			out[prev+w] = true
		}
		prev = w
	}
	return out
}

func isAlnum(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// containment is the share of the symptom's tokens found in the post's
// signature, damped when the symptom is much shorter than the signature
// would need to be to say the same thing.
func containment(sym, post map[string]bool) float64 {
	if len(sym) == 0 || len(post) == 0 {
		return 0
	}
	n := 0
	for w := range sym {
		if post[w] {
			n++
		}
	}
	c := float64(n) / float64(len(sym))
	if len(sym) < 3 {
		c *= 0.7
	}
	return c
}

// postTokens indexes the words and flags of a post for symptom checks.
type postTokens struct {
	words map[string]bool
	flags map[string]bool
	raw   string
	// squashed is raw squashed (squashWithSeparators), and seps the
	// separators it dropped, for model families named in the text.
	squashed string
	seps     []byte
}

func newPostTokens(text string) postTokens {
	if len(text) > MaxPostBytes {
		text = text[:MaxPostBytes]
	}
	// Words for symptom checks leave out flag names: a command's
	// --enable-auto-tool-choice does not describe a tool-choice error.
	pt := postTokens{words: tokenSetN(flagMentionRE.ReplaceAllString(text, " "), maxPostTokens), flags: map[string]bool{}, raw: text}
	for _, fl := range flagMentionRE.FindAllString(text, 256) {
		pt.flags[normFlag(fl)] = true
	}
	pt.squashed, pt.seps = squashWithSeparators(text)
	return pt
}

func (pt postTokens) hasFlag(f string) bool { return pt.flags[f] }
func (pt postTokens) hasWord(w string) bool { return pt.words[w] }
func (pt postTokens) hasRaw(s string) bool  { return strings.Contains(pt.raw, s) }

// coverage is the share of a described symptom's words found in the post.
func (pt postTokens) coverage(toks map[string]bool) (float64, int) {
	if len(toks) == 0 {
		return 0, 0
	}
	n := 0
	for w := range toks {
		if pt.words[w] {
			n++
		}
	}
	return float64(n) / float64(len(toks)), len(toks)
}

// modelFamilyHit reports which of the post's models (or its text) belongs to
// the family fam ("deepseek-v2", "qwen3", "gguf"). A family written with
// its generation names that generation only: glm4 is not GLM-4.7, qwen2
// is not Qwen2.5, while qwen3 is Qwen3-32B (a size, not a generation).
func modelFamilyHit(fam string, models []string, pt postTokens) string {
	key := squash(fam)
	if len(key) < 3 {
		return ""
	}
	for _, m := range models {
		_, name, ok := strings.Cut(m, "/")
		if !ok {
			name = m
		}
		if sq, seps := squashWithSeparators(name); familyIn(sq, seps, key) {
			return m
		}
	}
	if len(key) >= 5 && familyIn(pt.squashed, pt.seps, key) {
		return fam
	}
	return ""
}

// familyIn reports whether squashed text sq (with the separators sep it
// dropped) names the squashed family key where the name does not go on
// to a later generation: a key ending in a digit must not be followed by
// another digit directly or after a dot ("glm4" in "GLM-4.7", "qwen2" in
// "qwen25"), though it may be after a dash or a space ("qwen3" in
// "Qwen3-32B", "Qwen3 32B").
func familyIn(sq string, sep []byte, key string) bool {
	endsInDigit := key[len(key)-1] >= '0' && key[len(key)-1] <= '9'
	for i := 0; ; {
		j := strings.Index(sq[i:], key)
		if j < 0 {
			return false
		}
		end := i + j + len(key)
		if !endsInDigit || end == len(sq) || sq[end] < '0' || sq[end] > '9' || sep[end] != 0 && sep[end] != '.' {
			return true
		}
		i += j + 1
	}
}

// squashWithSeparators is squash that also returns, for each byte of the
// result, the last separator dropped before it (0 for none).
func squashWithSeparators(s string) (string, []byte) {
	var b strings.Builder
	var seps []byte
	var pending byte
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			seps = append(seps, pending)
			pending = 0
			continue
		}
		if r < 0x80 {
			pending = byte(r)
		} else {
			pending = ' '
		}
	}
	return b.String(), seps
}

// squash returns the lower-cased letters and digits of s: "GLM-4.7" →
// "glm47".
func squash(s string) string {
	sq, _ := squashWithSeparators(s)
	return sq
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutRunes(s, n) + "…"
}

// cutRunes returns at most the first n bytes of s, cut on a rune
// boundary.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut]
}
