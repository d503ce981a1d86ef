package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// modelRE matches a Hugging Face model id: org/name.
var modelRE = regexp.MustCompile(`(?:^|[\s"'=(` + "`" + `:])([A-Za-z0-9][\w.-]{1,60})/([\w.-]*[A-Za-z][\w.-]{0,100})`)

// notModelOrgs are the first halves of org/name shaped words that are
// not models: path components, URL parts, hosts. A pack adds its own
// project's organisations (Vocabulary.Orgs).
var notModelOrgs = map[string]bool{
	"usr": true, "home": true, "root": true, "tmp": true, "opt": true,
	"and": true, "or": true, "site-packages": true, "dist-packages": true, "lib": true,
	"docs": true, "issues": true, "pull": true, "blob": true, "tree": true, "github.com": true,
	"huggingface.co": true, "en": true, "v1": true, "api": true,
	"dev": true, "proc": true, "etc": true, "var": true, "mnt": true, "data": true,
	"workspace": true, "app": true, "models": true, "model": true, "input": true, "output": true,
	"read": true, "write": true, "true": true, "false": true, "src": true, "rocm": true,
}

// extractModels returns model ids, best evidence first: the model of a
// command line (its model flag or first argument), a model= keyword, a
// model path of another tool, the "model" of an API request body, then
// ids written in the text, the model the package's log loads, and names
// written in the text. Text candidates must look like a
// model: an org/name whose name carries a model family word or a size
// ("7B"), or a bare name that starts with a family word and has a number.
func extractModels(doc *document, cmds []Command, mentioned map[string]string, s *Schema) []string {
	var out []string
	parsers := parserNames(cmds, mentioned)
	add := func(m string) {
		m = strings.TrimRight(strings.Trim(m, "'\"`"), ".,;:)")
		// A script, template or configuration file is no model, wherever
		// it stands: "python examples/bug_example.py" (vllm#7160),
		// chat_template="examples/tool_chat_template_llama3.1_json.jinja"
		// (vllm#16341).
		// Nor is a shell variable the command was given (`--model
		// $MODEL`, `pretrained=$MODEL`; vllm#18995, #35385,
		// lm-evaluation-harness#2904): the post does not say its value.
		// Nor is a placeholder in angle brackets (`--model=<local_path>`,
		// vllm#3090; "vllm serve <model>"), which a post writes where it
		// hides the value; a name after one ("<path>/Qwen2.5-7B") is kept.
		if m == "" || contains(out, m) || isCodeFile(m) || parsers[strings.ToLower(m)] || strings.HasPrefix(m, "$") || isPlaceholder(m) {
			return
		}
		out = append(out, m)
	}
	commandModels(cmds, s, add)
	text := withoutRouterPrefix(doc.scanText())
	codeModels(text, s, add)
	orgNameModels(text, s, add)
	logModels(text, s, add)
	bareModels(doc, s, add)
	if len(out) == 0 {
		titleFamily(doc.title, s, add)
	}
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}

// parserNames returns the values the post gives a parser option
// (--tool-call-parser, --reasoning-parser), lowercased. Parsers are named
// after the model families whose output they read ("glm47", "qwen3",
// "gemma4", "deepseek_r1"), so the same word written elsewhere in the post
// ("despite --tool-call-parser glm47" in a title) names the parser, not a
// model: corpus #17369 and #17506, vllm-dev B001, B048, C2-017, C2-018,
// C2-030, C2-033 and C2-040 read one as their model. The model itself is
// named in full where the post runs it.
func parserNames(cmds []Command, mentioned map[string]string) map[string]bool {
	names := map[string]bool{}
	note := func(flag, v string) {
		if strings.HasSuffix(flag, "-parser") && v != "" {
			names[strings.ToLower(v)] = true
		}
	}
	for _, c := range cmds {
		for k, v := range c.Flags {
			note(k, v)
		}
	}
	for k, v := range mentioned {
		note(k, v)
	}
	return names
}

