package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// positionOf returns where line (or its first words) occurs in the
// post's body. The whole line is looked for first, as written and then
// without formatting: lines that start alike (the same script run with
// other arguments, each behind the same launcher) would all be placed
// where the first of them stands. Its first words are looked for when
// the whole is not in the body as read (a line joined from a terminal's
// wraps, a shortened value).
func (d *document) positionOf(line string) int {
	full := strings.TrimSpace(line)
	head := full
	if len(head) > 40 {
		head = head[:40]
	}
	// The line may have been read without the Markdown around its words
	// (a model in bold inside a command typed as a sentence, a flag in a
	// code span, an escaped underscore) or joined from lines a
	// continuation mark ends: each key is looked for again with neither
	// side's marks and with blanks and line breaks as one space, in the
	// body so stripped once for the post.
	for _, key := range []string{full, head} {
		if i := strings.Index(d.src, key); i >= 0 {
			return i
		}
		k := stripFormatting(key, nil)
		if k == "" {
			continue
		}
		if !d.stripped {
			d.strippedSrc = stripFormatting(d.src, &d.strippedAt)
			d.stripped = true
		}
		if i := strings.Index(d.strippedSrc, k); i >= 0 {
			return d.strippedAt[i]
		}
	}
	return len(d.src)
}

// stripFormatting returns s without the characters Markdown's emphasis,
// code spans and escapes and shells' continuation marks add, each run of
// blanks and line breaks one space; at, when not nil, receives each kept
// byte's offset in s.
func stripFormatting(s string, at *[]int) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '`', '\\', '_', '^':
			continue
		case ' ', '\t', '\n', '\r':
			if space {
				continue
			}
			space = true
			b.WriteByte(' ')
			if at != nil {
				*at = append(*at, i)
			}
			continue
		}
		space = false
		b.WriteByte(s[i])
		if at != nil {
			*at = append(*at, i)
		}
	}
	return b.String()
}

