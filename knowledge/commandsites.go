package knowledge

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// This file finds commands where they live besides shell lines: inside a
// sentence ("Running vllm serve x --max-model-len 4096 gives ..."), behind
// a label ("Launch command: ..."), in the string lists of Dockerfiles,
// Compose and Kubernetes files, and in Python API calls whose keyword
// arguments are the engine's flags.

// wrapperPrograms run the command that follows them; their own options
// are dropped. env runs it with the assignments after it, which stay
// before the command as its environment ("exec env
// VLLM_LOGGING_LEVEL=INFO .venv/bin/python -m vllm…", launcher scripts).
var wrapperPrograms = map[string]bool{"sudo": true, "nohup": true, "exec": true, "time": true, "env": true}

// stripWrappers removes leading sudo/nohup/exec/time/env and the options
// of sudo (-E, -u user) and env (-i, -u NAME) from the words of a command.
func stripWrappers(words []string) []string {
	for len(words) > 0 && wrapperPrograms[words[0]] {
		w := words[0]
		words = words[1:]
		for (w == "sudo" || w == "env") && len(words) > 0 && strings.HasPrefix(words[0], "-") {
			if (words[0] == "-u" || words[0] == "-g") && len(words) > 1 {
				words = words[1:]
			}
			words = words[1:]
		}
	}
	return words
}

// launchers run a command of their own after their options and
// arguments: a package manager's environment (`uv run`, `conda run -n
// env`, `pixi run`, `poetry run`; vLLM's docs: `uv run --with vllm vllm
// --help`), a cluster's scheduler (`srun --gres=gpu:4`), a container
// runtime for clusters (`apptainer exec --nv "$SIF" python -m vllm…`,
// `singularity exec`), and tools that bound, place or profile a process
// (`timeout 600`, `numactl --membind=0`, `taskset -c 0-15`, `nsys
// profile -o out`). Each maps to the subcommands that run the command
// (none: the launcher itself does). Launcher scripts, Makefiles and
// READMEs of many projects run vLLM this way (`uv run vllm serve …`,
// `CUDA_VISIBLE_DEVICES=0 uv run vllm serve …`, `nohup uv run vllm serve
// …`, SLURM job scripts).
var launchers = map[string][]string{
	"uv": {"run"}, "conda": {"run"}, "pixi": {"run"}, "poetry": {"run"}, "pipenv": {"run"},
	"srun": nil, "timeout": nil, "numactl": nil, "taskset": nil, "nsys": {"profile"},
	"apptainer": {"exec", "run"}, "singularity": {"exec", "run"},
	// uv's tool runner runs the tool a package installs, in an
	// environment of its own: `uvx vllm serve …` (launcher scripts,
	// SLURM job scripts and READMEs of many projects, found with the
	// search tool).
	"uvx": nil,
	// Hugging Face's launcher runs a module on every GPU: lm-eval's
	// documented multi-GPU form, `accelerate launch -m lm_eval --model
	// vllm …` (EleutherAI/lm-evaluation-harness#2028; evaluation scripts
	// of many projects run it with `--model hf`).
	"accelerate": {"launch"},
}

// moduleLaunchers are the launchers whose "-m" runs a Python module, as
// `python -m` does (srun's "-m" is a distribution, not a module).
var moduleLaunchers = map[string]bool{"accelerate": true}

