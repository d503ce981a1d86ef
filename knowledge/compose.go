package knowledge

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ComposeOptions shape a reply.
type ComposeOptions struct {
	// BotName is the bot's forum username, named in the follow-up hint.
	BotName string
	// MaxChars is the hard cap of a reply; the parts after the diagnosis
	// are shortened, then dropped, to fit.
	MaxChars int
}

// DefaultMaxReplyChars is the hard cap of a reply. Replies are written to
// run under about 1,200 characters (a diagnosis, the numbers, three things
// to try, the other sources); the cap is for the rare post whose figures
// and sources run long.
const DefaultMaxReplyChars = 1600

// maxAdvice bounds "What to try".
const maxAdvice = 3

// Compose writes the Markdown reply for a post: what Herald sees and the
// likely cause in plain words first (linking the best source), the
// numbers worked from the post's own figures, what to try, the other
// sources (each source is linked once), and the follow-up hint. Internal
// scoring (match percentages, reasons, topic tags) stays on the admin
// page. Every string that did not come from Herald's templates or a
// curated pack is made inert (see inert and code). It is deterministic:
// the same facts and matches give the same bytes.
func Compose(f *Facts, cited []Match, opts ComposeOptions) string {
	if opts.MaxChars <= 0 {
		opts.MaxChars = DefaultMaxReplyChars
	}
	head := diagnosis(f, cited)
	numbers := workedNumbers(f, cited)
	if check := servedNameCheck(f); check != "" {
		numbers = strings.TrimSpace(numbers + "\n\n" + check)
	}
	advice := adviceFor(f, cited)
	others := cited
	if len(others) > 0 {
		others = others[1:]
	}
	footer := Footer(opts.BotName)
	render := func(numbers string, advice []string, others []Match) string {
		parts := []string{head}
		if numbers != "" {
			parts = append(parts, numbers)
		}
		if len(advice) > 0 {
			var b strings.Builder
			b.WriteString("**What to try:**")
			for i, a := range advice {
				fmt.Fprintf(&b, "\n%d. %s", i+1, a)
			}
			parts = append(parts, b.String())
		}
		if len(others) > 0 {
			links := make([]string, len(others))
			for i, m := range others {
				links[i] = entryLink(m.Entry, true)
			}
			parts = append(parts, "**See also:** "+strings.Join(links, " · "))
		}
		return strings.Join(parts, "\n\n") + "\n\n" + footer + "\n"
	}
	// Fit the cap: drop other sources, then the numbers, then advice;
	// never the diagnosis or the footer.
	for {
		out := render(numbers, advice, others)
		switch {
		case len(out) <= opts.MaxChars:
			return out
		case len(others) > 0:
			others = others[:len(others)-1]
		case numbers != "":
			numbers = ""
		case len(advice) > 0:
			advice = advice[:len(advice)-1]
		default:
			return truncate(out, opts.MaxChars-len("…"))
		}
	}
}

// Footer is the last line of every reply: who wrote it and how to ask for
// a follow-up (the bot's name in a code span, so it mentions nobody).
func Footer(botName string) string {
	bot := sanitizeName(botName)
	if bot == "" {
		bot = "herald"
	}
	return fmt.Sprintf("---\n<sub>I'm Herald, an automated helper, and I can be wrong. Reply mentioning `@%s` for a follow-up, e.g. with the full log or what you tried.</sub>", bot)
}

// LinkText escapes untrusted text for the inside of a Markdown link.
func LinkText(s string) string { return linkText(s) }

// Code renders untrusted text as one safe inline code span (see code).
func Code(s string) string { return code(s) }

// Inert makes untrusted text safe for a reply's prose (see inert).
func Inert(s string) string { return inert(s) }

// diagnosis says in one or two sentences what Herald sees and the likely
// cause, linking the best source.
func diagnosis(f *Facts, cited []Match) string {
	var b strings.Builder
	subject := "Your setup"
	if what := whatFailed(f); what != "" {
		subject = code(what)
		if len(f.Models) > 0 {
			subject += " with " + code(modelShown(f.Models[0]))
		}
	} else if len(f.Models) > 0 {
		subject = "Serving " + code(modelShown(f.Models[0]))
	}
	b.WriteString(subject)
	var env []string
	if v := f.Versions[f.Package.Name]; f.Package.Name != "" && v != "" {
		env = append(env, f.Package.String()+" "+code(v))
	}
	if f.Platform != "" {
		env = append(env, platformName(f.Platform))
	}
	if len(env) > 0 {
		b.WriteString(" (" + strings.Join(env, ", ") + ")")
	}
	if len(f.Errors) > 0 {
		b.WriteString(" " + errorPhrase(f.Errors[0]) + ".")
	} else {
		b.WriteString(" does not behave as expected.")
	}
	if len(cited) > 0 {
		top := cited[0].Entry
		lead := leadSentence(top.Summary)
		cause := entryProse(top, lead)
		long := false
		if cause == "" {
			// A report with no summary says what it is about in its
			// title, which the link then carries; nobody has said what
			// caused it, so the reply does not call it the cause.
			cause, long = "its thread may say what fixed it.", true
		}
		// A docs page says how the thing works, not what went wrong.
		label := "Likely cause"
		switch {
		case top.Kind == KindDocs:
			label = "From the docs"
		case long:
			label = "Similar report"
		case len(f.Models) > 0 && cited[0].Evidence[fModel] == 0 && namesOwnModel(top, lead):
			label = "Seen with another model"
		}
		fmt.Fprintf(&b, " **%s** (%s): %s", label, entryLink(top, long), cause)
	}
	return b.String()
}