var (
	shellAssignRE = regexp.MustCompile(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=([^\s'"$]+)\s*$`)
	// A quoted value, which may run over lines until its quote closes.
	shellQuotedAssignRE = regexp.MustCompile(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(["'])(.*)$`)
)

// withoutFullStop returns a line without the full stop that ends its
// sentence: "I set export MODEL=/data/Qwen2.5-32B." and "… --cpu-offload-gb
// 30." name the path and 30. A dot after a space or a slash is a word of
// its own ("pip install -e ."), and an ellipsis is no full stop.
func withoutFullStop(l string) string {
	t := strings.TrimRight(l, " \t")
	if n := len(t); n >= 2 && t[n-1] == '.' && isAlnum(t[n-2]) {
		return t[:n-1]
	}
	return l
}

// maxVarLines bounds the lines one quoted value may run over.
const maxVarLines = 40

// shellVars collects NAME=value lines, so that commands using $NAME or
// ${NAME} can be read with the values the post gave. A quoted value
// that holds a command's flags is one too, over as many lines as it
// runs and grown by later assignments that name it: launch scripts keep
// the server's flags in a variable and expand it into the command
// (`VLLM_ARGS="--limit-mm-per-prompt image=2 \` … `"` then
// `python3 -m vllm.entrypoints.openai.api_server ${VLLM_ARGS}`, corpus
// vllm-project/vllm#13143; `VLLM_ARGS="$VLLM_ARGS --enforce-eager"` line
// after line then `vllm serve $MODEL $VLLM_ARGS`, as many projects'
// cluster scripts build it).
func shellVars(doc *document) map[string]string {
	vars := map[string]string{}
	written := map[string]string{} // the flag values as written, for the values that name them
	lines := doc.lines()
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := shellAssignRE.FindStringSubmatch(withoutFullStop(l)); m != nil && !strings.HasPrefix(m[2], "-") {
			vars[m[1]], written[m[1]] = m[2], m[2]
			continue
		}
		m := shellQuotedAssignRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name, quote, rest := m[1], m[2], m[3]
		var parts []string
		closed := false
		for n := 0; n < maxVarLines; n++ {
			if end := closingQuote(rest, quote[0]); end >= 0 {
				parts = append(parts, rest[:end])
				closed = true
				break
			}
			parts = append(parts, strings.TrimSuffix(strings.TrimRight(rest, " \t"), "\\"))
			if i+1 >= len(lines) {
				break
			}
			i++
			rest = lines[i]
		}
		value := strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
		if quote == `"` {
			// What it held before, unset as empty, then the others;
			// an escaped quote is a quote.
			value = strings.TrimSpace(expandVars(value, map[string]string{name: written[name]}))
			value = strings.ReplaceAll(expandVars(value, written), `\"`, `"`)
		}
		if closed && value != "" && !strings.ContainsAny(value, " \t") && !strings.HasPrefix(value, "-") {
			// One quoted word, as scripts write a model's path or
			// id (`export MODEL_NAME="/models/MiniMax-M2.5"` then `vllm
			// serve $MODEL_NAME`, MiniMax-AI/MiniMax-M2.5#30).
			vars[name], written[name] = value, value
			continue
		}
		if closed && strings.HasPrefix(value, "-") {
			written[name] = value
			// Expanded, a word with double quotes reaches the program with
			// them ({"max_pixels":1000000}), so it is single-quoted for
			// the command's parser; single quotes around a JSON value
			// ('{"video": 0}') are read as the poster meant them.
			words := strings.Fields(value)
			for k, w := range words {
				if strings.Contains(w, `"`) && !strings.Contains(w, "'") {
					words[k] = "'" + w + "'"
				}
			}
			vars[name] = strings.Join(words, " ")
		}
	}
	return vars
}

// closingQuote returns the index in s of the quote q that closes a
// quoted value (a double quote escaped with a backslash does not), or -1.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// expandVars replaces $NAME and ${NAME} in line with the values vars
// gives; $NAMEX is another variable than $NAME.
func expandVars(line string, vars map[string]string) string {
	if len(vars) == 0 || !strings.Contains(line, "$") {
		return line
	}
	return varRefRE.ReplaceAllStringFunc(line, func(ref string) string {
		name := strings.Trim(ref, "${}")
		if v, ok := vars[name]; ok {
			return v
		}
		return ref
	})
}

// varRefRE is a shell variable's expansion, $NAME or ${NAME}.
var varRefRE = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)

// nonRunnerRE matches the start of a command that runs no program given
// to it: an export, or a package install.
var nonRunnerRE = regexp.MustCompile(`^\s*(?:sudo\s+)?(?:export\s|(?:uv\s+)?pip3?\s+install\s|python3?\s+-m\s+pip\s+install\s|conda\s+install\s)`)

// startsRun reports whether a line starts a run of one of the schema's
// programs: the program and one of its subcommands ("vllm serve"), or
// `python -m` and one of its modules, after any shell prompt and
// environment assignments (a command copied out of a terminal, as
// wrapped ones are, keeps both: "root@6aa49b1572ea:~/llm# CUDA_VISIBLE_DEVICES=1,2,3
// vllm serve … --sw" then "ap-space 8", vllm-project/vllm#16777).
func (s *Schema) startsRun(line string) bool {
	if s == nil {
		return false
	}
	words := strings.Fields(envPrefixRE.ReplaceAllString(stripPrompt(line), ""))
	// The program a wrapper or a launcher runs ("nohup env A=1 vllm
	// serve", "uv run vllm serve", "srun -N 1 python -m vllm…").
	for range 4 {
		if at := launchedAt(words, s); at >= 0 {
			words = words[at:]
			continue
		}
		if len(words) == 0 || !wrapperPrograms[words[0]] {
			break
		}
		words = stripWrappers(words)
		for len(words) > 0 && envPrefixRE.MatchString(words[0]+" ") {
			words = words[1:]
		}
	}
	if len(words) < 2 {
		return false
	}
	for _, p := range s.Programs {
		if words[0] == p.Name && slices.Contains(p.Subcommands, words[1]) {
			return true
		}
		if len(words) >= 3 && (words[0] == "python" || words[0] == "python3") && words[1] == "-m" {
			if _, ok := p.Modules[words[2]]; ok {
				return true
			}
		}
	}
	return false
}

// blockMarkerRE matches a line that is only a fold's tag: Discourse's
// BBCode ([details="Log"], [/details], [quote], [spoiler]) or GitHub's
// raw HTML (<details>, <summary>Log</summary>, </details>): formatting,
// never the rest of a command.
var blockMarkerRE = regexp.MustCompile(`(?i)^\s*(?:\[/?(?:details|quote|spoiler)(?:[= ][^\]]*)?\]|</?details\b[^>]*>|<summary\b[^>]*>.*</summary>|</?summary>)\s*$`)

// continued reports whether a line (without trailing blanks) goes on on
// the next one, and gives it without its continuation mark: a POSIX
// shell's backslash, or, after a blank, PowerShell's backtick and cmd's
// caret ("docker run --gpus all `" then "vllm/vllm-openai:latest `", as
// Windows guides and scripts of many projects run vLLM's image; "… ^").
func continued(t string) (string, bool) {
	if body, ok := strings.CutSuffix(t, "\\"); ok {
		return body, true
	}
	if len(t) > 2 && (t[len(t)-1] == '`' || t[len(t)-1] == '^') && (t[len(t)-2] == ' ' || t[len(t)-2] == '\t') {
		return t[:len(t)-1], true
	}
	return "", false
}

// joinContinuations joins lines that end in a continuation mark (continued) with the next one;
// a BBCode block tag ends the command instead, and so does a run of one
// of the schema's programs after an export or a package install
// ("uv pip install vllm==0.10.1 \" then "vllm serve m",
// vllm-project/vllm#22519; "export HF_HUB_OFFLINE=1 \" then "vllm serve
// m", #23684): neither runs what follows it, so the backslash is a slip
// of the paste, not one command.
func joinContinuations(lines []string, s *Schema) []string {
	var out []string
	var cur strings.Builder
	quoted := 0  // lines read inside an option's quoted JSON value, when > 0
	ini := false // cur is an INI command= value, which indented lines continue
	next := func(i int) string {
		if i+1 < len(lines) {
			return lines[i+1]
		}
		return ""
	}
	for i, l := range lines {
		t := strings.TrimRight(l, " \t")
		if quoted > 0 {
			// The value's lines are one word to the shell; JSON does not
			// mind a blank for each newline.
			cur.WriteString(strings.TrimSpace(t))
			closed := strings.Contains(t, "'")
			if !closed && quoted < maxVarLines && cur.Len() < maxCommandBytes {
				cur.WriteByte(' ')
				quoted++
				continue
			}
			quoted = 0
			if body, ok := continued(strings.TrimRight(cur.String(), " \t")); ok && closed {
				cur.Reset()
				cur.WriteString(body)
				cur.WriteByte(' ')
				continue
			}
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		if lead := strings.TrimLeft(t, " \t"); strings.Contains(t, "'") && openJSONArgRE.MatchString(t) && cur.Len() < maxCommandBytes &&
			(cur.Len() > 0 || startsNewRun(lead, s) || s.startsRun(lead)) {
			// "--speculative-config '{" with the JSON on the lines below
			// (vllm-ascend#5361), "curl … --data-raw '{" with the request
			// (corpus #21148, #4747): the quote runs on until it closes.
			cur.WriteString(lead)
			cur.WriteByte(' ')
			quoted = 1
			continue
		}
		if cur.Len() > 0 && blockMarkerRE.MatchString(t) {
			out = append(out, strings.TrimSpace(cur.String()), l)
			cur.Reset()
			continue
		}
		if cur.Len() > 0 && nonRunnerRE.MatchString(cur.String()) && s.startsRun(t) {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
		if body, ok := continued(t); ok && cur.Len() < maxCommandBytes {
			cur.WriteString(body)
			cur.WriteByte(' ')
			continue
		}
		if cur.Len() == 0 && supervisorCommandRE.MatchString(t) {
			// An INI value goes on over the indented lines under its
			// key: supervisord's "command=python -m … \n    --model m\n
			// --port 8000" is one command.
			ini = true
		}
		if ini && cur.Len() < maxCommandBytes && iniGoesOn(next(i)) {
			cur.WriteString(strings.TrimLeft(t, " \t"))
			cur.WriteByte(' ')
			continue
		}
		ini = false
		if cur.Len() > 0 {
			cur.WriteString(strings.TrimLeft(t, " \t"))
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		out = append(out, l)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// iniGoesOn reports whether an INI value goes on over the next line: one
// indented under its key, not blank.
func iniGoesOn(next string) bool {
	return strings.TrimSpace(next) != "" && (next[0] == ' ' || next[0] == '\t')
}

// openJSONArgRE is an option whose single-quoted JSON value the line
// opens and does not close: "--speculative-config '{", "-d '{\"model\":
// \"m\",".
var openJSONArgRE = regexp.MustCompile(`(?:^|\s)--?[\w.-]+(?:=|\s+)'[{\[][^']*$`)

// minWrappedRun is the shortest command line read as cut by a terminal's
// wrap: a terminal is at least 80 columns wide and a shell prompt takes
// at most about twenty of them, so a shorter line ended where its writer
// ended it.
const minWrappedRun = 60

// wrapTailRE is the rest of a command a terminal wrapped onto the next
// line: it starts inside a word (not with an indent, an option, a
// prompt, a comment, a log prefix, a path, a label or an assignment) and
// still sets an option.
var wrapTailRE = regexp.MustCompile(`^[^\s\-#$>(\[./][^\s:=]*\s(?:.*\s)?--[a-z]`)

// newRunRE is a line that starts another program, as people paste the
// client call, a second server or a script after a server's command
// line ("curl -s -X POST …" after `vllm serve`, vllm-project/vllm#17637;
// "python3 -m fastchat.serve.model_worker …" after the api_server, #2248;
// "python benchmark_serving.py …" after it, #4412; a launcher, see
// launchers): a new command, not the rest of the one above.
var newRunRE = regexp.MustCompile(`^(?:curl|wget|http|python[\d.]*|pip3?|uv|docker|podman|sudo|bash|sh|zsh|cd|env|nohup|time|torchrun|accelerate|deepspeed|ray|lm_eval|git|conda|source|export|echo|nvidia-smi|kubectl|helm|vllm|srun|timeout|numactl|taskset|nsys|apptainer|singularity|pixi|poetry|pipenv|uvx)\s`)

// startsNewRun reports whether a line of code starts a command of its
// own: a program newRunRE names, or one run through a launcher or after
// a tool's lone "--" ("distrobox enter vllm -- python3 -m …", see
// launchedAt).
func startsNewRun(l string, s *Schema) bool {
	if newRunRE.MatchString(l) {
		return true
	}
	words := strings.Fields(l)
	at := launchedAt(words, s)
	return at > 0 && newRunRE.MatchString(strings.Join(words[at:], " ")+" ")
}

// joinTerminalWraps joins a command line of a code block with the next
// line when a terminal's wrap, not its writer, broke it: a run of one of
// the schema's programs at least minWrappedRun long, ending inside a word
// (no space, no backslash), followed by a line that goes on inside that
// word, then sets options (wrapTailRE) and starts neither a program of
// its own (startsNewRun) nor a prompt (a theme's "➜  vllm git:(main) ✗
// vllm serve …" on the next line is the next command). Text copied out
// of tmux, screen or a web console keeps the
// wrap's newline: "--hos" then "t 0.0.0.0 --port 8011"
// (vllm-project/vllm#35603, twice in one command), "--model TheBlok"
// then "e/WizardLM-13B-V1.2-AWQ --quantization awq" (#1215). The halves
// are joined without a space, as the terminal showed them.
func joinTerminalWraps(lines []string, s *Schema) []string {
	out := make([]string, 0, len(lines))
	// cur is the line being built: it takes further wrapped halves while
	// it runs a program (runs, decided by its start, which joining does
	// not change) and stays under maxCommandBytes, so each byte is
	// copied once.
	var cur strings.Builder
	runs := 0 // 1: cur runs a program, -1: it does not, 0: not asked yet
	for i, l := range lines {
		if i > 0 {
			if cur.Len() >= minWrappedRun && cur.Len()+len(l) < maxCommandBytes &&
				!strings.ContainsAny(cur.String()[cur.Len()-1:], " \t\\") &&
				wrapTailRE.MatchString(l) && !startsNewRun(l, s) && stripPrompt(l) == l {
				if runs == 0 {
					runs = -1
					if s.startsRun(strings.TrimSpace(cur.String())) {
						runs = 1
					}
				}
				if runs == 1 {
					cur.WriteString(l)
					continue
				}
			}
			out = append(out, cur.String())
			cur.Reset()
			runs = 0
		}
		cur.WriteString(l)
	}
	if len(lines) > 0 {
		out = append(out, cur.String())
	}
	return out
}