// launchedAt returns the index of the command a launcher runs among
// words (of its "-m" when it runs a module, as `python -m` does), or -1
// when words start with no launcher or it runs no program the schema
// knows. The launcher's options and arguments are not
// modelled one by one: the command is the first known program among the
// words that is not an option's value (`conda run -n vllm vllm serve`,
// `uv run --with vllm vllm --help`), else the first known program.
func launchedAt(words []string, s *Schema) int {
	if len(words) < 2 {
		return -1
	}
	subs, ok := launchers[path.Base(words[0])]
	if !ok {
		return afterSeparator(words, s)
	}
	from := 1
	if subs != nil {
		if !slices.Contains(subs, words[1]) {
			return -1
		}
		from = 2
	}
	first := -1
	for i := from; i < len(words); i++ {
		if words[i] == "-m" && i+1 < len(words) && first < 0 && moduleLaunchers[path.Base(words[0])] {
			return i // a module it runs as python -m does
		}
		// A launcher may run another ("uv run accelerate launch -m
		// lm_eval …"), which the caller unwraps in turn.
		if _, launcher := launchers[path.Base(words[i])]; !launcher && !s.knownProgram(path.Base(words[i])) {
			continue
		}
		prev := words[i-1]
		if !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=") || i == from {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// afterSeparator returns the index of the command a program runs after
// a lone "--", the end of its own options, or -1: tools that reserve a
// GPU, enter a container or a pod or set up a cluster run the command
// that follows it (`chg run --gpus 1 -- vllm serve …`, canhazgpu's README
// and vllm-project/vllm issues; `distrobox enter vllm -- vllm serve …`;
// `ray symmetric-run --address … -- vllm serve …`, vLLM's multi-node
// guide; `kubectl exec -it pod -- python3 -m vllm…`). A pack's own
// program keeps its "--" (its arguments follow it), and the command must
// be a program the schema knows with words of its own.
func afterSeparator(words []string, s *Schema) int {
	if s.program(path.Base(words[0])) != nil {
		return -1
	}
	i := slices.Index(words, "--")
	if i < 1 || i+2 >= len(words) || !s.knownProgram(path.Base(words[i+1])) {
		return -1
	}
	return i + 1
}

// embeddedStarts returns the offsets in a prose line where a command of
// a program the schema knows may start after other words, first first,
// at most maxEmbeddedStarts. A program name only starts a command when
// flags follow it on the line. A sentence often names the program before
// it runs it ("My vllm version is 0.7.2, it works: vllm serve m --port
// 1", vllm-project/vllm#15457), so every place is a start to try, not
// only the first.
func embeddedStarts(line string, s *Schema) []int {
	if s == nil || !strings.Contains(line, " -") {
		return nil
	}
	var starts []int
	for _, p := range s.Programs {
		if genericPrograms[p.Name] {
			continue
		}
		starts = startsOf(starts, line, p.Name, func(rest string) bool { return runsAt(p, rest) })
		// Another program's command that starts this one is named by
		// its own two words: "when running: trl vllm-serve --model m
		// --tensor_parallel_size 8" (huggingface/trl#3304, #3157).
		for _, tool := range slices.Sorted(maps.Keys(p.Tools)) {
			starts = startsOf(starts, line, tool, func(string) bool { return true })
		}
		// So is a harness's that selects this program: "I am getting
		// error lm-eval --tasks gsm8k --model vllm --model_args …"
		// (EleutherAI/lm-evaluation-harness#672; vllm-project/vllm#8564's
		// "my command … are as follows: `lm-eval --model vllm …`").
		for _, h := range p.Harnesses {
			k, v := h.selector()
			for _, name := range h.Programs {
				starts = startsOf(starts, line, name, func(rest string) bool {
					return strings.Contains(rest, k+" "+v) || strings.Contains(rest, k+"="+v)
				})
			}
		}
	}
	for _, re := range []*regexp.Regexp{pythonModuleStartRE, dockerRunStartRE} {
		if loc := re.FindStringIndex(line); loc != nil {
			starts = append(starts, loc[0])
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	return starts[:min(len(starts), maxEmbeddedStarts)]
}

// startsOf appends to starts the offsets in line where word may start a
// command, up to maxEmbeddedStarts in all: after a boundary and not as a
// flag's value, with a flag somewhere after it, and where runs accepts
// the words after it.
func startsOf(starts []int, line, word string, runs func(rest string) bool) []int {
	for from := 0; from < len(line) && len(starts) < maxEmbeddedStarts; {
		i := strings.Index(line[from:], word+" ")
		if i < 0 {
			break
		}
		i += from
		if !strings.Contains(line[i:], " -") {
			break // no flag follows this or any later place
		}
		if (i == 0 || isCommandBoundary(line[i-1]) && !afterFlag(line[:i])) && runs(line[i+len(word)+1:]) {
			starts = append(starts, i)
		}
		from = i + 1
	}
	return starts
}

// runsAt reports whether the words after a program's name in a sentence
// can be its command line: a program with subcommands is run with one of
// them or an option ("vllm serve", "vllm --version"); followed by another
// word ("vllm installed, python3 -m …", "vllm version is 0.7.2") the
// sentence only names it.
func runsAt(p Program, rest string) bool {
	if len(p.Subcommands) == 0 {
		return true
	}
	next, _, _ := strings.Cut(strings.TrimLeft(rest, " \t"), " ")
	return strings.HasPrefix(next, "-") || slices.Contains(p.Subcommands, strings.TrimRight(next, ",.;:"))
}

// maxEmbeddedStarts bounds the places in one line tried as the start of
// a command: a hostile line naming the program thousands of times costs
// a few parses, not thousands.
const maxEmbeddedStarts = 4

var (
	pythonModuleStartRE = regexp.MustCompile(`\bpython3?(?:\.\d+)?\s+-m\s+[\w.]+`)
	dockerRunStartRE    = regexp.MustCompile(`\b(?:sudo\s+)?(?:docker|podman)\s+run\s`)
)

// afterFlag reports whether the text before a word ends with a flag, so
// that the word is that flag's value ("--model-engine vllm").
func afterFlag(before string) bool {
	f := strings.Fields(before)
	return len(f) > 0 && strings.HasPrefix(f[len(f)-1], "-")
}

func isCommandBoundary(b byte) bool {
	return b == ' ' || b == '\t' || b == ':' || b == '(' || b == '[' || b == '`' || b == '"' || b == '\'' || b >= 0x80
}

// codeWord reports whether a word reads as code rather than as a word of
// a sentence: it holds a slash, a digit, an underscore, or a dot or
// colon inside it.
func codeWord(w string) bool {
	w = strings.TrimRight(w, ".,;:!?")
	return strings.ContainsAny(w, "/0123456789_") || strings.ContainsAny(strings.Trim(w, ".:"), ".:")
}

// proseCommandWords cuts a command found in a sentence where the sentence
// resumes: after the flags have begun, a word that is neither a flag nor
// the value of the flag before it ends the command; before them, at most
// a subcommand and one argument are taken.
func proseCommandWords(text string, s *Schema) string {
	words := stripWrappers(strings.Fields(text))
	if len(words) == 0 {
		return ""
	}
	if len(words) > 2 && (words[0] == "docker" || words[0] == "podman") && words[1] == "run" {
		return dockerRunWords(words, s)
	}
	p := s.program(words[0])
	out := []string{words[0]}
	positional := 0
	flagsBegun, wantValue := false, false
	quote := byte(0) // the quote a word opened and no word has closed yet
	for i, w := range words[1:] {
		if quote != 0 {
			if strings.Count(w, string(quote))%2 == 1 {
				quote = 0
				// The closing backtick of an inline code span after the
				// quote ends the command too ("`… '{\"top_k\": 5}'`").
				if t := strings.TrimRight(w, ",;.:)!?"); strings.HasSuffix(t, "`") {
					out = append(out, strings.TrimRight(t, "`"))
					break
				}
			}
			out = append(out, w)
			continue
		}
		if strings.HasSuffix(w, ":") && !flagsBegun {
			return "" // "vllm serve: error: argument ...", a message
		}
		// A closing backtick ends an inline code span, and the command.
		last := false
		if t := strings.TrimRight(w, ",;.:)!?"); strings.HasSuffix(t, "`") {
			last, w = true, strings.TrimRight(t, "`")
		}
		// So does a full stop that ends the sentence before another
		// ("--port 8000. Then it fails").
		if t := withoutFullStop(w); t != w && i+2 < len(words) && startsUpper(words[i+2]) {
			last, w = true, t
		}
		// So does the CJK text of the sentence, glued to the last word
		// ("--model /workspace。。。的时候，仍然出现了报错",
		// QwenLM/Qwen3-VL#348; "--gpu-memory-utilization 0.9部署成功了",
		// vllm#4597), as it ends a link (refURLRE), but not a folder of
		// a path named in it ("/data/模型/qwen").
		if loc := cjkRE.FindStringIndex(w); loc != nil && !strings.Contains(w[loc[0]:], "/") {
			if w = w[:loc[0]]; w == "" {
				break
			}
			last = true
		}
		isFlag := isFlagWord(w)
		if !isFlag && !wantValue && flagsBegun {
			// A word of code between options is an argument written after
			// them ("--model /llm/models/ **Qwen3-Reranker-8B**
			// --served-model-name …", a path a poster's bold split); a
			// word of the sentence, or one that no option follows, ends
			// the command.
			if next := i + 2; last || next >= len(words) || !strings.HasPrefix(words[next], "--") || !codeWord(w) || strings.ContainsAny(w, `"'`) {
				return strings.Join(out, " ")
			}
			out = append(out, w)
			continue
		}
		for _, q := range []byte{'\'', '"'} {
			if strings.Count(w, string(q))%2 == 1 {
				quote = q
			}
		}
		switch {
		case isFlag:
			flagsBegun = true
			k, _, hasValue := strings.Cut(w, "=")
			wantValue = !hasValue && (p == nil || !p.isBoolean(normFlag(k)))
		case wantValue:
			wantValue = false
		case flagsBegun:
			return strings.Join(out, " ")
		default:
			positional++
			if positional > 3 {
				return strings.Join(out, " ")
			}
		}
		if quote == 0 {
			w = strings.TrimRight(w, ",;")
		}
		out = append(out, w)
		if last {
			break
		}
	}
	return strings.Join(out, " ")
}

// dockerRunWords cuts a `docker run OPTIONS IMAGE ARGS` written in prose
// where it ends: the image is the one positional the options are followed
// by, and what follows it is the image's command.
func dockerRunWords(words []string, s *Schema) string {
	for i := 2; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") {
			if !strings.Contains(w, "=") && (i+1 >= len(words) || !dockerBool(w, words[i+1])) {
				i++ // the option's value
			}
			continue
		}
		head := strings.Join(words[:i+1], " ")
		if i+1 < len(words) {
			rest := words[i+1:]
			if !strings.HasPrefix(rest[0], "-") && s.program(rest[0]) == nil {
				return head
			}
			tail := proseCommandWords("x "+strings.Join(rest, " "), s)
			return head + strings.TrimPrefix(tail, "x")
		}
		return head
	}
	return strings.Join(words, " ")
}

var (
	// A string list after a Dockerfile instruction or a Compose,
	// Kubernetes or Helm key: CMD ["vllm", "serve"], args: [ "--model",
	// "x" ], extraArgs: ["--max-num-seqs", "1"] (production-stack's
	// chart values); and the same list in Python, an argument vector
	// assigned or handed to subprocess (command = [sys.executable, "-m",
	// "vllm.entrypoints.openai.api_server", "--model", …],
	// vllm-project/vllm#28186; subprocess.Popen([...])), as scripts that
	// launch the server write it.
	listStartRE = regexp.MustCompile(`(?m)(?:^\s*(?:CMD|ENTRYPOINT|RUN)\s*|(?:^|\s)-?\s*(?:command|args|entrypoint|extraArgs|extra_args)\s*:\s*|(?:^|\s)\w*(?:cmd|command|args|argv)\s*=\s*|\bsubprocess\.\w+\(\s*)\[`)
	listItemRE  = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|'([^']*)'`)
	// keylessListRE is a line that opens a list of quoted words.
	keylessListRE = regexp.MustCompile(`(?m)^[ \t]*\[`)
	// A YAML block list under command:, args: or a chart's extraArgs:.
	yamlListKeyRE = regexp.MustCompile(`^(\s*)-?\s*(?:command|args|extraArgs|extra_args)\s*:\s*$`)
	yamlItemRE    = regexp.MustCompile(`^(\s*)-\s+(.*?)\s*$`)
	// A Compose or Kubernetes command written as one string, on the
	// key's line or as a folded or literal block under it: "command:
	// --model Qwen/Qwen2-VL-7B-Instruct", "command: >" then the
	// arguments, as Compose files for the vllm/vllm-openai image write
	// them ("command: --model=zai-org/GLM-5-FP8"); or as a plain
	// scalar over several lines, the key alone on its line or not
	// (yamlPlainLines). The value is optional: a key alone on its line
	// heads a plain scalar or a block list (yamlListKeyRE).
	yamlScalarKeyRE = regexp.MustCompile(`^(\s*)-?\s*(?:command|args)\s*:\s*(?:([>|][+-]?)|([^\s\[#'"].*?|"[^"\[]+"|'[^'\[]+'))?\s*$`)
	// A mapping's key, which ends a plain scalar's lines ("ports:").
	yamlKeyLineRE = regexp.MustCompile(`^\s*[\w.-]+\s*:(?:\s|$)`)
	// A manifest's "image:", and the "Image:" kubectl describe prints
	// (not its "Image ID:").
	imageLineRE = regexp.MustCompile(`(?m)^\s*-?\s*[Ii]mage\s*:\s*["']?([^\s"']+)`)
	// The container's command and arguments as kubectl describe pod
	// prints them: "Command:" and "Args:" each on a line of its own, then
	// one element a line, indented under it (kubectl's
	// describeContainerCommand; pasted by vllm-project/aibrix#1054,
	// vllm-project/production-stack#454 and vllm-project/vllm#18163 with
	// a pod in CrashLoopBackOff).
	describedKeyRE = regexp.MustCompile(`^(\s*)(Command|Args):\s*$`)
)