// namesOwnModel reports whether the text a reply quotes from an entry (as
// written, before it is made inert) names a model family of the entry's
// own. Cited for a post about another model, such a report is a lead
// rather than the cause, and the reply says so before its text names a
// model the asker does not run (DeepSeek-V3.2's chat-template issue cited
// for Vicuna, Seed-X and Mistral posts: vllm-dev C2-006, C2-005, B024).
// Text that names no model (a rejected tool choice, a multimodal limit)
// applies as written.
func namesOwnModel(e Entry, text string) bool {
	fold := func(s string) string {
		return strings.NewReplacer("-", "", " ", "", "_", "").Replace(strings.ToLower(s))
	}
	text = fold(text)
	for _, fam := range e.Models {
		if fam = fold(fam); fam != "" && strings.Contains(text, fam) {
			return true
		}
	}
	return false
}

// leadSentence returns the first sentence of an entry's text, its
// whitespace folded: what a reply quotes of it.
func leadSentence(text string) string {
	return firstSentence(strings.Join(strings.Fields(text), " "))
}

// entryProse makes text an entry wrote fit for a reply: a curated pack's
// own Markdown as written (mentions and HTML neutralised), anything else
// made inert.
func entryProse(e Entry, text string) string {
	if e.Trusted() {
		return safeProse(truncate(text, 420))
	}
	return inert(truncate(text, 300))
}

// modelShownMax is how long a model's local path may be before the reply
// names it by its last two elements: a reader knows their own path, and
// a code span cut at its end (code's bound, 120) would misquote it. At 60,
// 6 of the 54 local paths the corpus' issues serve are shortened; hub ids
// (one slash, the longest 63 characters) are never.
const modelShownMax = 60

// modelShown is the model as the opening sentence names it: as written,
// or a long local path by its last two elements ("…/qwen2.5-3b-ndp-402-
// wtemplate/checkpoint-14676" for vllm-dev C3-002's 119-character
// checkpoint path; B044's and C2-010's data directories).
func modelShown(m string) string {
	if utf8.RuneCountInString(m) <= modelShownMax {
		return m
	}
	parts := strings.Split(strings.TrimRight(m, "/"), "/")
	if len(parts) < 3 {
		return m
	}
	tail := strings.Join(parts[len(parts)-2:], "/")
	if utf8.RuneCountInString(tail) > modelShownMax {
		return m
	}
	return "…/" + tail
}

// errorPhrase says how a post fails in words: the exception class Python
// printed, or, for an error printed without one, what kind it is (never
// Herald's internal category names).
func errorPhrase(e ErrorInfo) string {
	switch e.Type {
	case "nccl-timeout":
		return "times out in an NCCL collective"
	case "nccl-error":
		return "fails with an NCCL error"
	case "cuda-error":
		return "fails with a CUDA error"
	case "hip-error":
		return "fails with a HIP error"
	case "ptxas-error":
		return "fails to assemble a GPU kernel (ptxas)"
	case "signal":
		return "crashes (" + code(e.Message) + ")"
	case "panic", "rust-panic":
		return "panics"
	case "command-not-found":
		return "cannot find the command " + code(e.Message)
	case "fatal-python-error":
		// Its message is a signal's or a short cause ("Bus error",
		// "Segmentation fault", "Aborted"), which says how it died.
		if m := strings.TrimSpace(e.Message); m != "" && len(m) <= 40 {
			return "dies with a fatal Python error (" + code(m) + ")"
		}
		return "dies with a fatal Python error"
	case "usage-error":
		return "refuses its command line (" + code(e.Message) + ")"
	case "api-error":
		// The server's error object relayed by a client without its
		// class (vllm-dev C2-003's Home Assistant log).
		return "gets an error back from the server (" + code(e.Message) + ")"
	case "docker-error":
		return "cannot start its container (" + code(e.Message) + ")"
	case "pip-error":
		return "fails to install (" + code(e.Message) + ")"
	}
	return "fails with " + code(e.Type)
}

