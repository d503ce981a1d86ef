package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// ErrorTemplate is a known error message with its exception class, taken
// from the symptoms of a pack's entries or, when a knowledge base is
// loaded, of all its entries ("ValueError: The model's max seq len (<N>)
// is larger than ..."). Posts often quote the message without
// its class (a log line, a title, a sentence); a template lets Herald name
// the class and say that it inferred it.
type ErrorTemplate struct {
	Class   string `json:"class"`
	Message string `json:"message"`
}

// templateMinLiteral is the least literal text (placeholders removed) a
// template's matched prefix must hold: shorter phrases ("out of memory")
// are shared by many different errors, so they name no class.
const templateMinLiteral = 24

// compiledTemplate is an ErrorTemplate ready to match.
type compiledTemplate struct {
	class  string
	re     *regexp.Regexp
	needle string // lower-case literal word every match contains
}

var (
	templateSymptomRE  = regexp.MustCompile(`^((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): (.{8,})$`)
	placeholderRE      = regexp.MustCompile(`<[^<>\s]{1,20}>|\[\.\.\.\]|\{\}`)
	templateSentenceRE = regexp.MustCompile(`[.!?](?:\s|$)`)
	unitRE             = regexp.MustCompile(`^[KMGT]i?B([.,;:]?)$`)
)

// templatesFromEntries collects error templates from entries' symptoms.
func templatesFromEntries(entries []Entry) []ErrorTemplate {
	var t TemplateSet
	for i := range entries {
		t.Add(&entries[i])
	}
	return t.out
}

// TemplateSet collects the error templates of entries' symptoms, each
// once: a knowledge base's imported issues name the classes of messages
// that posts paste without them, as its packs do.
type TemplateSet struct {
	out  []ErrorTemplate
	seen map[string]bool
}

// Add adds the templates of e's symptoms.
func (t *TemplateSet) Add(e *Entry) {
	if t.seen == nil {
		t.seen = map[string]bool{}
	}
	add := func(class, msg string) {
		key := class + ": " + msg
		if t.seen[key] {
			return
		}
		t.seen[key] = true
		t.out = append(t.out, ErrorTemplate{Class: class, Message: msg})
	}
	for _, sym := range e.Symptoms {
		sym = strings.TrimSpace(sym)
		msg := sym
		if m := templateSymptomRE.FindStringSubmatch(sym); m != nil {
			add(m[1], m[2])
			msg = m[2]
		}
		// A CUDA error, alone or inside the exception that carries it
		// ("RuntimeError: CUDA error: no kernel image is available for
		// execution on the device"), is also known by its own message,
		// which titles quote without its head ("[Bug]: Blackwell, no
		// kernel image is available …", vllm#20193; #16307): it is read
		// as the CUDA error a post that prints the head has. The importer
		// stores a CUDA error it finds in an issue under the tag's own
		// spelling ("cuda-error: an illegal memory access was
		// encountered", vllm#5376, #8177), which is the same head.
		if m := cudaErrRE.FindStringSubmatch(msg); m != nil && strings.EqualFold(strings.Replace(m[1], "-", " ", 1), "CUDA error") {
			add("cuda-error", m[2])
		}
	}
}

// Templates returns the templates added so far.
func (t *TemplateSet) Templates() []ErrorTemplate { return t.out }

