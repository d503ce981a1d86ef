package knowledge

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ComposeOptions shape a reply.
type ComposeOptions struct {
	// BotName is the bot's forum username, named in the follow-up hint.
	BotName string
	// MaxChars bounds the reply; sections are dropped from the end to fit.
	MaxChars int
}

// DefaultMaxReplyChars keeps replies readable and well under Discourse's
// 32,000-character post limit.
const DefaultMaxReplyChars = 5000

// Compose writes the Markdown reply for a post: a diagnosis, numbers worked
// from the post's own facts, the known issues that fit and why, what to
// try, the Sources (links of cited entries only) and the follow-up hint.
// It is deterministic: the same facts and matches give the same bytes.
func Compose(f *Facts, cited []Match, opts ComposeOptions) string {
	if opts.MaxChars <= 0 {
		opts.MaxChars = DefaultMaxReplyChars
	}
	bot := opts.BotName
	var sections []string
	sections = append(sections, diagnosis(f, cited))
	if n := workedNumbers(f, cited); n != "" {
		sections = append(sections, n)
	}
	sections = append(sections, knownIssues(cited))
	if t := whatToTry(f, cited); t != "" {
		sections = append(sections, t)
	}
	sources := sourcesList(cited)
	footer := Footer(bot)

	// Fit the budget: drop optional sections from the end, never the
	// diagnosis, the sources or the footer.
	for {
		out := strings.Join(sections, "\n\n") + "\n\n" + sources + "\n\n" + footer + "\n"
		if len(out) <= opts.MaxChars || len(sections) <= 1 {
			if len(out) > opts.MaxChars {
				out = truncate(out, opts.MaxChars-len("…"))
			}
			return out
		}
		sections = sections[:len(sections)-1]
	}
}

// Footer is the last line of every reply: who wrote it and how to ask for
// a follow-up (the bot's name in a code span, so it mentions nobody).
func Footer(botName string) string {
	bot := sanitizeName(botName)
	if bot == "" {
		bot = "herald"
	}
	return fmt.Sprintf("---\n<sub>I'm Herald, an automated helper, and I can be wrong. Reply here mentioning `@%s` for a follow-up, e.g. with the full log or what you tried.</sub>", bot)
}

// LinkText escapes untrusted text for the inside of a Markdown link.
func LinkText(s string) string { return linkText(s) }

// Code renders untrusted text as one safe inline code span (see code).
func Code(s string) string { return code(s) }

func diagnosis(f *Facts, cited []Match) string {
	var b strings.Builder
	subject := "Your setup"
	if c := mainCommand(f); c != nil {
		what := c.Program
		if c.Subcommand != "" {
			what += " " + c.Subcommand
		}
		subject = code(what)
		if len(f.Models) > 0 {
			subject += " of " + code(f.Models[0])
		}
	} else if len(f.Models) > 0 {
		subject = code(f.Models[0])
	}
	var env []string
	if f.Platform != "" {
		env = append(env, platformName(f.Platform))
	}
	if v := f.Versions["vllm"]; v != "" {
		env = append(env, "vLLM "+code(v))
	}
	if len(f.GPUs) > 0 && f.GPUs[0].MemoryGiB > 0 {
		env = append(env, fmt.Sprintf("%s GiB of GPU memory", fmtNum(f.GPUs[0].MemoryGiB)))
	}
	b.WriteString("**What I see:** ")
	b.WriteString(subject)
	if len(env) > 0 {
		b.WriteString(" on " + strings.Join(env, ", "))
	}
	if len(f.Errors) > 0 {
		b.WriteString(" fails with " + code(f.Errors[0].Type))
	} else {
		b.WriteString(" does not behave as expected")
	}
	b.WriteString(".")
	if len(cited) > 0 {
		top := cited[0].Entry
		fmt.Fprintf(&b, " The closest known match is %s: %s", entryLink(top), safeProse(top.Summary))
	}
	return b.String()
}

func mainCommand(f *Facts) *Command {
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Program != "docker" && c.Program != "podman" && c.Program != "pip" && c.Program != "pip3" {
			return c
		}
	}
	return nil
}

func platformName(p string) string {
	switch p {
	case "rocm":
		return "ROCm (AMD)"
	case "cuda":
		return "CUDA (NVIDIA)"
	case "cpu":
		return "CPU"
	case "tpu":
		return "TPU"
	case "xpu":
		return "Intel XPU"
	case "neuron":
		return "AWS Neuron"
	}
	return p
}