// maxListBytes bounds one string list.
const maxListBytes = 4 << 10

var (
	// yamlKeyNameRE is a YAML mapping key a pack's chart names.
	yamlKeyNameRE = regexp.MustCompile(`^[A-Za-z_][\w.-]*$`)
	// chartKeyLineRE is a line of a values file's mapping: its indent, a
	// list item's dash, the key and its value on the line.
	chartKeyLineRE = regexp.MustCompile(`^( *)(- +)?([A-Za-z_][\w.-]*) *:(?:[ \t]+(.*?))?[ \t]*$`)
)

// chartEntry is a model entry of a values file a pack's chart reads:
// its words as a command of the chart's program, and the byte range of
// its lines in the block.
type chartEntry struct {
	words      []string
	start, end int
}

// chartCommands returns the model entries of the values files in the
// lines of a code block that a pack's chart runs its program for
// (Program.Charts): each mapping that holds the chart's model key,
// indented as a values file nests it (an entry of the chart's list of
// models), read from the line of its list item's dash to the last line
// indented under it. Its keys, at any depth, that the chart maps to
// flags are the command's flags in the order the entry lists them, and
// the chart's list of further arguments follows them.
func chartCommands(lines []string, s *Schema) []chartEntry {
	if s == nil {
		return nil
	}
	var out []chartEntry
	for pi := range s.Programs {
		p := &s.Programs[pi]
		for ci := range p.Charts {
			c := &p.Charts[ci]
			offset := 0
			for i := 0; i < len(lines); offset, i = offset+len(lines[i])+1, i+1 {
				m := chartKeyLineRE.FindStringSubmatch(lines[i])
				if m == nil || m[3] != c.ModelKey || yamlValue(m[4]) == "" {
					continue
				}
				col := len(m[1]) + len(m[2]) // the entry's keys' column
				if col == 0 {
					continue // a flattened file, or prose without its indentation
				}
				from, to := chartEntryLines(lines, i, col)
				words := []string{p.Name}
				if c.Subcommand != "" {
					words = append(words, c.Subcommand)
				}
				words = append(words, yamlValue(m[4]))
				words = append(words, chartArgs(lines[from:to], c)...)
				start := offset
				for j := from; j < i; j++ {
					start -= len(lines[j]) + 1
				}
				end := offset
				for j := i; j < to; j++ {
					end += len(lines[j]) + 1
				}
				out = append(out, chartEntry{words: words, start: start, end: end})
				i, offset = to-1, end-len(lines[to-1])-1
			}
		}
	}
	return out
}

// chartEntryLines returns the lines [from, to) of the values-file entry
// whose model key stands on line i, its keys in column col: up to the
// line of its list item's dash and down to the last line indented under
// it, blank lines included.
func chartEntryLines(lines []string, i, col int) (from, to int) {
	from = i
	if m := chartKeyLineRE.FindStringSubmatch(lines[i]); m[2] == "" {
		for j := i - 1; j >= 0; j-- {
			l := lines[j]
			if strings.TrimSpace(l) == "" {
				continue
			}
			ind := len(l) - len(strings.TrimLeft(l, " "))
			km := chartKeyLineRE.FindStringSubmatch(l)
			if km != nil && km[2] != "" && ind+len(km[2]) == col {
				from = j // the entry's list item
				break
			}
			if ind < col {
				break
			}
			from = j
		}
	}
	to = i + 1
	for j := i + 1; j < len(lines); j++ {
		l := lines[j]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(l)-len(strings.TrimLeft(l, " ")) < col {
			break
		}
		to = j + 1
	}
	return from, to
}

// chartArgs returns the arguments a chart's template writes for the
// keys of one entry (lines): its flags, then its list of further
// arguments, flow or block.
func chartArgs(lines []string, c *Chart) []string {
	var flags, extra []string
	for j, l := range lines {
		m := chartKeyLineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := yamlValue(m[4])
		if m[3] == c.Args && c.Args != "" {
			switch {
			case strings.HasPrefix(v, "["):
				end := strings.IndexByte(v, ']')
				if end < 0 {
					end = len(v)
				}
				for _, it := range listItemRE.FindAllStringSubmatch(v[:end], -1) {
					extra = append(extra, it[1]+it[2])
				}
			case v == "":
				extra = append(extra, yamlListWords(lines[j+1:], len(m[1])+len(m[2]))...)
			}
			continue
		}
		fl, ok := c.Flags[m[3]]
		if !ok {
			continue
		}
		switch strings.ToLower(v) {
		case "", "false", "null", "~":
		case "true":
			flags = append(flags, fl)
		default:
			flags = append(flags, fl, v)
		}
	}
	return append(flags, extra...)
}

// yamlValue returns a scalar as a values file writes it: without its
// comment and its quotes.
func yamlValue(v string) string {
	v = strings.TrimSpace(yamlPlainText(v))
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}

var (
	// pyListNameRE names the variable a Python list is assigned to.
	pyListNameRE = regexp.MustCompile(`(\w+)\s*=\s*\[$`)
	// pyListAddRE is a line that adds to a list: "cmd += [",
	// "cmd.extend([", "cmd.append(".
	pyListAddRE = regexp.MustCompile(`(?m)^[ \t]*(\w+)\s*(?:\+=\s*\[|\.extend\(\s*\[|\.append\()`)
	// pyConvertRE is a conversion around a value: str(PORT), int(n).
	pyConvertRE = regexp.MustCompile(`^(?:str|int|float)\((.*)\)$`)
)