// whatFailed names the command the reply says failed, as the post ran
// it, or returns "" when the post ran none that can have.
//
// The main package's own command (a command line or an API call), the one
// with the most settings, comes first, as Facts.MainCommand prefers it: an
// issue template's "python collect_env.py" or a helper script named before
// it is not what failed. Else a command that runs the package without
// being its program: a script run by an interpreter or launcher, named
// with its script ("`python3 api_server.py`", "`bash
// scripts/run_for_7B.sh`": "`python3` fails" says nothing, vllm-dev C1-009
// and B005), or a tool handed the package as an option's value
// (`lm_eval --model vllm`, read as the engine the harness runs). A tool
// the post ran on the side (`git log` to show the commit it built, vllm-dev C1-014; `conda create`; `docker
// build`; a pasted diff) is not named: "`git` fails with `ValueError`"
// would blame it.
func whatFailed(f *Facts) string {
	if best := packageCommand(f); best != nil {
		what := best.Program
		if best.Subcommand != "" {
			what += " " + best.Subcommand
		}
		switch {
		case best.api && best.Via != "":
			what = strings.TrimPrefix(best.Via, "python ") // LLM(), not a server
		case best.harness || best.tool:
			what = best.Via // `lm_eval`, `trl vllm-serve`, as the post ran it
		}
		return what
	}
	for i := range f.Commands {
		c := &f.Commands[i]
		if script := scriptArg(c); script != "" {
			return c.Program + " " + script
		}
	}
	for i := range f.Commands {
		c := &f.Commands[i]
		if f.Package.Name != "" && runsPackage(c, f.Package.Name) {
			return c.Program
		}
	}
	return ""
}

// packageCommand returns the main package's own command with the most
// settings (a command line or an API call), or nil.
func packageCommand(f *Facts) *Command {
	var best *Command
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Program == f.Package.Name && f.Package.Name != "" && (best == nil || len(c.Flags) > len(best.Flags)) {
			best = c
		}
	}
	return best
}

// scriptArg returns the script a command runs: its first argument when
// that is a Python or shell file.
func scriptArg(c *Command) string {
	if len(c.Args) == 0 {
		return ""
	}
	switch a := c.Args[0]; path.Ext(a) {
	case ".py", ".sh":
		return a
	}
	return ""
}

// runsPackage reports whether a command is handed the package by name as
// a long option's value (`lm_eval --model vllm`, `--backend vllm`). As an
// argument the package is installed, not run (`pip install vllm`), and
// which short options take a value is not known (`pip install -vvv
// vllm`, vllm-dev C2-021).
func runsPackage(c *Command, pkg string) bool {
	for k, v := range c.Flags {
		if strings.HasPrefix(k, "--") && strings.EqualFold(v, pkg) {
			return true
		}
	}
	return false
}

func platformName(p string) string {
	switch p {
	case "rocm":
		return "AMD ROCm"
	case "cuda":
		return "NVIDIA CUDA"
	case "cpu":
		return "CPU"
	case "tpu":
		return "TPU"
	case "xpu":
		return "Intel XPU"
	case "hpu":
		return "Intel Gaudi (HPU)"
	case "neuron":
		return "AWS Neuron"
	case "npu":
		return "Ascend NPU"
	}
	return p
}

// workedNumbers does the arithmetic the post's own figures allow.
func workedNumbers(f *Facts, cited []Match) string {
	var lines []string
	oom := oomNumbers(f)
	mem := f.Package.Memory
	util := utilization(f)
	if total, ok := oom["oom_total_gib"]; ok {
		alloc, hasAlloc := oom["oom_allocated_gib"]
		if util > 0 {
			budget := util * total
			line := fmt.Sprintf("%s budgets about %s GiB (%s × %s GiB) for this instance",
				setting(f, mem.Utilization, fmtNum(util)), fmtNum(budget), fmtNum(util), fmtNum(total))
			if hasAlloc {
				line += fmt.Sprintf(", yet PyTorch held %s GiB: the setting guides %s planning, it does not cap memory.", fmtNum(alloc), possessive(f.Package))
			} else {
				line += "."
			}
			lines = append(lines, line)
		}
		if tried, ok := oom["oom_tried_gib"]; ok {
			lines = append(lines, fmt.Sprintf("The failing request was %s with %s free.", fmtMemory(tried), fmtMemory(oom["oom_free_gib"])))
		}
		if off, ok := f.Flag(mem.OffloadGiB); ok && mem.OffloadGiB != "" {
			if gb, err := strconv.ParseFloat(off, 64); err == nil && hasAlloc && gb >= alloc {
				lines = append(lines, fmt.Sprintf("With %s, %s GiB still sat on the GPU: offload did not take effect, or the memory went to activations, the KV cache or CUDA graphs.", setting(f, mem.OffloadGiB, fmtNum(gb)), fmtNum(alloc)))
			}
		}
	}
	if seq, ok := oom["max_seq_len"]; ok {
		kv := oom["kv_tokens"]
		line := fmt.Sprintf("The model's context (%s tokens) needs more KV cache than fits (%s tokens)", fmtNum(seq), fmtNum(kv))
		if mem.ContextLength != "" {
			line += fmt.Sprintf(": %s or lower would start", setting(f, mem.ContextLength, fmtNum(kv)))
		}
		lines = append(lines, line+".")
	}
	if w := weightsLine(f, oom, util); w != "" {
		lines = append(lines, w)
	}
	if len(lines) == 0 {
		return ""
	}
	return "**From your numbers:** " + strings.Join(lines, " ")
}