// compileTemplate turns a template into a case-insensitive pattern over
// its leading sentences, enough of them to hold templateMinLiteral
// characters of literal text: placeholders match numbers or short spans,
// backticks and quotes are optional, whitespace is any whitespace, and a
// device word (CUDA) matches every device word of the schema (HIP, XPU),
// since the same error is printed with the name of the device it ran on.
func compileTemplate(t ErrorTemplate, deviceWords []string) (compiledTemplate, bool) {
	// Posters quote messages from their second word as often as from
	// their first: a leading article is optional.
	msg := strings.TrimSpace(t.Message)
	for _, art := range []string{"The ", "A ", "An "} {
		msg = strings.TrimPrefix(msg, art)
	}
	// Take whole sentences until there is enough literal text.
	cut := len(msg)
	for _, loc := range templateSentenceRE.FindAllStringIndex(msg, -1) {
		if literalLen(msg[:loc[0]]) >= templateMinLiteral {
			cut = loc[0]
			break
		}
	}
	msg = strings.TrimSpace(msg[:cut])
	if literalLen(msg) < templateMinLiteral {
		return compiledTemplate{}, false
	}
	var b strings.Builder
	b.WriteString(`(?i)`)
	needle := ""
	rest := msg
	for rest != "" {
		loc := placeholderRE.FindStringIndex(rest)
		lit := rest
		if loc != nil {
			lit = rest[:loc[0]]
		}
		for _, w := range strings.Fields(lit) {
			if len(w) > len(needle) && !isDeviceWord(w, deviceWords) {
				needle = strings.ToLower(strings.Trim(w, needleTrim))
			}
		}
		b.WriteString(literalPattern(lit, deviceWords))
		if loc == nil {
			break
		}
		switch ph := rest[loc[0]:loc[1]]; {
		case ph == "<N>":
			b.WriteString(`[\d.,]+`)
		case ph == "[...]":
			b.WriteString(`\[.{0,400}?\]`)
		default:
			b.WriteString(`.{1,120}?`)
		}
		rest = rest[loc[1]:]
	}
	re, err := regexp.Compile(b.String())
	if err != nil || needle == "" {
		return compiledTemplate{}, false
	}
	return compiledTemplate{class: t.Class, re: re, needle: needle}, true
}