// pythonListCommand reads the Python list of a command's words that
// opens at loc in block (`cmd = [`, `subprocess.Popen([`), with what
// later lines add to it (`cmd += [...]`, `cmd.extend([...])`,
// `cmd.append(x)`). Scripts start the server so with names for its
// settings: `["vllm", "serve", MODEL_NAME, "--port", str(VLLM_PORT)]`
// (Modal's vLLM example and the apps built on it; launchers of RL and
// evaluation projects; found with the search tool). A name is the
// literal the script last gave it (constantsBefore) or stays as
// written, so that every flag keeps its value.
func pythonListCommand(block string, loc []int, rest string) []string {
	consts := constantsBefore(block[:loc[0]])
	rest = rest[:min(len(rest), maxListBytes)]
	items := topLevelItems(rest, ']')
	words := pythonListWords(items, consts)
	m := pyListNameRE.FindStringSubmatch(block[loc[0]:loc[1]])
	used := len(items) // the commas between the items, and the bracket
	for _, it := range items {
		used += len(it)
	}
	if m == nil || used >= len(rest) {
		return words
	}
	after := rest[used:]
	for _, a := range pyListAddRE.FindAllStringSubmatchIndex(after, 16) {
		if after[a[2]:a[3]] != m[1] {
			continue
		}
		tail := after[a[1]:]
		if strings.HasSuffix(after[:a[1]], "(") {
			words = append(words, pythonListWords(topLevelItems(tail, ')')[:1], consts)...)
			continue
		}
		words = append(words, pythonListWords(topLevelItems(tail, ']'), consts)...)
	}
	return words
}

// pythonListWords reads a Python list's items as words: a string as
// its value, an f-string with the fields the script's constants fill, a
// name or a conversion of one (str(PORT)) as the constant or as
// written; a splat (*opts) holds words no one can read and is left out,
// as is a string an excerpt cut off.
func pythonListWords(items []string, consts map[string]string) []string {
	var out []string
	for _, it := range items {
		it = strings.TrimSpace(uncommented(it))
		if m := pyConvertRE.FindStringSubmatch(it); m != nil {
			it = strings.TrimSpace(m[1])
		}
		f := strings.HasPrefix(it, "f\"") || strings.HasPrefix(it, "f'")
		if f {
			it = it[1:]
		}
		quoted := it != "" && (it[0] == '"' || it[0] == '\'')
		switch {
		case it == "" || strings.HasPrefix(it, "*"):
			continue
		case quoted && (len(it) < 2 || it[len(it)-1] != it[0]):
			continue // a string an excerpt cut off
		case quoted:
			it = strings.ReplaceAll(it[1:len(it)-1], `\"`, `"`)
			if f {
				it = fillFields(it, consts)
			}
		case it == "sys.executable":
			it = "python" // the interpreter running the script
		case identRE.MatchString(it):
			if v, ok := consts[it]; ok {
				it = unquoted(v)
			}
		default:
			it = strings.Join(strings.Fields(it), "")
		}
		out = append(out, it)
	}
	return out
}

// unquoted returns a Python literal's or a YAML scalar's value: a
// string without its quotes, anything else as written.
func unquoted(lit string) string {
	if len(lit) >= 2 && (lit[0] == '"' || lit[0] == '\'') && lit[len(lit)-1] == lit[0] {
		return lit[1 : len(lit)-1]
	}
	return lit
}

// listCommands returns the word lists of the string-list commands in a
// block of code, each with the program the block's image runs when the
// list holds only arguments, and the indexes of the block's lines that
// print the elements of a command kubectl describe printed, which are
// not commands of their own.
func listCommands(block string, s *Schema) (out [][]string, described []int) {
	// A list runs the image named nearest before it (the service's own,
	// in a file of several), else the first one the block names.
	images := imageLineRE.FindAllStringSubmatchIndex(block, 16)
	imageAt := func(pos int) string {
		img := ""
		for _, m := range images {
			if m[0] > pos && img != "" {
				break
			}
			img = block[m[2]:m[3]]
		}
		return img
	}
	lines := strings.Split(block, "\n")
	charts := chartCommands(lines, s)
	inChart := func(pos int) bool {
		return slices.ContainsFunc(charts, func(c chartEntry) bool { return pos >= c.start && pos < c.end })
	}
	for _, c := range charts {
		out = append(out, c.words)
	}
	services, serviceKeys := containerCommands(block)
	out = append(out, services...)
	shell := false // the list before was a shell's "-c" without its script
	starts := listStartRE.FindAllStringIndex(block, 8)
	opened := map[int]bool{} // the brackets a key opens
	for _, loc := range starts {
		opened[loc[1]-1] = true
	}
	// An exec form whose instruction an excerpt cut off (a line that
	// opens a list of quoted words, `["python", "-m",
	// "vllm.entrypoints.openai.api_server", \`, vllm-project/vllm#3090)
	// still starts with its program; any other list without a key is
	// data (argvLists reads the options of one that starts with them).
	keyless := 0
	for _, loc := range keylessListRE.FindAllStringIndex(block, -1) {
		next := strings.TrimLeft(block[loc[1]:], " \t")
		if opened[loc[1]-1] || next == "" || next[0] != '"' && next[0] != '\'' {
			continue
		}
		starts = append(starts, loc)
		if keyless++; keyless == 8 {
			break
		}
	}
	slices.SortFunc(starts, func(a, b []int) int { return a[0] - b[0] })
	for _, loc := range starts {
		if inChart(loc[0]) {
			continue // the chart's arguments, read with its entry
		}
		if serviceKeys[strings.Count(block[:loc[1]], "\n")] {
			continue // a service's entrypoint or command, read together
		}
		image := imageAt(loc[0])
		rest := block[loc[1]:]
		unkeyed := !opened[loc[1]-1]
		var words []string
		if opening := block[loc[0]:loc[1]]; strings.Contains(opening, "subprocess.") || strings.Contains(opening, "=") {
			words = pythonListCommand(block, loc, rest)
		} else {
			// A list cut off by the end of an excerpt still says what it says.
			end := strings.IndexByte(rest[:min(len(rest), maxListBytes+1)], ']')
			if end < 0 {
				end = len(rest)
			}
			if end > maxListBytes {
				continue
			}
			for _, m := range listItemRE.FindAllStringSubmatch(uncommented(rest[:end]), -1) {
				w := m[1]
				if m[1] == "" && m[2] != "" {
					w = m[2]
				}
				words = append(words, strings.ReplaceAll(w, `\"`, `"`))
			}
		}
		if len(words) > 1 && words[0] == "-m" {
			// The interpreter is a variable (sys.executable, PYTHON),
			// which holds no quoted word: the list runs Python.
			words = append([]string{"python"}, words...)
		}
		switch {
		case len(words) == 2 && isShell(words[0]) && words[1] == "-c":
			// command: ["/bin/sh", "-c"], its script in the args list
			// after it, as vLLM's Kubernetes guide writes it.
			shell = true
			continue
		case len(words) == 1 && len(strings.Fields(words[0])) > 1 && (shell || s.knownProgram(path.Base(strings.Fields(words[0])[0]))):
			// One item holding a whole command line ("args": ["vllm
			// serve m --port 8000"]) is a shell script: the shell's
			// parser reads its words and quotes.
			words = []string{"sh", "-c", words[0]}
		}
		shell = false
		if unkeyed && (len(words) < 2 || !s.knownProgram(path.Base(words[0]))) {
			continue
		}
		if ws := withProgram(words, image, s); ws != nil {
			out = append(out, ws)
		}
	}
	offset := 0 // of lines[i] in block
	for i := 0; i < len(lines); offset, i = offset+len(lines[i])+1, i+1 {
		if inChart(offset) || serviceKeys[i] {
			continue
		}
		if m := yamlScalarKeyRE.FindStringSubmatch(lines[i]); m != nil && (m[2] != "" || m[3] != "" || blockScalarLines(m, lines[i+1:]) > 0) {
			if words := yamlScalarWords(m, lines[i+1:]); len(words) > 1 && slices.ContainsFunc(words, isFlagWord) {
				if ws := withProgram(words, imageAt(offset), s); ws != nil {
					out = append(out, ws)
				}
			}
			continue
		}
		indent, from := "", i+1
		if m := yamlListKeyRE.FindStringSubmatch(lines[i]); m != nil {
			indent = m[1]
		} else if it := yamlItemRE.FindStringSubmatch(lines[i]); it != nil && (i == 0 || !yamlItemRE.MatchString(lines[i-1])) &&
			s.program(strings.Trim(it[2], `"'`)) != nil {
			// A list whose key an excerpt cut off still starts with its
			// program: "- vllm", "- serve", "- --max-model-len=4096".
			indent, from = it[1], i
		} else {
			continue
		}
		words := yamlListWords(lines[from:], len(indent))
		if from == i && !slices.ContainsFunc(words, isFlagWord) {
			continue // a list of package names: "- vllm", "- torch"
		}
		if ws := withProgram(words, imageAt(offset), s); ws != nil {
			out = append(out, ws)
		}
	}
	for _, d := range describedCommands(lines) {
		described = append(described, d.lines...)
		if ws := withProgram(d.words, imageAt(d.offset), s); ws != nil {
			out = append(out, ws)
		}
	}
	return out, described
}