var (
	// paramCountRE finds a model's parameter count in its name:
	// "Qwen2.5-7B-Instruct", "gemma-3-27b-it", "DeepSeek-R1-Distill-Qwen-1.5B",
	// "opt-125m", and the total of a mixture of experts ("Qwen3-30B-A3B":
	// the active "A3B" follows a letter, as "8x7B" follows an x, and
	// neither is read).
	paramCountRE = regexp.MustCompile(`(?i)(?:^|[-_ .])(\d+(?:\.\d+)?)([bm])(?:$|[-_ .])`)
	// fourBitRE and eightBitRE name weights stored in four or eight bits:
	// quantization methods and checkpoint suffixes ("-AWQ", "-GPTQ-Int4",
	// "bnb-4bit", "Q4_K_M", "-FP8", "W8A8"). Another width ("Q5_K_M",
	// "3bit", "exl2") or method says nothing this reads.
	fourBitRE  = regexp.MustCompile(`(?i)(?:^|[-_ .])(?:awq(?:_marlin)?|gptq(?:_marlin)?|int4|4bit|4-bit|w4a16|nf4|bnb|bitsandbytes|q4(?:_[a-z0-9]+)*)(?:$|[-_ .])`)
	eightBitRE = regexp.MustCompile(`(?i)(?:^|[-_ .])(?:fp8|int8|8bit|8-bit|w8a8|w8a16|q8(?:_0)?)(?:$|[-_ .])`)
	otherBitRE = regexp.MustCompile(`(?i)(?:^|[-_ .])(?:q[2356](?:_[a-z0-9]+)*|[23]bit|exl2|gguf|fp4|nvfp4|mxfp4|int2|int3)(?:$|[-_ .])`)
)

// dtypeBytes are the bytes of one weight in each number format a dtype
// option names: the formats' own widths, not tuned numbers. "auto" loads
// a 16-bit checkpoint as it is and a 32-bit one in 16 bits.
var dtypeBytes = map[string]float64{
	"auto": 2, "half": 2, "float16": 2, "fp16": 2, "bfloat16": 2, "bf16": 2,
	"float": 4, "float32": 4, "fp32": 4,
}

// weightsLine works out what the weights of the post's model take on
// each GPU, from the size its name states, the width its dtype or
// quantization stores a weight in and the GPUs the split options spread
// it over, and sets it against the memory the post's numbers give (the
// card's total from an out-of-memory error or its name, and the share
// the utilization option plans for): "Qwen2-7B-Instruct has about 7
// billion parameters; in float32 its weights alone take about 26.08 GiB,
// more than the 21.67 GiB card" (vllm#2140, which ran `--dtype=float`).
// It says nothing when a fact is missing or the format is unknown, when
// weights are offloaded to CPU memory, and for a post not about memory.
func weightsLine(f *Facts, oom map[string]float64, util float64) string {
	mem := f.Package.Memory
	if len(f.Models) == 0 || !aboutMemory(f) {
		return ""
	}
	if _, ok := f.Flag(mem.OffloadGiB); ok && mem.OffloadGiB != "" {
		return "" // weights kept in CPU memory: the offload line speaks of them
	}
	name := path.Base(f.Models[0])
	m := paramCountRE.FindStringSubmatch(name)
	if m == nil {
		return ""
	}
	params, err := strconv.ParseFloat(m[1], 64)
	if err != nil || params <= 0 {
		return ""
	}
	if strings.EqualFold(m[2], "m") {
		params /= 1000
	}
	quant := name
	if q, ok := f.Flag(mem.Quantization); ok && mem.Quantization != "" {
		quant = q
	}
	bytes, how := 2.0, ""
	switch {
	case otherBitRE.MatchString(quant):
		return ""
	case fourBitRE.MatchString(quant):
		bytes, how = 0.5, " (4-bit)"
	case eightBitRE.MatchString(quant):
		bytes, how = 1, " (8-bit)"
	default:
		if d, ok := f.Flag(mem.DType); ok && mem.DType != "" {
			b, known := dtypeBytes[strings.ToLower(d)]
			if !known {
				return ""
			}
			bytes, how = b, " ("+setting(f, mem.DType, d)+")"
		}
	}
	gpus := 1.0
	for _, fl := range mem.Split {
		if v, ok := f.Flag(fl); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return ""
			}
			gpus *= float64(n)
		}
	}
	total, stated := oom["oom_total_gib"]
	if !stated && len(f.GPUs) > 0 {
		total = f.GPUs[0].MemoryGiB
	}
	if total <= 0 {
		return ""
	}
	weights := params * 1e9 * bytes / (1 << 30) / gpus
	line := fmt.Sprintf("%s has about %s billion parameters; at %s a weight%s they alone take about %s GiB",
		code(name), fmtNum(params), weightBytes(bytes), how, fmtNum(weights))
	if gpus > 1 {
		line += fmt.Sprintf(" on each of %s GPUs", fmtNum(gpus))
	}
	budget := util * total
	switch {
	case weights >= total:
		return line + fmt.Sprintf(", more than the %s GiB card", fmtNum(total)) + cannotFit(f, bytes)
	case util > 0 && stated && weights >= budget:
		return line + ", more than that budget."
	case util > 0 && stated:
		return line + " of that budget; the rest holds activations, CUDA graphs and the KV cache."
	case util > 0 && weights >= budget:
		return line + fmt.Sprintf(", more than the %s GiB %s plans for on the %s GiB card.", fmtNum(budget), setting(f, mem.Utilization, fmtNum(util)), fmtNum(total))
	case util > 0:
		return line + fmt.Sprintf(" of the %s GiB %s plans for on the %s GiB card; the rest holds activations, CUDA graphs and the KV cache.", fmtNum(budget), setting(f, mem.Utilization, fmtNum(util)), fmtNum(total))
	}
	return line + fmt.Sprintf(" of the %s GiB card.", fmtNum(total))
}