// commandModels adds the models command lines name: a program's model
// flag or first argument, and other tools' (lmdeploy, scripts) model
// flags or local model directories.
func commandModels(cmds []Command, s *Schema, add func(string)) {
	for _, c := range cmds {
		p := s.program(c.Program)
		if p == nil || p.ModelFlag == "" {
			// Not a program that serves a model: an interpreter's first
			// argument (python's) is the script it runs, extension or
			// not, and the loop below reads its flags.
			continue
		}
		// A Python call may pass a variable (model=MODEL_PATH).
		if v, ok := c.Flags[p.ModelFlag]; ok && v != "" && (!c.api || looksLikeModel(v) || looksLikePath(v) || isModelName(v, s)) {
			add(v)
		}
		if len(c.Args) > 0 && (looksLikeModel(c.Args[0]) || looksLikePath(c.Args[0]) || isModelName(c.Args[0], s) || positionalModelDir(c.Args[0])) {
			add(c.Args[0])
		}
	}
	// Other tools (lmdeploy, scripts) name models with a model flag or a
	// local model directory; so does a script run by a program the schema
	// knows without a model flag of its own (`python
	// benchmarks/kernels/benchmark_moe.py --model /path/to/…`, vllm#30629,
	// #31442, #31447).
	for _, c := range cmds {
		if p := s.program(c.Program); p != nil && p.ModelFlag != "" {
			continue
		}
		for _, f := range []string{"--model", "--model-path", "--model-name-or-path", "--model-dir"} {
			if v := c.Flags[f]; v != "" && (looksLikeModel(v) || looksLikePath(v)) {
				add(v)
			}
		}
		for _, a := range c.Args {
			if looksLikePath(a) {
				add(a)
				break
			}
		}
	}
}

// codeModels adds the models code, logs and request bodies name in
// known places.
func codeModels(text string, s *Schema, add func(string)) {
	// Engine-argument dumps and Python calls: model='...', pretrained=x.
	for _, m := range modelKwargRE.FindAllStringSubmatch(text, 4) {
		v := m[1] + m[2]
		if looksLikeModel(v) || looksLikePath(v) || isModelName(v, s) {
			add(v)
		}
	}
	// The first argument of a call that loads a model:
	// AutoModel.from_pretrained("x"), pipeline('/path'), LLM("x").
	for _, m := range loaderCallRE.FindAllStringSubmatch(text, 4) {
		if looksLikeModel(m[1]) || looksLikePath(m[1]) || isModelName(m[1], s) {
			add(m[1])
		}
	}
	// The model a loading error names: "Incorrect path_or_model_id:
	// '/data/x'", "'x' is not a local folder and is not a valid model
	// identifier", "it looks like x is not the path to a directory".
	for _, re := range loadErrorModelREs {
		for _, m := range re.FindAllStringSubmatch(text, 2) {
			if looksLikeModel(m[1]) || looksLikePath(m[1]) || isModelName(m[1], s) {
				add(m[1])
			}
		}
	}
	// "model": "x" in a request body, 'model': '/path' in vLLM's
	// "non-default args" dump, 'pretrained': ... in lm-eval's.
	for _, m := range requestModelRE.FindAllStringSubmatch(text, 4) {
		if looksLikeModel(m[1]) && modelShaped(m[1], s) || looksLikePath(m[1]) || isModelName(m[1], s) {
			add(m[1])
		}
	}
	// Model hub URLs.
	for _, m := range hfURLRE.FindAllStringSubmatch(text, 4) {
		add(m[1])
	}
	// An org/name string literal in code: Bonito("BatsResearch/bonito-v1").
	for _, m := range quotedIDRE.FindAllStringSubmatch(text, 8) {
		if id := m[1]; !mimeTypes[strings.ToLower(strings.SplitN(id, "/", 2)[0])] && (modelShaped(id, s) || quotedIDName(id, s)) {
			add(id)
		}
	}
}

// logModels adds the model the main package's log says it loads
// (LogFormats.Model): after the ids the poster wrote, who may ask about
// one model and paste the log of another, and before bare names.
func logModels(text string, s *Schema, add func(string)) {
	re := s.logs().model
	if re == nil {
		return
	}
	for _, m := range re.FindAllStringSubmatch(text, 2) {
		if v := strings.TrimRight(m[1], "./"); looksLikeModel(v) || looksLikePath(v) || isModelName(v, s) {
			add(v)
		}
	}
}