// yamlListWords returns the words of a YAML block list's items, the
// lines from the first of lines on that are items indented by at least
// indent: "- --max-model-len=4096" and "- --max-model-len 4096" alike.
// A commented-out item ("# - --max-num-seqs") is skipped; a quoted JSON
// value is one word ('{"mode": 3}'), and so is a shell's script after its
// "-c" ("- sh", "- -c", "- \"bash …; python3 -m …\"", as vLLM's
// LeaderWorkerSet guide writes a multi-node command), while other quoted
// items are split, as people quote a whole command line as one item
// ("python3 -m … --port 8080"). An item's scalar may go on over the
// lines below it (yamlItemValue).
func yamlListWords(lines []string, indent int) []string {
	var words []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if len(words) >= 200 {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		it := yamlItemRE.FindStringSubmatch(l)
		if it == nil || len(it[1]) < indent {
			break
		}
		v, n := yamlItemValue(it, lines[i+1:])
		i += n
		if len(v) >= 3 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] && (v[1] == '{' || v[1] == '[') {
			words = append(words, v[1:len(v)-1])
			continue
		}
		if len(words) > 0 && words[len(words)-1] == "-c" && slices.ContainsFunc(words, isShell) {
			words = append(words, strings.Trim(v, `"'`))
			continue
		}
		words = append(words, strings.Fields(strings.Trim(v, `"'`))...)
	}
	return words
}

// yamlItemValue returns the scalar of a YAML list item (it from
// yamlItemRE) and how many of the lines below it the scalar takes: YAML
// folds the lines indented deeper than the item's dash into its value,
// one space for each line break, and a quoted value goes on until its
// closing quote. Manifests write a long command so ("- vllm serve m"
// over "--max-model-len 32768" on the next line; vllm-project/vllm-ascend#2077
// and vLLM's LeaderWorkerSet guide, where a quoted script of two commands
// takes two lines; vllm-project/vllm#26328 pasted such a value). An item
// that is a mapping ("- name: vllm") or opens a collection has none, nor
// has one quoted and closed on its line.
func yamlItemValue(it []string, below []string) (string, int) {
	v := it[2]
	if v == "" || yamlKeyLineRE.MatchString(v) || strings.ContainsAny(v[:1], "[{|>&*!") {
		return v, 0
	}
	var n int
	if q := v[0]; q == '"' || q == '\'' {
		// A quoted value ends at its closing quote, whatever the lines
		// between look like.
		if closesQuote(v[1:], q) {
			return v, 0
		}
		for k, l := range below[:min(len(below), maxVarLines)] {
			if closesQuote(l, q) {
				n = k + 1
				break
			}
		}
	} else {
		n = yamlPlainLines(len(it[1]), below)
	}
	if n == 0 {
		return v, 0
	}
	var b strings.Builder
	b.WriteString(v)
	for k, l := range below[:n] {
		if b.Len() >= maxCommandBytes {
			return b.String(), k // longer than any command: the rest is read as it stands
		}
		if t := strings.TrimSpace(yamlPlainText(l)); t != "" {
			b.WriteByte(' ')
			b.WriteString(t)
		}
	}
	return b.String(), n
}

// closesQuote reports whether a line of a quoted YAML scalar holds its
// closing quote q: a '"' not escaped by a backslash, or a "'" (which
// YAML escapes by doubling it; a doubled one closes nothing).
func closesQuote(l string, q byte) bool {
	for i := 0; i < len(l); i++ {
		switch {
		case q == '"' && l[i] == '\\':
			i++
		case l[i] == q && q == '\'' && i+1 < len(l) && l[i+1] == '\'':
			i++
		case l[i] == q:
			return true
		}
	}
	return false
}

// foldYAMLItems returns the lines of a code block with each YAML list
// item that holds a command read as that command: its scalar folded onto
// its line (yamlItemValue; the lines it took left blank, so that every
// line keeps its place) and, when the value starts a run of a program
// ("- python3 -m vllm.entrypoints.openai.api_server …", "- bash
// multi-node-serving.sh leader …; python3 -m …" in a LeaderWorkerSet
// manifest an excerpt cut from its key), the value alone, unquoted, as a
// shell would be given it. Items of options ("- --max-model-len=4096")
// or of single words stay as they are: the list readers read those with
// their key.
func foldYAMLItems(lines []string, s *Schema) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		it := yamlItemRE.FindStringSubmatch(lines[i])
		if it == nil || it[2] == "" || isFlagWord(it[2]) {
			continue
		}
		v, n := yamlItemValue(it, lines[i+1:])
		cmd := unquoted(strings.TrimSpace(v))
		runs := strings.Contains(cmd, " ") && (startsNewRun(cmd, s) || s.startsRun(cmd))
		if n == 0 && !runs {
			continue
		}
		if out == nil {
			out = slices.Clone(lines)
		}
		if runs {
			out[i] = it[1] + cmd
		} else {
			out[i] = it[1] + "- " + v
		}
		for k := i + 1; k <= i+n; k++ {
			out[k] = ""
		}
		i += n
	}
	if out == nil {
		return lines
	}
	return out
}

// describedCommand is the words of a command kubectl describe printed,
// the offset of its first key in the block, the indexes of the lines
// that print its elements, and whether it has a "Command:" (else it is
// arguments alone).
type describedCommand struct {
	words   []string
	offset  int
	lines   []int
	program bool
}

// describedCommands returns the commands kubectl describe pod printed in
// lines: a container's "Command:" list followed by its "Args:" list, or
// either alone (the image's entrypoint then runs the arguments). Each
// line under a key is one element, as kubectl writes them, read as its
// words as a manifest's list items are (a whole command line written as
// one element reads as that line); an element that holds a newline is
// printed over several lines, which only a shell's script does
// ("/bin/sh", "-c", then the script), so after a shell's -c the lines
// are one script again. A Python docstring's
// "Args:" lists parameters, not flags, and is left alone: arguments
// alone must name a flag.
func describedCommands(lines []string) []describedCommand {
	var out []describedCommand
	open, openIndent := -1, "" // the Command its Args may follow
	offset := 0
	for i := 0; i < len(lines); i++ {
		keyOffset := offset
		offset += len(lines[i]) + 1
		m := describedKeyRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		var items []string
		var at []int
		for _, next := range lines[i+1 : i+1+min(indentedBelow(lines[i+1:], len(m[1])), 200)] {
			items = append(items, strings.TrimSpace(next))
			at = append(at, i+1)
			offset += len(next) + 1
			i++
		}
		switch {
		case len(items) == 0:
			open = -1
		case m[2] == "Args" && open >= 0 && openIndent == m[1]:
			out[open].words = append(out[open].words, items...)
			out[open].lines = append(out[open].lines, at...)
			open = -1
		case m[2] == "Args":
			out = append(out, describedCommand{words: items, offset: keyOffset, lines: at})
			open = -1
		default:
			out = append(out, describedCommand{words: items, offset: keyOffset, lines: at, program: true})
			open, openIndent = len(out)-1, m[1]
		}
	}
	kept := out[:0]
	for _, d := range out {
		if w := d.words; len(w) > 2 && isShell(w[0]) && (w[1] == "-c" || w[1] == "-lc") {
			d.words = []string{w[0], "-c", strings.Join(w[2:], "\n")}
		} else {
			var split []string
			for _, e := range w {
				split = append(split, strings.Fields(e)...)
			}
			d.words = split
		}
		if d.program || slices.ContainsFunc(d.words, isFlagWord) {
			kept = append(kept, d)
		}
	}
	return kept
}