// cannotFit ends a weights line whose weights alone outgrow the card:
// no setting of the memory share or the cache helps then, only the ways
// the package has to hold fewer bytes on each card: 16-bit weights for
// wider ones (the dtype flag's auto loads a 32-bit checkpoint at 16
// bits), the pack's split and offload flags, or a checkpoint quantized to
// fewer bits, unless it is 4-bit already.
func cannotFit(f *Facts, bytes float64) string {
	mem := f.Package.Memory
	var ways []string
	if bytes > 2 && mem.DType != "" {
		ways = append(ways, "load it at 16 bits ("+setting(f, mem.DType, "auto")+")")
	}
	if len(mem.Split) > 0 {
		ways = append(ways, "split it over more GPUs ("+setting(f, mem.Split[0], "")+")")
	}
	if mem.OffloadGiB != "" {
		ways = append(ways, "keep part of it in CPU memory ("+setting(f, mem.OffloadGiB, "")+")")
	}
	if bytes > 0.5 {
		ways = append(ways, "serve a checkpoint quantized to fewer bits")
	}
	switch len(ways) {
	case 0:
		return "."
	case 1:
		return ", so it cannot load this way: " + ways[0] + "."
	}
	return ", so it cannot load this way: " + strings.Join(ways[:len(ways)-1], ", ") + " or " + ways[len(ways)-1] + "."
}

// setting writes one of the package's settings, with its value when it
// has one, as the post sets them: a flag on a command line
// ("--max-model-len 52000"), or a keyword where the post starts the
// engine from Python (`LLM(max_model_len=…)`) or an evaluation harness
// passes it on (`lm_eval --model_args max_model_len=…`), as offline
// inference and evaluation posts do: they have no command line to put a
// flag on.
func setting(f *Facts, flag, value string) string {
	if c := packageCommand(f); c != nil && (c.api || c.harness) {
		name := pythonName(flag)
		if value == "" {
			return code(name)
		}
		return code(name + "=" + value)
	}
	if value == "" {
		return code(flag)
	}
	return code(flag + " " + value)
}

// servedNameCheck sets the model a request asked for, which the server
// said it does not serve, against what the post's server command answers
// to: its served names (--served-model-name, a LoRA module's name), or
// the model it was started with. A client asking for the checkpoint's
// path or id while the server was started with another name is the most
// common cause of that 404 (vllm#3485; dify, open-webui, LiteLLM and NIM
// posts found with the search tool). It says nothing without a server
// command, or when the name asked for is one the server answers to.
func servedNameCheck(f *Facts) string {
	cmd := packageCommand(f)
	if f.RequestedModel == "" || cmd == nil || len(f.Package.ServedNames) == 0 {
		return ""
	}
	var served []string
	for _, fl := range f.Package.ServedNames {
		if v, ok := cmd.Flags[fl]; ok && v != "" {
			served = append(served, servedName(v))
		}
	}
	if len(served) > 0 {
		if slices.Contains(served, f.RequestedModel) {
			return ""
		}
		names := make([]string, len(served))
		for i, n := range served {
			names[i] = code(n)
		}
		return fmt.Sprintf("**From your command:** the request asked for %s, but the server answers to %s: ask for that name.",
			code(f.RequestedModel), strings.Join(names, " or "))
	}
	model := ""
	if len(cmd.Args) > 0 {
		model = cmd.Args[0]
	} else if len(f.Models) > 0 {
		model = f.Models[0]
	}
	if model == "" || model == f.RequestedModel {
		return ""
	}
	return fmt.Sprintf("**From your command:** the request asked for %s, but the server was started with %s and answers to that name unless `%s` gives it another.",
		code(f.RequestedModel), code(model), f.Package.ServedNames[0])
}

// servedName is the name a served-name option's value gives: the value,
// a LoRA module's name before "=", or its JSON form's "name".
func servedName(v string) string {
	if strings.HasPrefix(v, "{") {
		var m struct {
			Name string `json:"name"`
		}
		if json.Unmarshal([]byte(v), &m) == nil && m.Name != "" {
			return m.Name
		}
		return v
	}
	name, _, _ := strings.Cut(v, "=")
	return name
}

// oomNumbers returns the figures of the first error that has any
// (errorNumbers), or nil.
func oomNumbers(f *Facts) map[string]float64 {
	for _, e := range f.Errors {
		if e.Numbers != nil {
			return e.Numbers
		}
	}
	return nil
}

