package knowledge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Extract reads the facts out of a post. It always returns the facts it
// found; the error is non-nil (wrapping ErrTruncated) only when the post was
// cut to MaxPostBytes, in which case the facts are partial.
func Extract(p Post, s *Schema) (Facts, error) {
	s = s.ready()
	doc, truncated := readPost(p)
	f := Facts{}
	if s != nil {
		f.Package = s.Vocabulary.Package
	}
	f.Commands, f.MentionedFlags = extractCommands(doc, s)
	f.Errors = extractErrors(doc, s)
	f.Versions = extractVersions(doc, f.Commands, f.Errors, s)
	f.Platform = extractPlatform(doc, f.Versions, f.Commands, s)
	f.GPUs = extractGPUs(doc, f.Errors, s)
	if f.Platform == "" {
		f.Platform = gpuPlatform(f.GPUs, s)
	}
	f.Models = extractModels(doc, f.Commands, f.MentionedFlags, s)
	if re := s.logs().unknownModel; re != nil {
		msgs := make([]string, len(f.Errors))
		for i, e := range f.Errors {
			msgs[i] = e.Message
		}
		f.RequestedModel = firstMatch(re, msgs)
	}
	lines := doc.lines()
	f.OS = firstMatch(osRE, lines)
	f.Python = firstMatch(pythonVerRE, lines)
	if f.Python == "" {
		f.Python = f.Versions["python"]
	}
	f.Env = extractEnv(doc, f.Commands)
	f.Intent = extractIntent(doc)
	f.Refs = extractRefs(doc)
	mainNamed := s.namesMain(doc)
	f.OtherEngine = s.otherEngine(doc, f.Commands, mainNamed)
	f.ForeignError = s.foreignError(&f, mainNamed)
	f.Topics = topicsOf(doc, &f, s)
	if f.Commands == nil {
		f.Commands = []Command{}
	}
	if f.Errors == nil {
		f.Errors = []ErrorInfo{}
	}
	if f.GPUs == nil {
		f.GPUs = []GPU{}
	}
	if f.Models == nil {
		f.Models = []string{}
	}
	if truncated {
		f.Truncated = true
		return f, fmt.Errorf("%w: read the first and last parts of %d bytes", ErrTruncated, len(p.Body))
	}
	return f, nil
}

// topicsOf applies the schema's topic rules to a post.
func topicsOf(doc *document, f *Facts, s *Schema) []string {
	if s == nil || len(s.Topics) == 0 {
		return nil
	}
	// A log line read as a sentence (pasted without fences, or inside
	// an HTML block: "<summary>Error</summary>" then the log) is the
	// program's words, not the poster's: "GPU KV cache usage: 0.0%" in
	// every engine's status line is no post about the KV cache. The
	// engine's dump of its configuration is the exception: its set
	// settings are the poster's ("quantization=awq"; unsetSettingRE
	// drops the unset ones, and the pack's log formats name the settings
	// a whole-configuration dump prints at their defaults, which the
	// poster did not choose: "gpu_memory_utilization=0.9",
	// "guided_decoding_backend='outlines'"). An environment report's line
	// that states an absence ("ROCM used to build PyTorch: N/A") names what the set-up
	// does not have, as the platform reader knows: pasted without fences
	// it tagged twelve corpus posts on CUDA, XPU, TPU and CPU with rocm
	// (vllm-project/vllm#6250, #19489, #41663, …).
	var prose []string
	for _, l := range doc.prose {
		if absentLineRE.MatchString(l) {
			continue
		}
		if logPrefixRE.FindString(l) == "" || len(settingPairRE.FindAllStringIndex(l, 3)) == 3 {
			prose = append(prose, l)
		}
	}
	text := strings.ToLower(doc.title + "\n" + strings.Join(prose, "\n") + "\n" + strings.Join(doc.inline, "\n"))
	// The GPUs the post names, as the hardware reader spells them
	// ("RTX 5090" however it was typed: "RTX5090", "rtx-5090").
	for _, g := range f.GPUs {
		text += "\n" + strings.ToLower(g.Name)
	}
	text = unsetSettingRE.ReplaceAllString(text, " ")
	// Nor does an AMD processor's name, as the platform reader knows:
	// "AMD EPYC" under NVIDIA GPUs is no post about ROCm.
	text = withoutAMDCPUs(text)
	if d := s.logs().defaults; d != nil {
		text = d.ReplaceAllString(text, " ")
	}
	var errText strings.Builder
	for _, e := range f.Errors {
		errText.WriteString(strings.ToLower(e.Type + ": " + e.Message + "\n"))
	}
	// The text without its program text, made once when a rule asks.
	var outside string
	made := false
	wordsOf := func(t Topic) string {
		if !t.WordsOutsideProgramText {
			return text
		}
		if !made {
			outside, made = withoutProgramText(text, f.Errors), true
		}
		return outside
	}
	// Rules with Unless are read after the others, whose tags they ask
	// about; the tags keep the order of the rules.
	hit := make([]bool, len(s.Topics))
	tagged := map[string]bool{}
	for _, last := range []bool{false, true} {
		for i, t := range s.Topics {
			if (len(t.Unless) > 0) != last || tagged[t.Tag] || slices.ContainsFunc(t.Unless, func(u string) bool { return tagged[u] }) {
				continue
			}
			if topicHit(t, f, wordsOf(t), errText.String()) {
				hit[i], tagged[t.Tag] = true, true
			}
		}
	}
	var out []string
	for i, t := range s.Topics {
		if hit[i] && !contains(out, t.Tag) {
			out = append(out, t.Tag)
		}
	}
	return out
}