// literalPattern quotes literal template text for a regexp, loosening the
// characters posters and forums change when they paste.
func literalPattern(lit string, deviceWords []string) string {
	var b strings.Builder
	words := strings.Fields(lit)
	if strings.HasPrefix(lit, " ") || strings.HasPrefix(lit, "\t") {
		b.WriteString(`\s*`)
	}
	for i, w := range words {
		if i > 0 {
			b.WriteString(`\s+`)
		}
		if isDeviceWord(w, deviceWords) {
			alts := make([]string, len(deviceWords))
			for j, d := range deviceWords {
				alts[j] = regexp.QuoteMeta(d)
			}
			b.WriteString(`(?:` + strings.Join(alts, "|") + `)`)
			continue
		}
		// A size unit matches every unit: the same error reports MiB on
		// one machine and GiB on another.
		if m := unitRE.FindStringSubmatch(w); m != nil {
			b.WriteString(`[KMGT]i?B` + regexp.QuoteMeta(m[1]))
			continue
		}
		for _, r := range w {
			switch r {
			case '`', '\'', '"':
				b.WriteString("[`'\"]?")
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
	}
	if len(words) > 0 && (strings.HasSuffix(lit, " ") || strings.HasSuffix(lit, "\t")) {
		b.WriteString(`\s*`)
	}
	return b.String()
}

func isDeviceWord(w string, deviceWords []string) bool {
	for _, d := range deviceWords {
		if strings.EqualFold(w, d) {
			return true
		}
	}
	return false
}

// literalLen counts the characters of s outside placeholders.
func literalLen(s string) int {
	return len(strings.Join(strings.Fields(placeholderRE.ReplaceAllString(s, " ")), " "))
}

// compiled returns the schema's templates ready to match (none for a nil
// or unprepared schema; Extract prepares the schema it is given).
func (s *Schema) compiled() compiledTemplates {
	if s == nil {
		return compiledTemplates{}
	}
	return s.templates
}

// compiledTemplates are templates in order, with the positions of those
// of each needle: a line is tried only against the templates whose
// needle is one of its words, so the cost of a line does not grow with
// the thousands of templates a large knowledge base's issues give.
type compiledTemplates struct {
	list     []compiledTemplate
	byNeedle map[string][]int
}

func compileTemplates(ts []ErrorTemplate, deviceWords []string) compiledTemplates {
	out := compiledTemplates{byNeedle: map[string][]int{}}
	seen := map[string]bool{}
	for _, t := range ts {
		c, ok := compileTemplate(t, deviceWords)
		if !ok || seen[c.re.String()] {
			continue
		}
		seen[c.re.String()] = true
		out.byNeedle[c.needle] = append(out.byNeedle[c.needle], len(out.list))
		out.list = append(out.list, c)
	}
	return out
}

// needleTrim is what is trimmed from a word to make it a needle, and
// wordJoins what joins the parts of a word whose parts are tried too.
const (
	needleTrim = "`'\"().,:;[]{}"
	wordJoins  = "-/=`'\""
)

// candidates returns, in template order, the templates whose needle is
// a word of the lower-cased line, or a part of a word between dashes,
// slashes, equals signs or quotes.
func (ts compiledTemplates) candidates(lower string) []int {
	var out []int
	for _, w := range strings.Fields(lower) {
		out = append(out, ts.byNeedle[strings.Trim(w, needleTrim)]...)
		if strings.ContainsAny(w, wordJoins) {
			for _, part := range strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune(wordJoins, r) }) {
				out = append(out, ts.byNeedle[strings.Trim(part, needleTrim)]...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// inferErrors matches lines that name no exception class against the
// schema's templates. A message already reported with its class is not
// reported again.
func inferErrors(lines []string, found []ErrorInfo, s *Schema) []ErrorInfo {
	tmpls := s.compiled()
	if len(tmpls.list) == 0 {
		return nil
	}
	var out []ErrorInfo
	done := map[string]bool{}
	for _, l := range lines {
		if len(l) > 4096 {
			l = l[:4096]
		}
		lower := strings.ToLower(l)
		for _, i := range tmpls.candidates(lower) {
			t := tmpls.list[i]
			if done[t.class] {
				continue
			}
			loc := t.re.FindStringIndex(l)
			if loc == nil {
				continue
			}
			msg := strings.TrimSpace(l[loc[0]:quotedEnd(l, loc)])
			if explained(found, t.class, msg) {
				done[t.class] = true
				continue
			}
			if len(msg) > 500 {
				msg = msg[:500]
			}
			done[t.class] = true
			out = append(out, ErrorInfo{Type: t.class, Message: strings.TrimRight(msg, "`'\" "), Inferred: true})
		}
	}
	return out
}

// quotedEnd is where the message a template matched at loc in line l
// ends: at the closing quote when the message is quoted in a sentence or
// a JSON string ("or a \"No available memory for the cache blocks.\" no
// matter how much I lower it", the errors "… on the driver node" keep
// coming back; vllm#41695, the C3-038 dev post; "message":"The model `x`
// does not exist.","type": …, vllm#58025), else at the end of the line.
// Only double quotes count: an apostrophe opens nothing ("the model's
// max seq len"), and backticks wrap the settings inside messages.
func quotedEnd(l string, loc []int) int {
	before := strings.TrimRight(l[:loc[0]], " ")
	for _, art := range []string{"The", "the", "A", "a", "An", "an"} {
		if b, ok := strings.CutSuffix(before, art); ok && (b == "" || !isWordByte(b[len(b)-1])) {
			before = b
			break
		}
	}
	closing := ""
	switch {
	case strings.HasSuffix(before, `"`):
		closing = `"`
	case strings.HasSuffix(before, "“"):
		closing = "”"
	default:
		return len(l)
	}
	from := max(loc[1]-len(closing), loc[0])
	if i := strings.Index(l[from:], closing); i >= 0 {
		return from + i
	}
	return len(l)
}

// explained reports whether an error with a message overlapping msg was
// already found with a class. The head of a validation error ("1
// validation error for VllmConfig") is explained by any error of its
// class: the error's message was read from the lines below the head.
func explained(found []ErrorInfo, class, msg string) bool {
	if validationHeadRE.MatchString(msg) && slices.ContainsFunc(found, func(e ErrorInfo) bool { return sameException(e.Type, class) }) {
		return true
	}
	head := strings.ToLower(msg)
	if len(head) > 40 {
		head = head[:40]
	}
	for _, e := range found {
		if strings.Contains(strings.ToLower(e.Message), head) {
			return true
		}
	}
	return false
}