// utilization returns the share of the device the post's utilization
// option plans for, or -1 when it sets none.
func utilization(f *Facts) float64 {
	mem := f.Package.Memory
	if v, ok := f.Flag(mem.Utilization); ok && mem.Utilization != "" {
		if u, err := strconv.ParseFloat(v, 64); err == nil && u > 0 && u <= 1 {
			return u
		}
	}
	return -1
}

// weightBytes writes the bytes of one weight: "2 bytes", "half a byte".
func weightBytes(b float64) string {
	switch b {
	case 0.5:
		return "half a byte"
	case 1:
		return "1 byte"
	}
	return fmtNum(b) + " bytes"
}

// aboutMemory reports whether the post failed for lack of memory: an
// out-of-memory error, or a KV cache too small for the model's context.
// A request longer than the context ("maximum context length is …",
// whose figures errorNumbers reads too) is not.
func aboutMemory(f *Facts) bool {
	for _, e := range f.Errors {
		if _, kv := e.Numbers["kv_tokens"]; e.Kind == "oom" || kv {
			return true
		}
	}
	return false
}

// adviceFor collects what to try from the cited entries, best entry
// first: deduplicated, without advice that does not apply to the post's
// version or platform (see adviceApplies), at most maxAdvice items.
//
// Two lines are the same advice when their words are, or when they come
// from different entries and name the same options: an issue's "Restart
// the server with `--enable-auto-tool-choice --tool-call-parser
// <parser>`" and the tool-calling page's "Start the server with both
// `--enable-auto-tool-choice` and the `--tool-call-parser` listed for
// your model family" tell the poster one thing twice. The better
// entry's line stays. Lines of one entry are its author's choice and
// all stay.
func adviceFor(f *Facts, cited []Match) []string {
	cmd := packageCommand(f)
	var items []string
	seen := map[string]bool{}
	optionsFrom := map[string]string{} // adviceOptions key → the entry that said it
	for _, m := range cited {
		for _, a := range m.Entry.Advice {
			cond, text := splitAdviceCondition(strings.TrimSpace(a))
			key := strings.ToLower(strings.Join(strings.Fields(text), " "))
			if text == "" || seen[key] || !adviceApplies(f, cmd, cond, text) {
				continue
			}
			opts := adviceOptions(text)
			if by, ok := optionsFrom[opts]; ok && by != m.Entry.ID {
				continue
			}
			seen[key] = true
			if opts != "" {
				optionsFrom[opts] = m.Entry.ID
			}
			if m.Entry.Trusted() {
				items = append(items, safeProse(text))
			} else {
				items = append(items, inert(truncate(text, 200)))
			}
			if len(items) == maxAdvice {
				return items
			}
		}
	}
	return items
}

// adviceOptions is the sorted set of options an advice line names in its
// code spans (adviceOptionWords, without their values), one string; ""
// when it names none.
func adviceOptions(text string) string {
	var opts []string
	for _, w := range adviceOptionWords(text) {
		if k, _, _ := strings.Cut(w, "="); len(k) > 2 {
			opts = append(opts, normFlag(k))
		}
	}
	slices.Sort(opts)
	return strings.Join(slices.Compact(opts), " ")
}