// orgNameModels adds org/name ids anywhere in the text that are shaped
// like models and are not paths, URLs, container images or files.
func orgNameModels(text string, s *Schema, add func(string)) {
	for _, m := range modelRE.FindAllStringSubmatchIndex(text, 64) {
		org, name := text[m[2]:m[3]], text[m[4]:m[5]]
		end := m[5]
		if end < len(text) && (text[end] == '/' || text[end] == ':' && strings.HasPrefix(text[end:], "://")) {
			continue // a longer path or a URL
		}
		if start := m[2]; start > 0 && (text[start-1] == '/' || text[start-1] == '.' || text[start-1] == '~') {
			continue
		}
		if s.notModelOrg(org) || !hasLetter(name) || isFileName(name) {
			continue
		}
		if end < len(text) && text[end] == ':' && !strings.HasPrefix(text[end:], ": ") {
			continue // an image reference: org/name:tag
		}
		if p, _ := s.image(org + "/" + name); p != nil || !modelShaped(org+"/"+name, s) {
			continue
		}
		add(org + "/" + name)
	}
}

// bareModels adds model names without an organisation written in
// sentences and titles.
func bareModels(doc *document, s *Schema, add func(string)) {
	// Bare names in sentences and titles: "The model is Qwen2.5-14B-Instruct".
	// Error messages name model types ("model type `qwen2_5_vl`"), not
	// the poster's model.
	var proseLines []string
	for _, l := range doc.prose {
		if !isErrorLine(l) && !strings.Contains(l, "Error: ") && !gitLogLineRE.MatchString(l) {
			proseLines = append(proseLines, l)
		}
	}
	prose := withoutRouterPrefix(strings.Join(proseLines, "\n"))
	if len(prose) > scanLimit {
		prose = prose[:scanLimit]
	}
	for _, t := range []string{doc.title, prose} {
		for _, m := range bareModelRE.FindAllStringSubmatchIndex(t, -1) {
			name := t[m[2]:m[3]]
			if m[2] > 0 && strings.ContainsRune("/\\.@=", rune(t[m[2]-1])) || m[3] < len(t) && t[m[3]] == '/' {
				continue // part of a path, URL, id or setting
			}
			if isModelName(name, s) {
				name = strings.TrimRight(name, ".-_")
				if !modelSizeRE.MatchString(name) && m[2]+len(name) == m[3] {
					name = t[m[2]:sizeSuffix(t, m[3], s)]
				}
				add(name)
			}
		}
		spacedFamilyModels(t, s, add)
	}
}

// spacedFamilyModels adds the models a title or a sentence names by
// family and generation with a space between them ("GLM 4.7 Tool Call
// issue", "DeepSeek V3.2 on B200 fails", "model: deepseek v3.2"), as
// written. The generation is read as an imported issue's title is
// (titleGeneration), so that the post and the entries it is ranked
// against name a model the same way. A size where the generation would
// stand names the model too ("gpt-oss 20b", "Mistral 7B", "I'm testing
// Llama 8B on 4 L40s GPUs" in vllm-dev C3-007, "codellama 70b don't stop
// generating" in corpus #2686). Forms without the space ("Qwen2.5", "Llama-3") are single
// words, which isModelName reads.
func spacedFamilyModels(t string, s *Schema, add func(string)) {
	if s == nil {
		return
	}
	// Lower-cased byte for byte, so that offsets in lower are offsets in
	// t: strings.ToLower changes the length of some letters ("İ").
	lower := lowerASCII(t)
	type span struct{ start, stop int }
	var found []span
	familyMentions(lower, s.vocabularyFamilies(), func(_ string, start, end int, gen string) {
		if end >= len(lower) || lower[end] != ' ' {
			return // no generation after a space
		}
		if gen == "" {
			// A lettered generation: "DeepSeek R1", "Kimi K2" (seven
			// corpus posts).
			gen = letteredGenRE.FindString(lower[end+1:])
		}
		if size := familySizeRE.FindString(lower[end+1:]); size != "" {
			// No generation but a size: "gpt-oss 20b", "Mistral 7B",
			// "Mixtral 8x7B".
			gen = size
		}
		if gen == "" {
			// A variant before the generation or the size, as Mistral
			// names its releases: "Mistral Small 3.1" (many projects'
			// notes and READMEs), "Mistral Large 2", "Mistral Small
			// 24B"; DeepSeek's "Coder V2".
			if m := variantGenRE.FindStringSubmatchIndex(lower[end+1:]); m != nil && variantWord(t[end+1+m[2]:end+1+m[3]], s) {
				gen = lower[end+1 : end+1+m[1]]
			}
		}
		if gen == "" {
			return
		}
		stop := end + 1 + len(gen)
		if stop < len(lower) && (isWordByte(lower[stop]) || lower[stop] == '.' && stop+1 < len(lower) && isWordByte(lower[stop+1])) {
			return // "qwen 2x faster", a longer word or number
		}
		found = append(found, span{start, stop})
	})
	// In the order the text names them: the first is the post's model.
	slices.SortFunc(found, func(a, b span) int { return a.start - b.start })
	for _, f := range found {
		add(t[f.start:sizeSuffix(t, f.stop, s)])
	}
}