// isShell reports whether a program word names a POSIX shell ("sh",
// "/bin/bash").
func isShell(w string) bool {
	b := path.Base(w)
	return b == "sh" || b == "bash"
}

// uncommented returns a flow list's text without its comments: YAML and
// Python lists comment items out with "#" (`#"--max-num-seqs", "256",`,
// vllm-project/vllm#11402; a block list's "# - --max_num_batched_tokens",
// #16841), and a commented-out flag is not set. A "#" inside a quoted
// item is kept.
func uncommented(list string) string {
	if !strings.Contains(list, "#") {
		return list
	}
	var b strings.Builder
	for line := range strings.Lines(list) {
		quote := byte(0)
		cut := len(line)
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case quote != 0 && c == '\\':
				i++
			case quote != 0 && c == quote:
				quote = 0
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
			case quote == 0 && c == '#':
				cut = i
			}
			if cut < len(line) {
				break
			}
		}
		b.WriteString(line[:cut])
		if cut < len(line) {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// yamlScalarWords returns the words of a command key's string value (m
// from yamlScalarKeyRE): the rest of its line and the lines of its
// scalar below it (blockScalarLines), a plain scalar's without their
// comments.
func yamlScalarWords(m []string, below []string) []string {
	words := strings.Fields(strings.Trim(m[3], `"'`))
	plain := m[2] == ""
	if plain && m[3] != "" && m[3][0] != '"' && m[3][0] != '\'' {
		words = strings.Fields(yamlPlainText(m[3]))
	}
	for _, l := range below[:blockScalarLines(m, below)] {
		if len(words) >= 200 {
			break
		}
		if plain {
			l = yamlPlainText(l)
		}
		words = append(words, strings.Fields(strings.TrimRight(l, "\\"))...)
	}
	return words
}

// blockScalarLines returns how many of the lines below a command key (m
// from yamlScalarKeyRE) are its scalar's. A block scalar's ("command: >")
// are those indented under the key, up to a blank line; a plain
// scalar's, the key's value on its line or not, are yamlPlainLines. A
// quoted value on the key's line has none.
func blockScalarLines(m []string, below []string) int {
	if m[2] == "" {
		if m[3] != "" && (m[3][0] == '"' || m[3][0] == '\'') {
			return 0
		}
		return yamlPlainLines(len(m[1]), below)
	}
	return indentedBelow(below, len(m[1]))
}

// indentedBelow returns how many of the lines below a key indented by
// indent are indented deeper, up to a blank line: a block scalar's, or
// the elements kubectl describe prints under "Command:".
func indentedBelow(below []string, indent int) int {
	for n, l := range below {
		if strings.TrimSpace(l) == "" || len(l)-len(strings.TrimLeft(l, " \t")) <= indent {
			return n
		}
	}
	return len(below)
}

// yamlPlainLines returns how many of the lines below a key indented by
// indent continue its plain scalar: YAML folds the lines indented deeper
// than the key into one string, so Compose files write a command's
// arguments one a line under a bare "command:" (vllm-project/vllm#3416,
// and Compose files for the vllm/vllm-openai image in many projects'
// guides, found with the search tool), or go on under "command: --model
// x". The scalar ends at a blank line, a line indented no deeper than the
// key, a list item (the key then heads a block list) or another key.
// Comment lines inside it ("# --max-num-seqs 64") are skipped, as people
// paste them.
func yamlPlainLines(indent int, below []string) int {
	n := 0
	for i, l := range below {
		t := strings.TrimLeft(l, " \t")
		switch {
		case t == "" || len(l)-len(t) <= indent:
			return n
		case strings.HasPrefix(t, "#"):
			continue
		case yamlItemRE.MatchString(l) || yamlKeyLineRE.MatchString(l):
			return n
		}
		n = i + 1
	}
	return n
}

// yamlPlainText returns a line of a plain scalar without its comment
// (YAML's " #" starts one: "--tensor-parallel-size 2 # one per GPU").
func yamlPlainText(l string) string {
	if strings.HasPrefix(strings.TrimSpace(l), "#") {
		return ""
	}
	if i := strings.Index(l, " #"); i >= 0 {
		return l[:i]
	}
	return l
}

// withoutBlockScalars blanks the lines of a code block's command block
// scalars ("command: >" and the arguments under it), which listCommands
// reads whole: read line by line, the "--model x" line that starts one
// would be a second, partial command.
func withoutBlockScalars(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		m := yamlScalarKeyRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		n := blockScalarLines(m, lines[i+1:])
		if n == 0 {
			continue
		}
		if out == nil {
			out = slices.Clone(lines)
		}
		for j := i + 1; j <= i+n; j++ {
			out[j] = ""
		}
		i += n
	}
	if out == nil {
		return lines
	}
	return out
}

// isFlagWord reports whether a word of an argument list is an option
// ("-tp", "--model=x"), not a value such as "-1".
func isFlagWord(w string) bool { return strings.HasPrefix(w, "-") && len(w) > 1 && !isNumber(w) }

// withProgram prefixes a list of bare arguments with the program that
// runs them: the program of the list's image, else the one the arguments
// name (argsProgram). Lists that start with a program are returned as
// they are. Under a known serving image any other list is its
// entrypoint's arguments; without an image, a list that starts with a
// model id is too ("command: [openai/gpt-oss-120b, --max-model-len,
// ...]"). Under an image no pack knows, a list of bare arguments is that
// image's, and nil is returned.
func withProgram(words []string, image string, s *Schema) []string {
	if len(words) == 0 {
		return nil
	}
	modelFirst := len(words) > 1 && looksLikeModel(words[0]) && isFlagWord(words[1]) && s.program(words[0]) == nil
	var p *Program
	if image != "" {
		p, _ = s.image(image)
	}
	// Under a known serving image, a list that does not start with a
	// program is the entrypoint's arguments, whatever names the model
	// first: "${LLM_MODEL}", a path, an id.
	imageArgs := p != nil && !s.knownProgram(path.Base(words[0]))
	if !isFlagWord(words[0]) && !modelFirst && !imageArgs {
		return words
	}
	if image == "" {
		p = s.argsProgram(words, modelFirst)
	}
	if p == nil {
		// No program, or an image no pack knows, which runs its own
		// program whatever flags its arguments share with a known one.
		return nil
	}
	head := []string{p.Name}
	if len(p.Subcommands) > 0 {
		head = append(head, p.Subcommands[0])
	}
	return append(head, words...)
}