// adviceOptionWords returns the words of an advice line's code spans that
// are options, as written ("--tool-call-parser", "--shm-size=16g"): they
// start with "--" and are no negative number.
func adviceOptionWords(text string) []string {
	var out []string
	for _, span := range adviceFlagRE.FindAllString(text, -1) {
		for _, w := range strings.Fields(strings.Trim(span, "`")) {
			if strings.HasPrefix(w, "--") && !isNumber(w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// adviceCondRE matches the condition a pack may put before an advice
// line: "{vllm <0.29.0} ...", "{platform rocm} ...", "{vllm >=0.10, <0.12;
// platform cuda} ...", "{unset --enforce-eager} ...".
var adviceCondRE = regexp.MustCompile(`^\{([^{}]{1,120})\}\s*`)

func splitAdviceCondition(a string) (cond, text string) {
	if m := adviceCondRE.FindStringSubmatch(a); m != nil {
		return m[1], strings.TrimSpace(a[len(m[0]):])
	}
	return "", a
}

// adviceConditions splits an advice line's condition into its parts,
// each a key and its value: "vllm <0.9; platform rocm" is (vllm, <0.9)
// and (platform, rocm).
func adviceConditions(cond string) [][2]string {
	if cond == "" {
		return nil
	}
	var out [][2]string
	for _, part := range strings.Split(cond, ";") {
		key, val, _ := strings.Cut(strings.TrimSpace(part), " ")
		out = append(out, [2]string{key, strings.TrimSpace(val)})
	}
	return out
}

// checkAdviceCondition reports a condition no post can be checked
// against: a key other than the main package's name, "platform" or
// "unset", a range that does not parse, an unset list without a flag. A
// misspelt key would otherwise hold for every post.
func checkAdviceCondition(cond, pkg string) error {
	for _, kv := range adviceConditions(cond) {
		key, val := kv[0], kv[1]
		switch {
		case key == pkg && pkg != "":
			if _, err := ParseRange(val); err != nil {
				return err
			}
		case key == "platform":
			if val == "" {
				return fmt.Errorf("%w: {platform} names no platform", errInvalid)
			}
		case key == "unset":
			for _, fl := range strings.Split(val, ",") {
				if !isFlagWord(strings.TrimSpace(fl)) {
					return fmt.Errorf("%w: {unset %s} names no --flag", errInvalid, val)
				}
			}
		default:
			return fmt.Errorf("%w: condition %q (want %s RANGE, platform P or unset --FLAG)", errInvalid, key, pkg)
		}
	}
	return nil
}

// adviceFlagRE finds the options an advice line names in code spans:
// "Try `--enforce-eager`", "`--enable-auto-tool-choice --tool-call-parser
// <parser>`".
var adviceFlagRE = regexp.MustCompile("`[^`]*`")

// alreadyDone reports whether advice only tells the poster to turn on
// switches their command already sets: "Add `--enforce-eager`" to a
// post that runs with --enforce-eager (a 2080 Ti running out of memory
// under `api_server … --enforce-eager`, vllm#2140; an RTX 3090 doing the
// same, vllm#26863). A line that names a setting they do not have, or a
// value to change, still applies.
func alreadyDone(c *Command, text string) bool {
	if c == nil {
		return false
	}
	words := adviceOptionWords(text)
	for _, w := range words {
		if v, set := c.Flags[normFlag(w)]; !set || v != "" {
			return false
		}
	}
	return len(words) > 0
}

// upgradeRE finds the release an upgrade advice names: "Upgrade to vLLM
// 0.29.0", "use 0.8.5 or newer"; the word before the version, if any,
// must be the main package's name.
var upgradeRE = regexp.MustCompile(`(?i)\b(?:upgrade to|update to|use|install)\s+(?:([a-z][\w.-]*)\s+)?v?(\d+\.\d+(?:\.\d+)?)\b|\bv?(\d+\.\d+(?:\.\d+)?)\s+or\s+(?:newer|later)\b`)

// adviceApplies reports whether advice fits the post, whose main
// package's command is cmd (packageCommand): its condition holds
// (a version range of the main package, a platform, a flag the post's
// command does not set; a fact the post does not state satisfies any
// condition), it does not only tell the poster to turn on what their
// command already sets (alreadyDone), and it does not tell them to
// upgrade to a release they already run.
func adviceApplies(f *Facts, cmd *Command, cond, text string) bool {
	ver := f.packageVersion()
	if alreadyDone(cmd, text) {
		return false
	}
	for _, kv := range adviceConditions(cond) {
		key, val := kv[0], kv[1]
		switch {
		case key == f.Package.Name && key != "":
			if r, err := ParseRange(val); err == nil && ver != nil && !r.Contains(*ver) {
				return false
			}
		case key == "platform":
			if f.Platform != "" && !contains(strings.Split(strings.ReplaceAll(val, " ", ""), ","), f.Platform) {
				return false
			}
		case key == "unset" && cmd != nil:
			for _, fl := range strings.Split(val, ",") {
				if _, set := cmd.Flags[normFlag(strings.TrimSpace(fl))]; set {
					return false
				}
			}
		}
	}
	if ver == nil {
		return true
	}
	for _, m := range upgradeRE.FindAllStringSubmatch(text, 8) {
		if m[1] != "" && !strings.EqualFold(m[1], f.Package.Name) {
			continue // another package's release
		}
		if to, err := ParseVersion(m[2] + m[3]); err == nil && ver.Compare(to) >= 0 {
			return false
		}
		break
	}
	return true
}

// entryLink links an entry by its short reference (#123, or a docs
// page's title), with the title of an issue when long is set; an entry
// whose URL is not absolute http(s) is named without a link.
func entryLink(e Entry, long bool) string {
	text := e.ShortRef()
	if long && text != e.Title {
		// A tracker's template ("[Bug]: ") says what kind of report it
		// is, which its number already does.
		title := stripTitleTemplate(e.Title)
		if title == "" {
			title = e.Title
		}
		text += ": " + truncate(title, 70)
	}
	if checkURL(e.URL) != nil {
		return linkText(text)
	}
	return fmt.Sprintf("[%s](%s)", linkText(text), e.URL)
}

var sentenceEndRE = regexp.MustCompile(`[.!?](\s|$)`)

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if loc := sentenceEndRE.FindStringIndex(s); loc != nil {
		return s[:loc[0]+1]
	}
	return s
}

// code renders untrusted text as one inline code span: newlines removed,
// length bounded, and a fence longer than any backtick run inside, so the
// text cannot end the span early, @mention anyone or inject HTML.
func code(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = truncate(s, 120)
	longest := longestBacktickRun(s)
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

var (
	mentionRE = regexp.MustCompile(`@([\w-])`)
	hashtagRE = regexp.MustCompile(`(^|[\s(])#([\pL\pN])`)
)

// safeProse neutralises text that came from a curated pack before it is
// placed in prose: no @mentions, no #hashtags (a pack author's "as #16901"
// names an issue, which Discourse would read as a tag or category), no
// raw HTML. Markdown emphasis and code spans written by pack authors
// survive, and a closed code span is left exactly as written: Markdown
// reads nothing inside one (no HTML, mention or hashtag), and an entity
// there would show as "&lt;" in the command a reader copies.
func safeProse(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for s != "" {
		start, end := codeSpan(s)
		b.WriteString(neutralise(s[:start]))
		b.WriteString(s[start:end])
		s = s[end:]
	}
	return b.String()
}

// neutralise breaks mentions and hashtags in prose and backslash-escapes
// every "<" that is not escaped already (an entity would itself be one
// more thing Discourse reads), so no HTML tag or autolink opens.
func neutralise(s string) string {
	s = mentionRE.ReplaceAllString(s, "@\u200b$1")
	s = hashtagRE.ReplaceAllString(s, "$1#\u200b$2")
	var b strings.Builder
	slashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			slashes++
		case '<':
			if slashes%2 == 0 {
				b.WriteByte('\\')
			}
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// codeSpan finds the first code span of s as CommonMark reads one: a run
// of n backticks closed by the next run of exactly n. It returns where the
// span starts and ends, or len(s) twice when there is none; a run left
// unclosed, and a backtick escaped by a backslash, are literal text.
func codeSpan(s string) (start, end int) {
	for i := 0; i < len(s); {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case '`':
		default:
			i++
			continue
		}
		n := backtickRun(s[i:])
		for j := i + n; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			m := backtickRun(s[j:])
			if m == n {
				return i, j + m
			}
			j += m
		}
		i += n
	}
	return len(s), len(s)
}

// longestBacktickRun is the length of the longest run of backticks in s,
// which a code span or block around s must outrun.
func longestBacktickRun(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

func backtickRun(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// linkText makes text inert for the inside of [...].
func linkText(s string) string { return inert(truncate(strings.Join(strings.Fields(s), " "), 160)) }

// inertEscaper backslash-escapes every ASCII punctuation character that
// CommonMark or Discourse's BBCode give a meaning: no emphasis, link,
// image, raw HTML, entity (&#64;), table, heading or [img]/[quote] tag
// survives.
var inertEscaper = func() *strings.Replacer {
	var pairs []string
	for _, c := range "\\`*_{}[]()<>#+-.!|~&=:^\"'" {
		pairs = append(pairs, string(c), "\\"+string(c))
	}
	return strings.NewReplacer(pairs...)
}()

// textScannerRE finds what Discourse recognises in plain text after
// Markdown is parsed, whatever the escapes: @mentions (of any script),
// #hashtags, :emoji: shortcodes and bare links.
var textScannerRE = regexp.MustCompile(`[@#＠﹫]|:\S|(?i)(?:https?|ftp|mailto|file|www)\b|\.(\pL)`)

// inert makes untrusted text (from a poster, an imported issue or docs
// page, a learned or taught entry) safe to place in a reply's prose or
// link text: control, bidi and zero-width characters removed, whitespace
// collapsed, Markdown punctuation escaped, and a zero-width space put
// after every @, #, ":" before a word, and inside URL-looking text, so that
// Discourse's mention, hashtag, emoji and link scanners find nothing. It
// never lengthens text by more than twice plus a few zero-width spaces.
func inert(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return ' '
		case r < 0x20 || r == 0x7f || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r):
			return -1 // control, format (bidi, zero-width) and private-use
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	last := 0
	// Search again from just after each break, so that overlapping tokens
	// ("::00:") are broken too; every search starts further on, so the
	// work stays linear.
	for last < len(s) {
		loc := textScannerRE.FindStringIndex(s[last:])
		if loc == nil {
			break
		}
		at := last + loc[0]
		b.WriteString(inertEscaper.Replace(s[last:at]))
		// Break the token after its first rune: "@\u200bname",
		// "h\u200bttps://", ".\u200bcom".
		_, size := utf8.DecodeRuneInString(s[at:])
		b.WriteString(inertEscaper.Replace(s[at : at+size]))
		b.WriteString("\u200b")
		last = at + size
	}
	b.WriteString(inertEscaper.Replace(s[last:]))
	return b.String()
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,59}$`)

func sanitizeName(s string) string {
	if nameRE.MatchString(s) {
		return s
	}
	return ""
}

func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e12 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	out := strconv.FormatFloat(v, 'f', 2, 64)
	out = strings.TrimRight(out, "0")
	return strings.TrimSuffix(out, ".")
}

// fmtMemory writes an amount of memory given in GiB, in MiB below one
// GiB ("2 MiB", not "0 GiB").
func fmtMemory(gib float64) string {
	if gib > 0 && gib < 1 {
		return fmtNum(gib*1024) + " MiB"
	}
	return fmtNum(gib) + " GiB"
}

// possessive is "vLLM's" for the main package, or "the engine's".
func possessive(p MainPackage) string {
	if p.Name == "" {
		return "the engine's"
	}
	return p.String() + "'s"
}