// variantGenRE is a variant word then a generation or a size after a
// family and a space ("small 3.1", "large 2", "small 24b", "coder v2");
// variantWord judges the word.
var variantGenRE = regexp.MustCompile(`^([a-z][a-z0-9]{1,9}) (?:\d+(?:\.\d+)*(?:[bm]\b)?|[a-z]\d{1,2}(?:\.\d)?)`)

// familySizeRE is a model's parameter count written right after its
// family and a space, where a generation would stand: "20b" in "gpt-oss
// 20b", "7B" in "Mistral 7B", "8x7b" in "Mixtral 8x7b".
var familySizeRE = regexp.MustCompile(`^(?:\d+x)?\d+(?:\.\d+)?[bm]\b`)

// titleFamily adds a model family the title names alone, as a word, when
// nothing else in the post names a model: "[New Model]: Jamba", "Fused
// MOE for Mixtral", "pipeline-parallel not working properly with QwQ"
// (vllm#3690, #2542, #14406), "Added Command-R GPTQ support" (#3849).
func titleFamily(title string, s *Schema, add func(string)) {
	// The whole title: a model may be its tag ("[gpt-oss] tool parser
	// …", vllm#22386, #25694), and no template's tag is a family.
	t := title
	lower := lowerASCII(t)
	best, bestEnd := -1, -1
	familyMentions(lower, s.vocabularyFamilies(), func(fam string, start, end int, _ string) {
		if end < len(lower) && (isWordByte(lower[end]) || strings.IndexByte("._-/", lower[end]) >= 0) ||
			start > 0 && strings.IndexByte("-/.", lower[start-1]) >= 0 {
			return // part of a longer name: "llama.cpp", "Llama-cpp-python", "Meta-Llama-3.1-…"
		}
		// The longer of two families at one place: "GPT OSS" over "GPT".
		if best < 0 || start < best || start == best && end > bestEnd {
			best, bestEnd = start, end
		}
	})
	if best >= 0 {
		// With a "+" that names a release ("CommandR+", "Command R+")
		// and the size and variant written after it: "GPT OSS 120B".
		if bestEnd < len(t) && t[bestEnd] == '+' {
			bestEnd++
		}
		add(t[best:sizeSuffix(t, bestEnd, s)])
	}
}