var (
	// A Python API call whose keyword arguments are engine settings:
	// LLM(model="x", tensor_parallel_size=2), and the engine settings
	// Ray Serve LLM and Ray Data pass on, as a call ("LLMConfig(…,
	// engine_kwargs=dict(tensor_parallel_size=2))", ray-project/ray#53907,
	// #64466 and Ray's guides) or as a dict literal
	// ("vLLMEngineProcessorConfig(…, engine_kwargs={"max_model_len":
	// 16384, …})", ray-project/ray#54263, vllm-project/vllm#22843).
	apiCallRE = regexp.MustCompile(`\b(?:LLM\(|EngineArgs\(|AsyncEngineArgs\(|engine_kwargs\s*=\s*(?:dict\(|\{))`)
	kwargRE   = regexp.MustCompile(`(?s)([A-Za-z_]\w*)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\{[^{}]*\}|\[[^\[\]]*\]|[^,()\s]+)`)
	// An assignment on a line of its own, and the literals a script's
	// constants are given: `model_name = "org/model"`, `tp_size = 2  # two
	// GPUs`, `enforce: bool = True`.
	assignRE  = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[ \t]*[\w.]+[ \t]*)?=([^=\n].*)$`)
	literalRE = regexp.MustCompile(`^[ \t]*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[-+]?\d[\w.]*|True|False)[ \t]*(?:#.*)?$`)
	identRE   = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

// constantsBefore returns the literal each name was last given in the
// script before a call: LLM(model=model_name) is set to what
// `model_name = "x"` said above it (vllm#6416, #8276, #8627, #25811), not
// to the variable's name. A name last given anything else (args.model, a
// call) is left out, and an argument set to it stays as written.
func constantsBefore(script string) map[string]string {
	out := map[string]string{}
	for _, m := range assignRE.FindAllStringSubmatch(script, -1) {
		if lit := literalRE.FindStringSubmatch(m[2]); lit != nil {
			out[m[1]] = lit[1]
		} else {
			delete(out, m[1])
		}
	}
	return out
}

// apiCommands turns Python API calls into commands of the program whose
// model flag matches their model keyword, so that LLM(model=...,
// cpu_offload_gb=14) and --cpu-offload-gb 14 are the same fact. at gives
// the post's offset of the line a call starts on, which orders it among
// the post's other commands.
func apiCommands(text string, s *Schema, at func(line string) int) []Command {
	prog := s.servingProgram()
	if prog == nil {
		return nil
	}
	var out []Command
	for _, loc := range apiCallRE.FindAllStringIndex(text, 4) {
		// A call commented out is not run: "#llm = LLM(model=…)" beside
		// the one in use (ROCm/legacy-rocm-build#3246), or as all that is
		// left of it (vllm#1910).
		lineStart := strings.LastIndexByte(text[:loc[0]], '\n') + 1
		if before := text[lineStart:loc[0]]; uncommented(before) != before {
			continue
		}
		// Another engine's class of the same name runs that engine:
		// TensorRT-LLM's LLM API is vLLM's in name and keywords.
		if s.otherEngineCall(text, loc[0], strings.TrimSuffix(text[loc[0]:loc[1]], "(")) {
			continue
		}
		var constants map[string]string
		// The call's arguments, or the dict literal's items, up to the
		// bracket that closes the one apiCallRE ended on.
		literal := text[loc[1]-1] == '{'
		open, close := byte('('), byte(')')
		if literal {
			open, close = '{', '}'
		}
		end := closing(text[loc[1]:], open, close, maxListBytes)
		if end < 0 {
			continue
		}
		args := text[loc[1] : loc[1]+end]
		// A keyword argument commented out is not set: `# model="x",`
		// beside the one in use (vllm#26006), `# attention_backend=…`
		// (vllm#40153), `# enforce_eager=True,` (vllm-dev C1-028).
		args = uncommented(args)
		call := strings.TrimSuffix(text[loc[0]:loc[1]], "(")
		if name, _, ok := strings.Cut(call, "="); ok {
			call = strings.TrimSpace(name) // engine_kwargs=dict, engine_kwargs={
		}
		c := prog.settingsCommand("python " + call + "()")
		argRE := kwargRE
		if literal {
			argRE = dictKeyRE // `"max_model_len": 16384`, read as kwargRE reads `max_model_len=16384`
		}
		kwargs := argRE.FindAllStringSubmatch(args, 64)
		// The settings a script gathers in a dict and unpacks into the
		// call (`llm = LLM(**llm_kwargs)`), before the call's own.
		for _, name := range unpackedRE.FindAllStringSubmatch(args, 4) {
			kwargs = append(dictBefore(text[:loc[0]], name[1]), kwargs...)
		}
		for _, m := range kwargs {
			k := normFlag("--" + m[1])
			v := m[2]
			if identRE.MatchString(v) && v != "True" && v != "False" && v != "None" {
				if constants == nil {
					constants = constantsBefore(text[:loc[0]])
				}
				if lit, ok := constants[v]; ok {
					v = lit
				}
			}
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
				v = v[1 : len(v)-1]
			}
			switch v {
			case "True":
				v = ""
			case "False", "None":
				continue
			}
			c.Flags[k] = v
		}
		if len(c.Flags) > 0 {
			line, _, _ := strings.Cut(text[lineStart:], "\n")
			c.pos = at(line)
			out = append(out, c)
		}
	}
	return out
}

// servingProgram returns the first program of the schema that serves a
// model (it has a model flag): the one whose flags an engine's settings
// given in code or in a config are, or nil (also for a nil schema).
func (s *Schema) servingProgram() *Program {
	if s == nil {
		return nil
	}
	for i := range s.Programs {
		if s.Programs[i].ModelFlag != "" {
			return &s.Programs[i]
		}
	}
	return nil
}

// settingsCommand returns an empty command of the serving program p for
// engine settings given in code or in a config (Command.api), its origin
// in via ("python LLM()", "ray engine_kwargs"): the settings are p's
// flags, by name (normFlag("--" + name)).
func (p *Program) settingsCommand(via string) Command {
	c := Command{Program: p.Name, Flags: map[string]string{}, Via: via, api: true}
	if len(p.Subcommands) > 0 {
		c.Subcommand = p.Subcommands[0]
	}
	return c
}

// yamlEngineCommands turns the engine settings a YAML config gives in
// engine_kwargs (yamlEngineSettings) into commands of the program whose
// model flag the schema names, as apiCommands does for Python's
// `engine_kwargs=dict(…)`: `tensor_parallel_size: 2` is
// --tensor-parallel-size 2, `enforce_eager: true` is --enforce-eager, and
// the config's model_source is the model. at gives the post's offset of
// a block.
func yamlEngineCommands(blocks []string, s *Schema, at func(string) int) []Command {
	prog := s.servingProgram()
	if prog == nil {
		return nil
	}
	var out []Command
	for _, block := range blocks {
		for _, set := range yamlEngineSettings(block) {
			c := prog.settingsCommand("ray engine_kwargs")
			for k, v := range set {
				if k == "model_source" {
					c.Flags[prog.ModelFlag] = v
					continue
				}
				switch strings.ToLower(v) {
				case "true":
					v = ""
				case "false", "null", "~", "":
					continue
				}
				c.Flags[normFlag("--"+k)] = v
			}
			if len(c.Flags) > 0 {
				c.pos = at(block)
				out = append(out, c)
			}
		}
	}
	return out
}

var (
	// fromImportRE is a Python import of names from a module: its module
	// and the names, up to the line's end or a closing parenthesis.
	fromImportRE = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+\(?([^\n)]*)`)
	// moduleImportRE is a Python import of a module, perhaps under
	// another name.
	moduleImportRE = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+([A-Za-z_][\w.]*)(?:[ \t]+as[ \t]+([A-Za-z_]\w*))?`)
)

// qualifier returns the dotted name a call is made through, the text
// before the call ending in it and a dot: "tensorrt_llm" of "llm =
// tensorrt_llm.", "" when the text ends otherwise. Like a Python name,
// it starts with a letter or an underscore.
func qualifier(before string) string {
	q, ok := strings.CutSuffix(before, ".")
	if !ok {
		return ""
	}
	i := len(q)
	for i > 0 && (isWordByte(q[i-1]) || q[i-1] == '.') {
		i--
	}
	for i < len(q) && !(isWordByte(q[i]) && (q[i] < '0' || q[i] > '9')) {
		i++ // digits and dots before its first letter
	}
	return q[i:]
}

// otherEngineCall reports whether the API call named class at pos in a
// script is another serving engine's (the vocabulary's other_engines,
// by their Python package): the name was last imported before it from
// that engine (`from tensorrt_llm import LLM, SamplingParams`, as
// NVIDIA/TensorRT-LLM#7818 and TensorRT-LLM's own examples write it),
// or the call goes through that engine's module (`tensorrt_llm.LLM(`,
// or a module imported as another name). A call of a name no import
// gives is the main package's, as before.
func (s *Schema) otherEngineCall(text string, pos int, class string) bool {
	if len(s.engines.names) == 0 {
		return false
	}
	other := func(module string) bool {
		top, _, _ := strings.Cut(module, ".")
		return slices.Contains(s.engines.names, strings.ToLower(top))
	}
	before := text[:pos]
	if module := qualifier(before); module != "" {
		for _, m := range moduleImportRE.FindAllStringSubmatch(before, -1) {
			if m[2] == module {
				module = m[1]
			}
		}
		return other(module)
	}
	from := ""
	for _, m := range fromImportRE.FindAllStringSubmatch(before, -1) {
		for _, item := range strings.Split(m[2], ",") {
			f := strings.Fields(item)
			if len(f) == 3 && f[1] == "as" {
				f = f[2:]
			}
			if len(f) == 1 && f[0] == class {
				from = m[1]
			}
		}
	}
	return from != "" && other(from)
}