// withoutProgramText returns a post's lowered text without the program
// text it quotes (Topic.WordsOutsideProgramText): the messages of its
// errors, and the word "image" where it names a container's image:
// beside the image's reference ("Image:   intel/llm-scaler-vllm:0.14.0-b8.1",
// vllm-dev C2-014; "embeddedllminfo/vllm-rocm:vllm-v0.2.4 image",
// vllm#3122; kubectl's "Image: vllm/vllm-openai:v0.8.5", vllm#18163) or
// before a word only images of containers have ("Image tag: v0.28.0",
// C3-017; "Image Tag: 2025-04-18", a Helm deployment in
// vllm-project/production-stack#407; "image id：7e80…", C1-025).
func withoutProgramText(text string, errs []ErrorInfo) string {
	for _, e := range errs {
		if msg := strings.ToLower(e.Message); len(msg) >= minQuotedError {
			text = strings.ReplaceAll(text, msg, " ")
		}
	}
	return containerImageWordRE.ReplaceAllStringFunc(text, func(m string) string {
		if rest, ok := strings.CutPrefix(m, "image"); ok {
			return " " + rest
		}
		return strings.TrimSuffix(m, "image") + " "
	})
}

// minQuotedError is the length below which an error message is not cut
// out of the text a rule's words are read in (withoutProgramText): a
// message of a word or two ("CUDA error") is as likely the poster's.
const minQuotedError = 12

// containerImageWordRE is the word "image" before or after a container
// image's reference, a registry path with a tag, or before a word of a
// container image's (its tag, id, digest or pull) (lower case: topicsOf
// reads lowered text).
var containerImageWordRE = regexp.MustCompile(`\bimage\s*[:=]?\s+(?:[\w.-]+/)+[\w.-]+:[\w.+-]+|(?:[\w.-]+/)+[\w.-]+:[\w.+-]+\s+image\b|\bimage[\s_-]*(?:tags?|id|digest|pull)\b`)

// settingPairRE is one "name=value" of a configuration dump.
var settingPairRE = regexp.MustCompile(`\b[a-z][\w.]*=\S`)

// unsetSettingRE is a setting printed as unset, as the engine's dump of
// its configuration lists every one ("chat_template=None,
// enable_lora=False, 'tool_call_parser': None"): it names a feature the
// poster does not use, so its words do not tag the post.
var unsetSettingRE = regexp.MustCompile(`['"]?\b[a-z][\w.]*['"]?\s*(?:=|:\s)\s*(?:none|false|''|""|\[\]|\{\})(?:[\s,)}\]]|$)`)

func topicHit(t Topic, f *Facts, text, errText string) bool {
	for _, fl := range t.Flags {
		if topicFlagHit(f, fl) {
			return true
		}
	}
	for _, e := range t.Errors {
		if errText != "" && strings.Contains(errText, strings.ToLower(e)) {
			return true
		}
	}
	if contains(t.Platforms, f.Platform) {
		return true
	}
	for _, w := range t.Words {
		if containsProseWord(text, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// topicFlagHit reports whether any command, the prose or the environment
// of the post sets the topic rule's flag ("NAME", "NAME VALUE" or "NAME
// !VALUE").
func topicFlagHit(f *Facts, fl string) bool {
	name, want, _ := strings.Cut(fl, " ")
	not := strings.HasPrefix(want, "!")
	want = strings.TrimPrefix(want, "!")
	ok := func(v string) bool { return want == "" || strings.EqualFold(v, want) != not }
	for _, c := range f.Commands {
		if v, set := c.Flags[name]; set && ok(v) {
			return true
		}
	}
	if v, set := f.MentionedFlags[name]; set && ok(v) {
		return true
	}
	v, set := f.Env[name]
	return set && ok(v)
}

// containsProseWord is containsWord leaving out occurrences inside a flag
// name: "tensor-parallel" in "--tensor-parallel-size=1" is the flag, which
// a rule's Flags weigh with its value.
func containsProseWord(text, w string) bool {
	// prev is where the last occurrence started and prevTok where its
	// token did: each byte is scanned back over once, however many
	// occurrences a long token holds.
	prev, prevTok := 0, 0
	for i := 0; w != ""; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		start := i + j
		i = start + 1
		tok := start
		for tok > prev && !isTokenSep(text[tok-1]) {
			tok--
		}
		if tok == prev {
			tok = prevTok
		}
		prev, prevTok = start, tok
		if start > 0 && isWordByte(text[start-1]) || wordHits(text[start:], w, 1, false, false) == 0 {
			continue
		}
		if !strings.HasPrefix(text[tok:], "--") {
			return true
		}
	}
	return false
}

// isTokenSep reports whether b ends the token before a word: space, or
// the punctuation that opens a quote, a list or a parenthesis.
func isTokenSep(b byte) bool { return strings.IndexByte(" \n\t`([{\"',", b) >= 0 }

// containsWord reports whether w occurs in text at word boundaries.
func containsWord(text, w string) bool { return wordHits(text, w, 1, false, false) > 0 }

// wordHits counts, up to max, the occurrences of w in text that start at
// a word boundary and, unless prefix is set, end at one. With afterCount
// a count glued before the word is a boundary too ("2xH100").
func wordHits(text, w string, max int, prefix, afterCount bool) int {
	n := 0
	for i := 0; w != "" && n < max; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(w)
		okStart := start == 0 || !isWordByte(text[start-1]) ||
			afterCount && text[start-1] == 'x' && start >= 2 && text[start-2] >= '0' && text[start-2] <= '9'
		if okStart && (prefix || end == len(text) || !isWordByte(text[end])) {
			n++
		}
		i = start + 1
	}
	return n
}

// isWordByte reports whether b is a regexp word character (\w).
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}