// sizeSuffix returns where a model's name that ends at stop ends once the
// size and variant words written after it, each after a space, are read
// too: "Llama-3 70B" (OpenRLHF#336, vllm-dev C1-010), "Gemma 3 27B IT"
// (vllm#15825), "Jamba 1.6 Large" (vllm#19638), "Qwen3 30b a3b"
// (vllm#17739), "deepseek v2 lite" (vllm#15604, the DeepSeek-V2-Lite six
// more corpus posts write with dashes), "DeepSeek v3.2 Exp" (vllm#27259),
// "llama 4 scout instruct" (vllm#16136; "Llama4 Scout" in #16948 and
// #16509, Llama 4's two releases, Llama-4-Scout and Llama-4-Maverick).
// Up to four words, each a size or one of the vocabulary's variant
// words, in either order: a variant before the size too ("Qwen3 Coder
// 30B A3B", "Qwen2.5 VL 7B", as Qwen's releases are named:
// Qwen3-Coder-30B-A3B-Instruct). s may be nil: then sizes alone.
func sizeSuffix(t string, stop int, s *Schema) int {
	for range 4 {
		if m := nameSizeRE.FindStringSubmatchIndex(t[stop:]); m != nil {
			stop += m[3]
			continue
		}
		m := nameVariantRE.FindStringSubmatchIndex(t[stop:])
		if m == nil || !variantWord(t[stop+m[2]:stop+m[3]], s) {
			break
		}
		stop += m[3]
	}
	return stop
}

var (
	// nameSizeRE is a size after a space: 70B, 1.5b, 8x7B, a3b (active
	// parameters), 128E (experts).
	nameSizeRE = regexp.MustCompile(`^ ((?:\d+(?:\.\d+)?|\d+x\d+|[aA]\d+(?:\.\d+)?)[bBmM]|\d+[eE])(?:$|[^\w.-]|\.(?:\s|$))`)
	// nameVariantRE is a word after a space, which variantWord judges.
	nameVariantRE = regexp.MustCompile(`^ ([A-Za-z][A-Za-z0-9]{1,9})(?:$|[^\w.-]|\.(?:\s|$))`)
)

// variantWord reports whether a word after a model's name is part of it:
// a variant a release is named by, as the vocabulary lists it. A word in
// its Capitalised list (English too: "large", "it", "exp") counts only
// capitalised.
func variantWord(w string, s *Schema) bool {
	if s == nil {
		return false
	}
	same := func(v string) bool { return strings.EqualFold(v, w) }
	if slices.ContainsFunc(s.Vocabulary.ModelVariants.AnyCase, same) {
		return true
	}
	return w[0] >= 'A' && w[0] <= 'Z' && slices.ContainsFunc(s.Vocabulary.ModelVariants.Capitalised, same)
}

// letteredGenRE is a generation written as a letter and a number ("r1",
// "k2"), the form some families name their releases in.
var letteredGenRE = regexp.MustCompile(`^[a-z]\d{1,2}(?:\.\d)?`)

// lowerASCII lower-cases the ASCII letters of s and leaves every other
// byte as it is.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// routerPrefixRE is the provider prefix LiteLLM routes a request to a
// vLLM server by: "model: hosted_vllm/Qwen/Qwen3-Coder-30B-A3B-Instruct"
// in a proxy's config, 'model': 'hosted_vllm/q/Llama-3.3-70B' in a call
// (BerriAI/litellm#7744 and LiteLLM's documented configs, which many
// projects copy). What follows it is the model the server serves.
var routerPrefixRE = regexp.MustCompile(`\bhosted_vllm/`)

// withoutRouterPrefix returns text with LiteLLM's provider prefix left
// off the models it names.
func withoutRouterPrefix(text string) string {
	if !strings.Contains(text, "hosted_vllm/") {
		return text
	}
	return routerPrefixRE.ReplaceAllString(text, "")
}