// workedNumbers does the arithmetic the post's own figures allow.
func workedNumbers(f *Facts, cited []Match) string {
	var lines []string
	var oom map[string]float64
	for _, e := range f.Errors {
		if e.Numbers != nil {
			oom = e.Numbers
			break
		}
	}
	util := -1.0
	if v, ok := f.Flag("--gpu-memory-utilization"); ok {
		if u, err := strconv.ParseFloat(v, 64); err == nil && u > 0 && u <= 1 {
			util = u
		}
	}
	if total, ok := oom["oom_total_gib"]; ok {
		if util > 0 {
			budget := util * total
			line := fmt.Sprintf("`--gpu-memory-utilization %s` gives this instance a budget of about %s GiB (%s × %s GiB).",
				fmtNum(util), fmtNum(budget), fmtNum(util), fmtNum(total))
			if alloc, ok := oom["oom_allocated_gib"]; ok {
				line += fmt.Sprintf(" PyTorch already held %s GiB when the allocation failed, %s× that budget,", fmtNum(alloc), fmtNum(alloc/budget))
				line += " so the setting is a target for vLLM's own planning, not a cap that stops other allocations."
			}
			lines = append(lines, line)
			if util < 0.5 {
				lines = append(lines, "A budget this small leaves little or no room for the weights that stay on the GPU, activations and the KV cache; lowering it does not make a model fit.")
			}
		}
		if tried, ok := oom["oom_tried_gib"]; ok {
			free := oom["oom_free_gib"]
			lines = append(lines, fmt.Sprintf("The failing request was %s GiB with %s GiB free on a %s GiB device.", fmtNum(tried), fmtNum(free), fmtNum(total)))
		}
		if off, ok := f.Flag("--cpu-offload-gb"); ok {
			if gb, err := strconv.ParseFloat(off, 64); err == nil {
				if alloc, ok := oom["oom_allocated_gib"]; ok && gb >= alloc {
					line := fmt.Sprintf("With `--cpu-offload-gb %s` most of the weights should live in CPU RAM, yet %s GiB sat on the GPU: either offload did not take effect", off, fmtNum(alloc))
					if citedHasTag(cited, "regression") {
						line += " (see the known issue below)"
					}
					line += ", or the memory went to what offload does not cover (activations, KV cache, CUDA graphs)."
					lines = append(lines, line)
				}
			}
		}
	}
	if seq, ok := oom["max_seq_len"]; ok {
		kv := oom["kv_tokens"]
		lines = append(lines, fmt.Sprintf("The model's context (%s tokens) needs more KV cache than fits (%s tokens): `--max-model-len %s` or lower would start.", fmtNum(seq), fmtNum(kv), fmtNum(kv)))
	}
	if len(lines) == 0 {
		return ""
	}
	return "**From your numbers:** " + strings.Join(lines, " ")
}

func citedHasTag(cited []Match, tag string) bool {
	for _, m := range cited {
		if contains(m.Entry.Tags, tag) {
			return true
		}
	}
	return false
}

func knownIssues(cited []Match) string {
	if len(cited) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("**Known issues and docs that fit:**")
	for i, m := range cited {
		e := m.Entry
		fmt.Fprintf(&b, "\n- %s", entryLink(e))
		if e.State != "" && e.Kind == KindIssue {
			fmt.Fprintf(&b, " (%s)", safeProse(e.State))
		}
		// The first entry's summary is already in the diagnosis.
		if s := firstSentence(e.Summary); s != "" && i > 0 {
			b.WriteString(": " + safeProse(s))
		}
		if len(m.Reasons) > 0 {
			var rs []string
			for i, r := range m.Reasons {
				if i == 3 {
					break
				}
				rs = append(rs, safeProse(r))
			}
			fmt.Fprintf(&b, " _Why: %s._", strings.Join(rs, "; "))
		}
	}
	return b.String()
}

func whatToTry(f *Facts, cited []Match) string {
	var items []string
	seen := map[string]bool{}
	for _, m := range cited {
		for _, a := range m.Entry.Advice {
			a = strings.TrimSpace(a)
			key := strings.ToLower(a)
			if a == "" || seen[key] {
				continue
			}
			// Advice about a fix the poster already has is noise.
			seen[key] = true
			items = append(items, safeProse(a))
		}
	}
	if len(items) == 0 {
		return ""
	}
	if len(items) > 6 {
		items = items[:6]
	}
	var b strings.Builder
	b.WriteString("**What to try:**")
	for i, it := range items {
		fmt.Fprintf(&b, "\n%d. %s", i+1, it)
	}
	return b.String()
}

func sourcesList(cited []Match) string {
	var b strings.Builder
	b.WriteString("**Sources:**")
	for _, m := range cited {
		if checkURL(m.Entry.URL) != nil {
			continue
		}
		fmt.Fprintf(&b, "\n- [%s](%s)", linkText(m.Entry.Title), m.Entry.URL)
	}
	return b.String()
}

func entryLink(e Entry) string {
	if checkURL(e.URL) != nil {
		return linkText(e.ShortRef())
	}
	return fmt.Sprintf("[%s](%s)", linkText(e.ShortRef()), e.URL)
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
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

var (
	mentionRE = regexp.MustCompile(`@([\w-])`)
	htmlRE    = regexp.MustCompile(`<`)
)

// safeProse neutralises text that came from a knowledge entry before it is
// placed in prose: no @mentions, no raw HTML. Markdown emphasis and code
// spans written by pack authors survive.
func safeProse(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = mentionRE.ReplaceAllString(s, "@\u200b$1")
	s = htmlRE.ReplaceAllString(s, "&lt;")
	return s
}

// linkText escapes text for the inside of [...]: brackets, backslashes,
// emphasis and HTML are neutralised.
func linkText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = truncate(s, 160)
	r := strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, `*`, `\*`, `_`, `\_`, "`", "\\`", `<`, `&lt;`, `>`, `&gt;`)
	return safeProse(r.Replace(s))
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