var (
	// unpackedRE is a dict unpacked into a call's keyword arguments:
	// "**llm_kwargs".
	unpackedRE = regexp.MustCompile(`\*\*([A-Za-z_]\w*)\s*(?:[,)]|$)`)
	// dictKeyRE is a key of a dict literal and its value, as kwargRE
	// reads a keyword argument: `"max_model_len": 8192`.
	dictKeyRE = regexp.MustCompile(`(?s)["']([A-Za-z_]\w*)["']\s*:\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\{[^{}]*\}|\[[^\[\]]*\]|[^,{}\s]+)`)
)

// dictBefore returns, as kwargRE's matches (name, value), the entries
// of the dict a script last assigned to name before a call that unpacks
// it: `name = dict(k=v, …)` or `name = {"k": v, …}`, over lines, then the
// keys it sets one by one below that (`name["enforce_eager"] = True`).
// Evaluation and benchmark scripts gather the engine's settings so
// (`llm_kwargs`, `engine_config`, `model_args` in many projects' scripts,
// found with the search tool). A name given anything else last (a call,
// another variable) yields nothing.
func dictBefore(script, name string) [][]string {
	var last []int
	for _, m := range dictAssignRE.FindAllStringSubmatchIndex(script, -1) {
		if script[m[2]:m[3]] == name {
			last = m
		}
	}
	if last == nil {
		return nil
	}
	var out [][]string
	body := script[last[5]:]
	switch script[last[4]:last[5]] {
	case "dict(":
		args, ok := balancedArgs(body, maxListBytes)
		if !ok {
			return nil
		}
		out = kwargRE.FindAllStringSubmatch(uncommented(args), 64)
		body = body[len(args):]
	case "{":
		end := closing(body, '{', '}', maxListBytes)
		if end < 0 {
			return nil
		}
		out = dictKeyRE.FindAllStringSubmatch(uncommented(body[:end]), 64)
		body = body[end:]
	default:
		return nil
	}
	set := 0
	for _, m := range dictKeySetRE.FindAllStringSubmatch(body, -1) {
		if m[1] == name && set < 32 {
			out = append(out, m[1:]) // name, key, value: key and value where kwargRE has them
			set++
		}
	}
	return out
}

var (
	// dictAssignRE is an assignment on a line of its own and how its
	// value starts: a dict (`name = dict(`, `name: dict[str, Any] = {`)
	// or anything else.
	dictAssignRE = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[ \t]*[\w.\[\], ]+)?=[ \t]*(dict\(|\{|[^=\n])`)
	// dictKeySetRE is one key of a dict set on a line of its own, to a
	// literal: `llm_kwargs["enforce_eager"] = True`.
	dictKeySetRE = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_]\w*)\[["']([A-Za-z_]\w*)["']\][ \t]*=[ \t]*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[-+]?\d[\w.]*|True|False)[ \t]*(?:#.*)?$`)
)

// closing returns the index in text of the bracket (close) that closes
// one (open) opened before it, within limit bytes, or -1.
func closing(text string, open, close byte, limit int) int {
	depth := 1
	for i := 0; i < len(text) && i < limit; i++ {
		switch text[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// balancedArgs returns the text up to the parenthesis that closes an
// opened call, within limit bytes.
func balancedArgs(text string, limit int) (string, bool) {
	i := closing(text, '(', ')', limit)
	if i < 0 {
		return "", false
	}
	return text[:i], true
}

// imageRefRE is a container image reference alone on a line: a
// registry and path of names, a tag, a digest ("vllm/vllm-openai:v0.8.5",
// "nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3"), and not a tag's
// closing BBCode ("[/quote]") or a path ("/models/x").
var imageRefRE = regexp.MustCompile(`^[\w][\w.-]*(?::\d+)?(?:/[\w][\w.-]*)+(?::[\w][\w.-]*)?(?:@sha256:[0-9a-f]+)?$`)

// joinFlagLines joins prose lines that start with a long flag to the line
// before: Markdown turns a command's line-end backslashes into hard line
// breaks, so a cooked or unfenced command arrives one flag a line.
func joinFlagLines(lines []string) []string {
	var out []string
	docker := false // the last line starts a docker run
	for _, l := range lines {
		t := strings.TrimSpace(l)
		flag := strings.HasPrefix(t, "--") && len(t) > 2 && isLetter(t[2]) || len(t) > 1 && t[0] == '-' && isLetter(t[1])
		// A container image alone on its line, between the options and
		// the arguments of a docker run.
		image := !flag && docker && imageRefRE.MatchString(t)
		if len(out) > 0 && (flag || image) && len(out[len(out)-1]) < maxCommandBytes {
			out[len(out)-1] += " " + t
			continue
		}
		out = append(out, l)
		docker = dockerRunStartRE.MatchString(t[:min(len(t), 200)] + " ")
	}
	return out
}

// proseToolLine reports whether a prose line is a command of a tool no
// pack describes, pasted without a code fence: a tool name, a few
// arguments and long flags, and no sentence punctuation.
func proseToolLine(l string) bool {
	t := strings.TrimSpace(l)
	first, _, _ := strings.Cut(t, " ")
	if !anyProgramRE.MatchString(t) || notPrograms[first] || strings.ContainsAny(t, "?!") ||
		strings.Contains(t, ". ") || strings.Contains(t, ", ") {
		return false
	}
	return strings.Count(t, " --") >= 2 || len(strings.Fields(t)) <= 4
}

// bareSubcommandLine reports whether a prose line is exactly a known
// program, one of its subcommands and at most one model or path: "vllm
// serve facebook/opt-125m".
func bareSubcommandLine(l string, s *Schema) bool {
	w := strings.Fields(stripPrompt(l))
	if len(w) < 2 || len(w) > 3 {
		return false
	}
	p := s.program(w[0])
	if p == nil || !contains(p.Subcommands, w[1]) {
		return false
	}
	return len(w) == 2 || looksLikeModel(w[2]) || looksLikePath(w[2])
}

var quotedPartRE = regexp.MustCompile(`'[^']*'|"[^"]*"`)

// sentenceLike reports whether a line that starts with a program reads as
// a sentence rather than a command: outside quotes it has a sentence
// break (". ", ", ", ": ", "?"). "vllm serve but vllm reports that it
// could not load the model: --model x" is a sentence; a shell line is not.
func sentenceLike(l string) bool {
	t := quotedPartRE.ReplaceAllString(l, "''")
	return strings.Contains(t, ". ") || strings.Contains(t, ", ") || strings.Contains(t, ": ") || strings.Contains(t, "? ") || strings.HasSuffix(strings.TrimSpace(t), "?") ||
		cjkWordRE.MatchString(t)
}

// cjkWordRE is a word of Chinese, Japanese or Korean text after a blank:
// a sentence that starts with the command goes on in its own language
// ("vllm serve m --max-model-len 40960 を実行すると…", "vllm serve m
// --max-model-len 40960 을 실행하면 …"), whose words are no arguments.
// A path with such a name in it ("/data/模型/qwen") starts otherwise.
var cjkWordRE = regexp.MustCompile(`\s[` + cjkRunes + `]`)

// startsUpper reports whether w begins with a capital letter, as the
// sentence after a full stop does.
func startsUpper(w string) bool { return w != "" && w[0] >= 'A' && w[0] <= 'Z' }