var (
	loaderCallRE      = regexp.MustCompile(`\b(?:from_pretrained|pipeline|LLM)\(\s*['"]([^'"\s]{3,200})['"]`)
	loadErrorModelREs = []*regexp.Regexp{
		regexp.MustCompile(`Incorrect path_or_model_id: '([^'\s]{3,200})'`),
		regexp.MustCompile(`'([^'\s]{3,200})' is not a local folder and is not a valid model identifier`),
		regexp.MustCompile(`it looks like ([^\s'"]{3,200}) is not the path to a directory`),
		regexp.MustCompile(`Can't load (?:the )?(?:tokenizer|config|configuration|model) for '([^'\s]{3,200})'`),
	}
	// "model": "x" in an API request body or a logged argument dict.
	requestModelRE = regexp.MustCompile(`["'](?:model|pretrained)["']\s*:\s*["']([^"'\s]{2,200})["']`)
	// A model's page on Hugging Face, on its mirror hf-mirror.com, or on
	// ModelScope, where Chinese guides and posts link the weights they
	// serve ("[deepseek](https://modelscope.cn/models/deepseek-ai/
	// DeepSeek-V2-Lite-Chat/files)", vllm-dev C3-020; deployment guides'
	// "modelscope.cn/models/deepseek-ai/DeepSeek-R1", tutorials').
	hfURLRE       = regexp.MustCompile(`\b(?:huggingface\.co|hf-mirror\.com|modelscope\.cn/models)/(?:models/)?([A-Za-z0-9][\w.-]*/[\w.-]*[A-Za-z][\w.-]*)`)
	quotedIDRE    = regexp.MustCompile(`["']([A-Za-z0-9][\w.-]{1,60}/[\w.-]*[A-Za-z][\w.-]{0,100})["']`)
	versionOnlyRE = regexp.MustCompile(`^v?\d+(?:\.\d+)*$`)
	// A word that may be a bare model name; isModelName decides.
	// A name may follow Chinese, Japanese or Korean text without a
	// space, as those languages write it ("vllm部署Gemma-3-27b问题",
	// vllm#16378; "使用vllm0.7.3对Qwen2.5VL-7b有时会报错", vllm#19786).
	bareModelRE = regexp.MustCompile(`(?:^|[\s(\[,;:"'` + "`" + `\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}])([A-Za-z][\w.-]{2,80})`)
	// A model size or a quantisation: 7B, 1.5b, 128E, AWQ, GPTQ, Int4.
	modelSizeRE = regexp.MustCompile(`(?i)(?:^|[-_.])(?:\d+(?:\.\d+)?[bmk]|\d+x\d+b|awq|gptq|gguf|int[48]|fp8|nvfp4|instruct|chat)(?:$|[-_.])`)
	// Class names of model architectures are not model names.
	archClassRE = regexp.MustCompile(`For(?:CausalLM|ConditionalGeneration|SequenceClassification|MaskedLM)$|Model$|Config$|Tokenizer$`)
)

// mimeTypes are the first halves of media types, which are org/name
// shaped.
var mimeTypes = map[string]bool{"application": true, "text": true, "image": true, "audio": true, "video": true, "multipart": true, "font": true}

// quotedIDName reports whether a quoted org/name has a name that can only
// be an artifact's: letters with a number, not a bare version (apps/v1).
func quotedIDName(id string, s *Schema) bool {
	org, name, _ := strings.Cut(id, "/")
	return !s.notModelOrg(org) && len(name) >= 4 && hasLetter(name) &&
		strings.ContainsAny(name, "0123456789") && !versionOnlyRE.MatchString(name) && !isFileName(name)
}

// familyPrefix reports whether name starts with one of the schema's model
// family words followed by a number or a separator ("Qwen2.5", "gpt2",
// "Llama-3", "deepseek-vl2").
func familyPrefix(name string, s *Schema) bool {
	if s == nil {
		return false
	}
	lower := strings.ToLower(name)
	for _, f := range s.Vocabulary.ModelFamilies {
		f = strings.ToLower(f)
		if !strings.HasPrefix(lower, f) {
			continue
		}
		rest := lower[len(f):]
		if rest == "" {
			continue
		}
		if c := rest[0]; c >= '0' && c <= '9' || (c == '-' || c == '_' || c == '.') && len(rest) > 1 {
			return true
		}
	}
	return false
}

// isModelName reports whether a word written without an organisation is
// a model's name: it starts with a family word and holds a digit, or,
// whatever its family, one of its dash-separated parts is a parameter
// count ("Meta-Llama-3.1-70B-Instruct", "Voxtral-Small-24B-2507",
// "HY-MT1.5-1.8B", "fastchat-t5-3b-v1.0": vllm-project/vllm#7299,
// #22424, #31697, #223), as only model names are written.
func isModelName(name string, s *Schema) bool {
	// Model types and module names use underscores (qwen2_5_vl); model
	// names use dashes and dots.
	if len(name) < 4 || !strings.ContainsAny(name, "0123456789") || archClassRE.MatchString(name) || isFileName(name) ||
		strings.Contains(name, "_") && !strings.ContainsAny(name, "-.") {
		return false
	}
	return familyPrefix(name, s) || paramCountNameRE.MatchString(name) && !acceleratorName(name, s)
}

// acceleratorName reports whether each dash-separated part of name is a
// platform's name or a hardware word of the vocabulary: "npu-910b"
// (vllm-project/vllm-ascend#167's title), "Ascend-910B" (as Ascend's
// kernels and guides write the chip), whose "910B" has a parameter
// count's shape.
func acceleratorName(name string, s *Schema) bool {
	parts := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
	for _, p := range parts {
		if p != "gpu" && !slices.Contains(platformOrder[:], p) && !hardwareWord(p, s) {
			return false
		}
	}
	return len(parts) > 0
}

// hardwareWord reports whether a lower-case word is one of the
// vocabulary's hardware words ("ascend", "910b3" for "910B*").
func hardwareWord(w string, s *Schema) bool {
	if s == nil {
		return false
	}
	for _, words := range s.Vocabulary.Hardware {
		for _, h := range words {
			h = strings.ToLower(h)
			if stem, ok := strings.CutSuffix(h, "*"); ok && stem != "" && strings.HasPrefix(w, stem) || h == w {
				return true
			}
		}
	}
	return false
}

// paramCountNameRE is a name whose dash-separated parts, after a first
// that starts with a letter, include a parameter count ("70B", "1.8B").
var paramCountNameRE = regexp.MustCompile(`(?i)^[a-z][\w.]*(?:-[\w.]+)*-\d+(?:\.\d+)?b(?:-[\w.]+)*$`)

// modelShaped reports whether an org/name id looks like a model rather
// than a MIME type, an API path, a ratio or a pair of words.
func modelShaped(id string, s *Schema) bool {
	_, name, _ := strings.Cut(id, "/")
	if strings.Contains(name, "/") || len(name) < 2 {
		return false
	}
	lower := strings.ToLower(name)
	for _, f := range s.vocabularyFamilies() {
		if strings.Contains(lower, f) {
			return true
		}
	}
	return modelSizeRE.MatchString(name)
}

// vocabularyFamilies returns the schema's model family words, lower case.
func (s *Schema) vocabularyFamilies() []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.Vocabulary.ModelFamilies))
	for i, f := range s.Vocabulary.ModelFamilies {
		out[i] = strings.ToLower(f)
	}
	return out
}

// modelKwargRE is a keyword argument that names the model a call loads:
// model=, model_name=, base_model_path=, lm-eval's pretrained=, and Ray's
// LLM configs' model_source= (Ray Serve LLM's model_loading_config,
// ray-project/ray#53907 and #64466; Ray Data's vLLMEngineProcessorConfig,
// ray#54263), where the engine's own settings go in engine_kwargs.
var modelKwargRE = regexp.MustCompile(`\b(?:[a-z]+_)?model(?:_name|_id|_path|_name_or_path|_source)?\s*=\s*['"]([^'"\s]{3,200})['"]|\bpretrained=([^,'"\s]{3,200})`)

// looksLikePath reports whether s is a local model path (a directory or a
// weights file), which is how many posts name their model.
func looksLikePath(s string) bool {
	return (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "~/")) &&
		strings.Count(s, "/") >= 2 && !isFileName(s) && !isProgramPath(s) || isWeightsFile(s)
}

// positionalModelDir reports whether s is a one-level directory that
// is the model only in the program's model position; elsewhere in a post
// such a word is anything from an API path or a mount point to a script
// or a build directory. Two kinds: a top-level directory ("/model",
// "/models/"), where containers mount a model (vllm-project/vllm#15332's
// "vllm serve /model", #7074's "--model /models"), and a directory
// beside the shell ("./GLM-4.1V-9B-Thinking", zai-org/GLM-V#204;
// "./Qwen3_models", a corpus issue), as downloads with --local-dir leave
// them and many READMEs serve them.
func positionalModelDir(s string) bool {
	return oneLevelDirRE.MatchString(s) && !isFileName(s)
}

var oneLevelDirRE = regexp.MustCompile(`^(?:/[A-Za-z]|\./[A-Za-z0-9])[\w.-]*/?$`)

// isProgramPath reports whether a path is an installed program or
// package rather than a model directory: "/opt/vllm-env/bin/python" run
// by docker exec (docker/model-runner#1018), ".../site-packages/vllm".
func isProgramPath(s string) bool {
	s = strings.TrimSuffix(s, "/")
	return strings.Contains(s, "/bin/") || strings.HasSuffix(s, "/bin") ||
		strings.Contains(s, "/site-packages/") || strings.Contains(s, "/dist-packages/")
}

func looksLikeModel(s string) bool {
	org, name, ok := strings.Cut(s, "/")
	return ok && org != "" && name != "" && !strings.Contains(name, "/") && !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "~")
}

// isPlaceholder reports whether s is a placeholder in angle brackets and
// nothing more: "<model>", "<s3://bucket/prefix>".
func isPlaceholder(s string) bool {
	return len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' && !strings.ContainsAny(s[1:len(s)-1], "<>")
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// isFileName reports whether s names a file rather than a model: a
// script, template, configuration or log file, or a weights file given
// by its path (which looksLikePath reads as a model in its own right).
func isFileName(s string) bool {
	if isWeightsFile(s) {
		return strings.Contains(s, "/")
	}
	return isCodeFile(s)
}

// isCodeFile reports whether s is a script, template, configuration or
// log file, which is never a model.
func isCodeFile(s string) bool {
	lower := strings.ToLower(s)
	for _, ext := range []string{".py", ".json", ".jinja", ".yaml", ".yml", ".txt", ".sh", ".so", ".md", ".html", ".cpp", ".cu", ".h", ".log"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// isWeightsFile reports whether s is a single-file checkpoint (GGUF).
func isWeightsFile(s string) bool { return strings.HasSuffix(strings.ToLower(s), ".gguf") }

var intentRE = regexp.MustCompile(`(?i)\b(?:i(?:'m| am) trying to|i want to|i(?:'m| am) attempting to|i need to|how (?:do|can) i|i(?:'d| would) like to|i(?:'m| am) (?:running|deploying|serving|using))\b(?:[^.!?\n]|[.!?]\S)*`)

// extractIntent returns the first sentence in the prose that states what
// the poster is trying to do. The sentence runs to a stop followed by a
// space or the line's end: the dots of "Qwen2.5", "GLM-4.7" or "0.8.5"
// do not end it.
func extractIntent(doc *document) string {
	for _, l := range doc.prose {
		if m := intentRE.FindString(l); m != "" {
			m = strings.TrimSpace(m)
			return cutRunes(m, 160)
		}
	}
	return ""
}

// firstMatch returns the first group of re in the first of lines it
// matches, or "".
func firstMatch(re *regexp.Regexp, lines []string) string {
	for _, l := range lines {
		if m := re.FindStringSubmatch(l); m != nil {
			return m[1]
		}
	}
	return ""
}

// isErrorLine reports whether a line is an exception line, whose versions
// and hardware names describe requirements rather than the poster's setup.
func isErrorLine(l string) bool {
	t := strings.TrimSpace(logPrefixRE.ReplaceAllString(l, ""))
	return pyExcRE.MatchString(t)
}

// containsAny reports whether s contains any of the needles.
func containsAny(s string, needles []string) bool {
	for _, n := range needles {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// notModelOrg reports whether org is a path component, URL part or host,
// or one of the pack's own organisations, rather than a model's.
func (s *Schema) notModelOrg(org string) bool {
	org = strings.ToLower(org)
	if notModelOrgs[org] {
		return true
	}
	return s != nil && slices.ContainsFunc(s.Vocabulary.Orgs, func(o string) bool { return strings.EqualFold(o, org) })
}
