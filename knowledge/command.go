package knowledge

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// genericPrograms are recognised at the start of a line even when no pack
// describes them, because they wrap or install the programs packs do.
var genericPrograms = map[string]bool{
	"bash": true, "sh": true,
	"python": true, "python3": true, "docker": true, "podman": true, "pip": true,
	"pip3": true, "uv": true, "torchrun": true, "ray": true, "conda": true,
}

// promptRE strips shell prompts: "$ ", "% ", "# " (root), "(venv) $ ",
// "user@host:~$ ", with any number of environments before them ("(vllm)
// (base) root@host:~# ", a venv inside conda's base, vllm#18567), and
// the bracketed prompt of Red Hat's and Fedora's shells and toolbox
// containers ("(songdh) [root@localhost server_llm]# ", vllm#1784;
// "⬢ [user@toolbx dir]$ ", kyuz0/amd-strix-halo-vllm-toolboxes#24), and
// zsh's default on macOS, the directory after a space and "%" for "$"
// ("user@Users-MacBook-Pro vllm % docker run …", vllm#31870; bash
// themes write it with "$", robertrosenbusch/gfx803_rocm#6).
var promptRE = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s*)*(?:⬢\s*)?(?:[\w.-]+@[\w.-]+(?::[^\s$#%]*|\s+[^\s$#%@]{1,80})?\s*|\[[\w.-]+@[\w.-]+(?:\s[^\]\n]{0,120})?\]\s*)?[$%#>]\s+`)

// themedPromptRE strips the prompts of shell themes, which end in a
// glyph rather than "$": starship's and pure's "❯" after the directory
// and branch ("<repo_root> main ❯ bash …", a vllm-dev post; "✦ ❯ vllm
// serve …" and "❯ vllm serve …" in two projects' notes), oh-my-zsh's
// "➜  vllm git:(main) ✗", and "λ"; oh-my-zsh's after an environment as
// well ("(vllm-mirror) ➜  examples git:(main) ✗", vllm#7176).
var themedPromptRE = regexp.MustCompile(`^\s*(?:[^\n❯]{0,120}❯|(?:\([\w.-]+\)\s*)*➜\s+\S+(?:\s+git:\([^)\s]*\))?(?:\s+✗)?|λ)\s+`)

// shellPlaceholderRE is a placeholder written in angle brackets where a word
// goes ("vllm serve <model> --port 8000", "<path>/Qwen2.5-32B-Instruct",
// "bash <repo_root>/run.sh", "vllm serve <模型名称>"), as guides and
// posts that hide their paths write it. A shell would read redirections
// there and swallow the options after them, so it is quoted first.
var shellPlaceholderRE = regexp.MustCompile(`(^|[\s=/:])(<[^<>\s'"]{1,60}>)`)

// windowsPromptRE is the prompt of Windows' shells, where Docker Desktop
// users run vLLM's image: PowerShell's "PS C:\Users\me> " and cmd's
// "C:\Users\me>" (no space needed), after Anaconda Prompt's environments
// ("(base) PS C:\work> "). Guides and issues of many projects paste
// commands behind them (docker/getting-started#70, seerr-team/seerr#2557,
// briefercloud/briefer#7 show the shells' forms).
var windowsPromptRE = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s*)*(?:PS\s+)?[A-Za-z]:\\[^<>|"\n]{0,200}>\s*`)

// notebookEscapeRE is a notebook's way into the shell: IPython's "!" before
// a command in a Colab, Kaggle or Jupyter cell ("!vllm serve … --dtype
// half", "!pip install vllm==0.6.3"), its "%pip" and "%conda" magics, and
// Databricks' "%sh" (notebooks and notes of many projects run vLLM so,
// most on a T4). What follows the mark is the command.
var notebookEscapeRE = regexp.MustCompile(`^\s*(?:!\s*|%(?:sh|system)\s+|%(?:pip|conda)\s)`)

// xtraceRE is the mark bash's xtrace ("set -x") puts before each command
// it runs, one "+" a level of nesting: launch scripts and container
// entrypoints traced so print the engine's command line as they run it
// ("+ python3 -m vllm.entrypoints.openai.api_server --model …" in the
// logs of several deployments; "+ python app.py … --quantization awq",
// vllm-project/vllm#1282). A diff's added line reads the same and is the
// command as it now is.
var xtraceRE = regexp.MustCompile(`^\s*\+{1,4} +`)

// stripPrompt removes a shell prompt, or xtrace's mark, from the start of
// a line.
func stripPrompt(l string) string {
	l = xtraceRE.ReplaceAllString(l, "")
	if m := notebookEscapeRE.FindString(l); m != "" {
		if strings.HasPrefix(strings.TrimSpace(m), "%pip") || strings.HasPrefix(strings.TrimSpace(m), "%conda") {
			l = l[strings.Index(l, "%")+1:] // the magic is the program's name
		} else if rest := l[len(m):]; rest != "" && (isLetter(rest[0]) || rest[0] == '.' || rest[0] == '/' || rest[0] == '$') {
			l = rest
		}
	}
	l = windowsPromptRE.ReplaceAllString(l, "")
	return promptRE.ReplaceAllString(themedPromptRE.ReplaceAllString(l, ""), "")
}

// envPrefixRE matches leading NAME=value assignments.
// systemdExecRE is a systemd unit's ExecStart= key, with the prefixes
// systemd allows before the program ("-", "@", "+", "!"): self-hosted
// servers run vLLM as a service ("ExecStart=/usr/local/bin/vllm serve
// Qwen/Qwen2.5-32B-Instruct-AWQ \ --tensor-parallel-size 2", in
// deployment guides and install scripts of many projects).
var systemdExecRE = regexp.MustCompile(`^ExecStart=[-@+!:]*`)

// supervisorCommandRE is a supervisord program section's command= key
// (INI: spaces around "=" allowed), as deployment guides and setup
// scripts keep vLLM running under supervisor ("[program:vllm]" then
// "command=python -m vllm.entrypoints.openai.api_server --model …").
// The value is a program and a word after it, so a script's assignment
// ("command = f\"vllm serve …\"", "command = BASE + ARGS", "command =
// [\"vllm\", …]") is not read as the key.
var supervisorCommandRE = regexp.MustCompile(`^command[ \t]*=[ \t]*([\w./~-]+[ \t]+[-\w./~"'])`)

var envPrefixRE = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+`)

// maxCommandBytes bounds one logical command line; longer "lines" are logs.
const maxCommandBytes = 8 << 10

// extractCommands finds command lines in the title's code spans, code
// blocks, inline code spans, quoted phrases and bare prose lines, parses
// each with a real shell parser, and orders them by position in the post.
// Flags named in code spans that are not commands are returned apart.
func extractCommands(doc *document, s *Schema) ([]Command, map[string]string) {
	cs := &commandSet{doc: doc, s: s, seen: map[string]bool{}, vars: shellVars(doc)}
	for _, span := range doc.titleSpans {
		cs.add(span, false, -1)
	}
	cs.codeCommands()
	at := doc.positionOf
	for _, c := range apiCommands(strings.Join(doc.code, "\n")+"\n"+strings.Join(doc.prose, "\n"), s, at) {
		cs.addBuilt(c, false)
	}
	for _, c := range yamlEngineCommands(doc.code, s, at) {
		cs.addBuilt(c, false)
	}
	mentioned := cs.inlineCommands()
	cs.flagBlocks(mentioned)
	cs.proseCommands()
	addAbsent(mentioned, loggedArgs(doc))
	// argparse names the flag and the value it refused: "argument
	// --tool-call-parser: invalid choice: 'glm45'".
	for _, m := range argparseRE.FindAllStringSubmatch(doc.title+"\n"+doc.scanText(), 4) {
		if _, ok := mentioned[normFlag(m[1])]; !ok {
			mentioned[normFlag(m[1])] = m[2]
		}
	}
	out := cs.out
	withConfigFiles(doc, out, s)
	sort.SliceStable(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	if len(mentioned) == 0 {
		mentioned = nil
	}
	return out, mentioned
}

// withConfigFiles gives each command run with its program's config file
// (`vllm serve --config config.yaml`) the settings the post pastes that
// file with: a flat YAML mapping of the program's long option names to
// values, as vLLM's serve-args docs, deployment guides and recipes write
// one (`model: org/m`, `tensor-parallel-size: 2`, `enforce-eager: true`;
// vLLM's docs, a Chinese and a Korean deployment guide, vLLM's CPU
// recipes, all found with the search tool). The command line wins over
// the file, as it does for the program: a flag or a positional model
// already given is kept. False, null and nested settings set nothing.
func withConfigFiles(doc *document, cmds []Command, s *Schema) {
	files := map[string][]configFile{} // by file name, each block read once
	for i := range cmds {
		c := &cmds[i]
		p := s.program(c.Program)
		if p == nil || p.ConfigFlag == "" {
			continue
		}
		file, ok := c.Flags[p.ConfigFlag]
		if !ok || file == "" {
			continue
		}
		modelKey := strings.TrimLeft(p.ModelFlag, "-")
		name := path.Base(file)
		found, ok := files[name+"\x00"+modelKey]
		if !ok {
			found = configFiles(doc, name, modelKey)
			files[name+"\x00"+modelKey] = found
		}
		for _, kv := range configFileAt(found, c.pos) {
			flag := normFlag("--" + kv[0])
			if kv[0] == modelKey {
				if len(c.Args) > 0 {
					continue
				}
				flag = p.ModelFlag
			}
			if _, set := c.Flags[flag]; !set {
				c.Flags[flag] = kv[1]
			}
		}
	}
}

// configFile is a block of code read as a config file (configSettings).
type configFile struct {
	settings [][2]string
	named    bool // a comment in it names the file
	pos      int  // its position in the post
}

// configFiles returns the post's blocks of code that read as config
// files, in the order the post has them.
func configFiles(doc *document, file, modelKey string) []configFile {
	var out []configFile
	for _, block := range doc.code {
		if settings, named := configSettings(block, file, modelKey); settings != nil {
			out = append(out, configFile{settings: settings, named: named, pos: doc.positionOf(firstLine(block))})
		}
	}
	return out
}

// configFileAt returns the settings of the config file a command at pos
// reads: the one a comment names ("# config.yaml"), else the first after
// the command, else the last before it.
func configFileAt(files []configFile, pos int) [][2]string {
	var before, after [][2]string
	for _, f := range files {
		switch {
		case f.named:
			return f.settings
		case pos >= 0 && f.pos < pos:
			before = f.settings
		case after == nil:
			after = f.settings
		}
	}
	if after != nil {
		return after
	}
	return before
}

// firstLine returns the first line of s that is not blank.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

var (
	// configKeyRE is a top-level line of a flat YAML mapping: a long
	// option's name, a colon and its value (empty when a nested block or
	// a list follows).
	configKeyRE = regexp.MustCompile(`^([a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$`)
	// configNameRE is an option name as a config file writes it, with a
	// dash or an underscore between words.
	configNameRE = regexp.MustCompile(`[-_]`)
)

// configSettings reads a block of code as a program's config file: its
// top-level keys and values in order, or nil when the block is not one,
// and whether a comment names the file.
// It is one when every line is a key, a line indented under a key (whose
// nested setting is left out), a comment or blank; it names two or more
// settings; and it names the model (modelKey), or a comment names the
// file, or one of its keys is an option of several words
// ("max-model-len"). A Compose or Kubernetes file nests everything under
// "services:" or "spec:" and has no such top-level settings.
func configSettings(block, file, modelKey string) (settings [][2]string, fileNamed bool) {
	var out [][2]string
	named, optionLike := false, false
	for _, l := range strings.Split(block, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "#"):
			fileNamed = fileNamed || file != "" && strings.Contains(t, file)
			continue
		case l[0] == ' ' || l[0] == '\t' || strings.HasPrefix(t, "- "):
			if len(out) == 0 {
				return nil, false
			}
			out[len(out)-1][1] = "" // a nested block or list: no one value
			continue
		}
		m := configKeyRE.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil {
			return nil, false
		}
		out = append(out, [2]string{m[1], yamlValue(m[2])})
		named = named || m[1] == modelKey
		optionLike = optionLike || configNameRE.MatchString(m[1])
	}
	if len(out) < 2 || !named && !fileNamed && !optionLike {
		return nil, false
	}
	kept := out[:0]
	for _, kv := range out {
		v, set := settingValue(kv[1])
		if kv[1] == "" || kv[1] == "null" || kv[1] == "~" || !set {
			continue
		}
		kept = append(kept, [2]string{kv[0], v})
	}
	return kept, fileNamed
}

// loggedArgsRE is the line vLLM's server logs its arguments on at start
// ("non-default args: {'host': '0.0.0.0', 'max_model_len': 16384, …}",
// since 0.9), often all a post shows of how it was run.
var loggedArgsRE = regexp.MustCompile(`non-default args: \{(.*)`)

// loggedArgs returns the settings vLLM's start-up log says it ran with
// (loggedArgsRE), as flags: "--max-model-len" 16384, a True one set with
// no value. A posted log is often all a post shows
// of its command (nine corpus issues and two dev posts from different
// reporters); the settings are the engine's own, so they are the post's
// flags as a command's are. The positional model ("model_tag") is read
// as a model, not a flag; None and False (a feature switched off, which
// tags no topic), nested settings and lists of several are left out.
func loggedArgs(doc *document) map[string]string {
	out := map[string]string{}
	for _, l := range doc.lines() {
		m := loggedArgsRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, entry := range topLevelItems(m[1], '}') {
			name, v, ok := strings.Cut(entry, ":")
			name, v = strings.Trim(strings.TrimSpace(name), `'"`), strings.TrimSpace(v)
			if !ok || name == "model_tag" || !loggedNameRE.MatchString(name) {
				continue
			}
			if inner, ok := strings.CutPrefix(v, "["); ok && strings.HasSuffix(inner, "]") && !strings.Contains(inner, ",") {
				v = strings.TrimSuffix(inner, "]") // ['moe']
			}
			if v == "" || strings.ContainsAny(v[:1], "{[(") {
				continue // nested: no one feature the post uses
			}
			v, set := settingValue(v)
			if !set {
				continue
			}
			flag := normFlag("--" + name)
			if _, ok := out[flag]; !ok {
				out[flag] = v
			}
		}
	}
	return out
}

var loggedNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// settingValue reads a setting's value as a flag's, as vLLM's logged
// arguments and a harness's key=value list write it: true a switch set
// with no value, false and None a setting not set (set is false), any
// other value with its quotes dropped (a quoted 'True' is a string).
// Python prints True and False; lm-evaluation-harness reads either case.
func settingValue(v string) (value string, set bool) {
	switch {
	case strings.EqualFold(v, "true"):
		return "", true
	case strings.EqualFold(v, "false") || v == "None":
		return "", false
	}
	return strings.Trim(v, `'"`), true
}

// topLevelItems splits a Python dict's or list's body at its top-level
// commas, up to the bracket end that closes it, leaving nested dicts,
// lists, calls and strings whole.
func topLevelItems(body string, end byte) []string {
	var out []string
	depth, from := 0, 0
	quote := byte(0)
	for i := 0; i < len(body) && len(out) < 200; i++ {
		c := body[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == end && depth == 0:
			return append(out, body[from:i])
		case c == '{' || c == '[' || c == '(':
			depth++
		case c == '}' || c == ']' || c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, body[from:i])
			from = i + 1
		}
	}
	return append(out, body[from:])
}

// commandSet collects the command lines of one post, each once.
type commandSet struct {
	doc  *document
	s    *Schema
	out  []Command
	seen map[string]bool
	// vars are the shell variables the post sets, expanded in its lines.
	vars map[string]string
}

// add parses line and adds the commands it holds; pos -1 marks the
// title, anything else asks for the line's offset in the post.
func (cs *commandSet) add(line string, strictStart bool, pos int) bool {
	return cs.addParsed(line, strictStart, pos, false)
}

// addParsed is add; known keeps only the commands of programs the schema
// or genericPrograms names.
func (cs *commandSet) addParsed(line string, strictStart bool, pos int, known bool) bool {
	added := false
	for _, c := range parseCommandLine(expandVars(line, cs.vars), cs.s, strictStart) {
		if known && !cs.s.knownProgram(c.Program) {
			continue
		}
		key := c.String()
		if cs.seen[key] {
			continue
		}
		cs.seen[key] = true
		c.pos = pos
		if pos >= 0 {
			c.pos = cs.doc.positionOf(line)
		}
		cs.out = append(cs.out, c)
		added = true
	}
	return added
}

// addBuilt adds a command built from a string list or a Python call;
// known asks that its program be one a schema or genericPrograms names.
func (cs *commandSet) addBuilt(c Command, known bool) bool {
	key := c.String()
	if cs.seen[key] || known && !cs.s.knownProgram(c.Program) {
		return false
	}
	cs.seen[key] = true
	cs.out = append(cs.out, c)
	return true
}

// codeCommands adds the command lines of code blocks, and the string
// lists of Dockerfiles, Compose files and manifests in them.
func (cs *commandSet) codeCommands() {
	for _, block := range cs.doc.code {
		raw := strings.Split(block, "\n")
		lists, described := listCommands(block, cs.s)
		// The elements kubectl describe prints one a line are read
		// together as their command (listCommands), not each as a line
		// of its own: "python3" then "-m" is no command "python3".
		for _, i := range described {
			raw[i] = ""
		}
		lines := joinTerminalWraps(joinContinuations(withoutBlockScalars(joinStringRuns(foldYAMLItems(raw, cs.s))), cs.s), cs.s)
		for i, l := range lines {
			if pyAssignRE.MatchString(l) && !supervisorCommandRE.MatchString(l) || strings.Contains(l, "(") && pyRunCallRE.MatchString(l) {
				// Python, not a shell: a command is only what its string
				// holds.
				if c, ok := pythonCommandString(l, strings.Join(lines[:i], "\n"), cs.s); ok {
					n := len(cs.out)
					cs.add(c, false, 0)
					// Where the Python line stands: the string's text,
					// its fields filled, is not in the post as written.
					for k := n; k < len(cs.out); k++ {
						cs.out[k].pos = cs.doc.positionOf(l)
					}
				}
				continue
			}
			// A code line wrapped in a stray backtick: "`sudo docker run".
			cs.add(strings.Trim(l, "`"), false, 0)
		}
		for _, words := range lists {
			for _, c := range buildCommand(stripWrappers(words), nil, cs.s) {
				c.pos = cs.doc.positionOf(block)
				cs.addBuilt(c, true)
			}
		}
	}
}

var (
	// pyAssignRE is a Python assignment, spaced as Python is written
	// ("cmd = f\"vllm serve …\"", "MODEL = \"x\""), which a shell would
	// run as a program called like the name.
	pyAssignRE = regexp.MustCompile(`^\s*[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s+\+?=\s+\S`)
	// pyRunCallRE is a Python call that runs a shell command.
	pyRunCallRE = regexp.MustCompile(`^\s*(?:[\w.]+\s*=\s*)?(?:os\.system|subprocess\.(?:run|Popen|call|check_call|check_output))\(`)
	// pyStringRE is a string literal (an f-string's without its f).
	pyStringRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
	// pyFieldRE is a replacement field of an f-string: {MODEL_NAME}.
	pyFieldRE = regexp.MustCompile(`\{([A-Za-z_]\w*)\}`)
)

var (
	// pyOpenParenRE is a Python assignment that opens a parenthesis and
	// nothing more on its line: "command = (".
	pyOpenParenRE = regexp.MustCompile(`^(\s*[A-Za-z_][\w.]*\s*=\s*)\(\s*$`)
	// pyStringLineRE is a line holding one string literal, f-string or
	// not (pythonCommandString fills fields either way), and at most a
	// comment.
	pyStringLineRE = regexp.MustCompile(`^\s*f?("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*(?:#.*)?$`)
	// pyCloseParenRE is the line that closes it.
	pyCloseParenRE = regexp.MustCompile(`^\s*\)\s*(?:#.*)?$`)
)

// joinStringRuns joins a Python string that adjacent literals build
// inside parentheses, one a line, into one assignment: `command = (`,
// `"nohup vllm serve m --dtype auto "`, `"--tensor-parallel-size 2 "`,
// `)` then subprocess.Popen(command, shell=True) (corpus #13669; launch
// scripts of several projects write a long command so). The joined line
// takes the place of the first; the others are left blank.
func joinStringRuns(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		m := pyOpenParenRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(lines) && j-i <= maxVarLines; j++ {
			lit := pyStringLineRE.FindStringSubmatch(lines[j])
			if lit == nil {
				break
			}
			b.WriteString(lit[1][1 : len(lit[1])-1])
		}
		if j == i+1 || j >= len(lines) || !pyCloseParenRE.MatchString(lines[j]) {
			continue
		}
		if out == nil {
			out = slices.Clone(lines)
		}
		text := b.String()
		switch {
		case !strings.Contains(text, "'"):
			text = "'" + text + "'"
		case !strings.Contains(text, `"`):
			text = `"` + text + `"`
		default:
			text = strconv.Quote(text)
		}
		out[i] = m[1] + text
		for k := i + 1; k <= j; k++ {
			out[k] = ""
		}
		i = j
	}
	if out == nil {
		return lines
	}
	return out
}

// pythonCommandString reads the command a Python line builds as a string
// and runs (`cmd = f"vllm serve {MODEL} --port 8000"` then
// subprocess.Popen(cmd, shell=True); os.system("vllm serve …"), as
// launcher scripts of many projects start vLLM): the string's text, with
// the fields the script's constants above it fill (before) filled, when
// it runs a program the schema knows.
func pythonCommandString(line, before string, s *Schema) (string, bool) {
	lit := pyStringRE.FindString(line)
	if lit == "" {
		return "", false
	}
	text := lit[1 : len(lit)-1]
	if !s.startsRun(text) {
		return "", false
	}
	if strings.Contains(text, "{") {
		text = fillFields(text, constantsBefore(before))
	}
	return text, true
}

// fillFields fills the replacement fields of an f-string's text
// ({MODEL_NAME}) with the values of the script's constants (consts, as
// constantsBefore gives them), leaving the others as written.
func fillFields(text string, consts map[string]string) string {
	return pyFieldRE.ReplaceAllStringFunc(text, func(f string) string {
		if v, ok := consts[f[1:len(f)-1]]; ok {
			return unquoted(v)
		}
		return f
	})
}

// inlineCommands adds the command lines of code spans and returns the
// flags spans name without a command ("`--max-model-len 4096`").
func (cs *commandSet) inlineCommands() map[string]string {
	mentioned := map[string]string{}
	for _, span := range cs.doc.inline {
		// A code span that ran over several lines keeps its line-end
		// backslashes before what were newlines.
		span = spanContinuationRE.ReplaceAllString(span, " ")
		if !cs.add(span, false, 0) && strings.HasPrefix(strings.TrimSpace(span), "--") {
			for k, v := range parseArgs("", strings.Fields(span), nil, cs.s).Flags {
				mentioned[k] = v
			}
		}
	}
	return mentioned
}

// flagBlocks adds to mentioned, unless a code span named them first, the
// flags of code blocks that hold nothing but flags, one or more a line: a
// command's options pasted without its program ("--enable-eplb" then
// "--num-redundant-experts 32", vllm-project/vllm#18343;
// "--enable-auto-tool-choice \" then "--tool-call-parser hermes \",
// #22885); and the flags of argument lists whose key the post left out
// (argvLists). They are named, not set by a command the post shows, as a
// code span's are.
func (cs *commandSet) flagBlocks(mentioned map[string]string) {
	found := map[string]string{}
	for _, block := range cs.doc.code {
		if words := bareFlagLines(block); len(words) > 0 {
			maps.Copy(found, parseArgs("", words, nil, cs.s).Flags)
			continue
		}
		for _, words := range argvLists(block) {
			addAbsent(found, parseArgs("", words, nil, cs.s).Flags)
		}
		for _, l := range strings.Split(block, "\n") {
			// A variable that holds the server's extra options, as .env
			// files and launch scripts keep them ("VLLM_EXTRA_ARGS=
			// --gpu-memory-utilization 0.85" in many deployment guides;
			// "EXTRA_ARGS='--enable-auto-tool-choice --tool-call-parser
			// hermes'", syv-ai/qwen38-27b-rtx3090#19): the options are
			// set, for whichever command expands it. One that starts with
			// the model flag is a command already (parseCommandLine).
			if m := argsAssignRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil && cs.s.byModelFlag(m[1]) == nil {
				addAbsent(found, parseArgs("", strings.Fields(m[1]), nil, cs.s).Flags)
			}
		}
	}
	addAbsent(mentioned, found)
}

// bareFlagLines returns the words of a block whose every line starts with
// a flag, or nil.
func bareFlagLines(block string) []string {
	var words []string
	for _, l := range strings.Split(block, "\n") {
		l = withoutContinuation(l)
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, "--") {
			return nil
		}
		words = append(words, strings.Fields(l)...)
	}
	return words
}

// withoutContinuation returns a line without its blanks and the
// backslash a shell continues a line with.
func withoutContinuation(l string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "\\"))
}

// quotedItemsLineRE is a line that holds nothing but quoted strings, as
// an argument list written one or more elements a line does: JSON's
// exec form (`"--host=0.0.0.0", \`), a Python list's or tuple's strings,
// a shell array's; with the list's brackets, commas and a shell's
// continuation mark around them.
var quotedItemsLineRE = regexp.MustCompile(`^\s*[\[(]?\s*(?:(?:"(?:[^"\\]|\\.)*"|'[^']*')\s*,?\s*)+[\])]?\s*,?\s*\\?\s*$`)

// maxArgvWords bounds the words one argument list gives.
const maxArgvWords = 200

// argvLists returns the words of the argument lists in a block of code
// that start with a flag and have no key: the options of a Compose,
// Kubernetes or Docker file pasted without the "command:", "args:" or
// CMD that held them, as YAML items (`- "--reasoning-parser"` then
// `- "qwen3"`, vllm-project/vllm#26239) or as quoted strings one or more
// a line (`'--gpu-memory-utilization=0.90'` then
// `'--tensor-parallel-size=4'`, #17540). A list under a key or inside
// brackets that code opened (`command:`, `args: [ "--model", …`, `cmd =
// [`) is that key's, which listCommands reads when it is a command's; a
// list of one element, or one that starts with anything but a long
// option (a package list, a JSON array of strings), is no argument list.
// An element cut off by the end of an excerpt ("'--tensor-") ends the
// list before it. YAML items are read as yamlListWords reads them; a
// quoted string's words are split as the shell would split them
// unquoted, since people quote a whole option with its value
// ("--max-model-len 4096").
func argvLists(block string) [][]string {
	lines := strings.Split(block, "\n")
	opened := openedByCode(lines)
	var out [][]string
	keyed := false // the last line read, not an item, is a list's key
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || l[0] == '#' {
			continue
		}
		start, items := i, 0
		var words []string
		switch it := yamlItemRE.FindStringSubmatch(lines[i]); {
		case it != nil:
			for ; i < len(lines) && items < maxArgvWords; i++ {
				if yamlItemRE.MatchString(lines[i]) {
					items++
				} else if !strings.HasPrefix(strings.TrimSpace(lines[i]), "#") {
					break
				}
			}
			words = yamlListWords(lines[start:i], len(it[1]))
		case quotedItemsLineRE.MatchString(lines[i]):
			for ; i < len(lines) && len(words) < maxArgvWords; i++ {
				if bare := withoutContinuation(lines[i]); strings.HasPrefix(bare, "--") && !strings.ContainsAny(bare, `"'`) {
					// An option its writer forgot to quote, among
					// quoted ones (#17540).
					words = append(words, strings.Fields(bare)...)
					items++
					continue
				}
				if !quotedItemsLineRE.MatchString(lines[i]) {
					break
				}
				for _, m := range listItemRE.FindAllStringSubmatch(lines[i], -1) {
					w := m[1]
					if w == "" && m[2] != "" {
						w = m[2]
					}
					words = append(words, strings.Fields(strings.ReplaceAll(w, `\"`, `"`))...)
					items++
				}
			}
		default:
			keyed = yamlListKeyRE.MatchString(lines[i])
			continue
		}
		i-- // the line that ended the list is read next
		if !keyed && !opened[start] && items > 1 && strings.HasPrefix(words[0], "--") {
			out = append(out, words[:min(len(words), maxArgvWords)])
		}
		keyed = false
	}
	return out
}

// openedByCode reports for each line whether it stands inside brackets
// that a line of code opened rather than a list's own first element: the
// lines after `args: [ "--model", "m",` or `cmd = [` (vllm-project/vllm
// #11402, #15788, vllm-dev C3-007) belong to that key's list.
func openedByCode(lines []string) []bool {
	in := make([]bool, len(lines))
	depth, byCode := 0, false
	for i, l := range lines {
		in[i] = depth > 0 && byCode
		opens := strings.Count(l, "[") + strings.Count(l, "(")
		closes := strings.Count(l, "]") + strings.Count(l, ")")
		if depth == 0 && opens > closes {
			byCode = !quotedItemsLineRE.MatchString(l)
		}
		depth = max(0, depth+opens-closes)
	}
	return in
}

// addAbsent adds to dst the flags of src it does not name yet: what a
// post names first (a code span, a flags block) wins over what is read
// later.
func addAbsent(dst, src map[string]string) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v
		}
	}
}

// proseCommands adds commands written outside code: string lists of a
// Dockerfile or manifest pasted unfenced, command lines inside sentences
// or after labels, quoted commands and script runs.
func (cs *commandSet) proseCommands() {
	s, doc := cs.s, cs.doc
	lists, _ := listCommands(strings.Join(doc.prose, "\n"), s)
	for _, words := range lists {
		for _, c := range buildCommand(stripWrappers(words), nil, s) {
			cs.addBuilt(c, true)
		}
	}
	for _, l := range joinFlagLines(joinContinuations(doc.prose, cs.s)) {
		l = withoutFullStop(l)
		fromLine := len(cs.out)
		if starts := embeddedStarts(l, s); len(starts) > 0 && (starts[0] > 0 || sentenceLike(l)) {
			// A command inside a sentence or after a label: "Running
			// vllm serve x --max-model-len 4096 gives ...". The first
			// place that reads as a command is the command.
			for _, i := range starts {
				if cs.add(proseCommandWords(quotedTail(l, i), s), true, 0) {
					break
				}
			}
		} else if !cs.add(l, true, 0) && (proseToolLine(l) || bareSubcommandLine(l, s)) {
			cs.add(l, false, 0)
		}
		// In prose, quotes hold messages as often as commands, and
		// messages name flags: "\"auto\" tool choice requires
		// --enable-auto-tool-choice" runs no program "tool".
		// A traceback frame quotes a file ("File \".../bin/vllm\", line
		// 5"), which names a program and runs nothing.
		if !frameRE.MatchString(l) {
			for _, m := range quotedRE.FindAllStringSubmatch(l, 4) {
				// A phrase that stops inside a single-quoted word
				// ("--limit-mm-per-prompt '{" of a command quoted whole
				// around a JSON value) is not the command; the reader
				// above reads it whole.
				if strings.Count(m[1], "'")%2 == 0 {
					cs.addParsed(m[1], false, 0, true)
				}
			}
		}
		// "I ran bash scripts/run_7b.sh, which fails": a script run
		// named in the middle of a sentence, unless the line's command
		// read above already runs it (with its options).
		for _, m := range scriptRunRE.FindAllString(l, 2) {
			if !runsScript(cs.out[fromLine:], strings.Fields(m)) {
				cs.add(m, false, 0)
			}
		}
	}
}

// runsScript reports whether one of cmds runs the script run names: the
// same interpreter (by its base name) with the script as its first
// argument.
func runsScript(cmds []Command, run []string) bool {
	if len(run) < 2 {
		return false
	}
	return slices.ContainsFunc(cmds, func(c Command) bool {
		return path.Base(c.Program) == path.Base(run[0]) && len(c.Args) > 0 && c.Args[0] == run[len(run)-1]
	})
}

// quotedTail returns the line from a command's start at i, ending at the
// closing quote when the command opens a quotation: in `I launched "vllm
// serve m --port 8000" and then got an error` the command is the quoted
// part, and the rest of the sentence is no arguments of it (zai-org/GLM-V#8
// glued the closing quote to its last argument; vllm-dev B066 quotes its
// command with spaces inside the quotes). A double quote inside single
// quotes (a JSON value: '{"image":32}') is part of the command. A command
// a log prints as a bracketed list ends at the bracket that closes it
// ("With image: vllm/vllm-openai:v0.12.0, arguments: [vllm serve m
// --max-model-len 8192 …]", GPUStack's worker log in gpustack/gpustack#3707
// and #3835); brackets inside it (a JSON list's value) nest.
func quotedTail(l string, i int) string {
	before := strings.TrimRight(l[:i], " \t")
	if strings.HasSuffix(before, "[") {
		depth, single := 0, false
		for j, r := range l[i:] {
			switch {
			case r == '\'':
				single = !single
			case single:
			case r == '[':
				depth++
			case r == ']' && depth == 0:
				return l[i : i+j]
			case r == ']':
				depth--
			}
		}
		return l[i:]
	}
	if !strings.HasSuffix(before, `"`) && !strings.HasSuffix(before, "“") && !openQuote(before) {
		return l[i:]
	}
	single := false
	for j, r := range l[i:] {
		switch {
		case r == '\'':
			single = !single
		case !single && (r == '"' || r == '”'):
			return l[i : i+j]
		}
	}
	return l[i:]
}

// openQuote reports whether s leaves a double quotation open: a command
// that starts inside one runs to its closing quote, wherever in the
// quotation it starts, setup steps before it (`bash -c "cd / && python3
// -m vllm.entrypoints.openai.api_server --port 80"` in a one-line code
// span, opea-project/GenAIComps#336; a Chinese Slurm note's "运行命令:
// bash -c "source …/conda.sh && conda activate env && tool …"" in
// prose). Double quotes inside single quotes (a JSON value) do not
// count, nor does an apostrophe between letters open single quotes.
func openQuote(s string) bool {
	open, single := false, false
	prev := ' '
	for i, r := range s {
		// An apostrophe between letters ("don't") quotes nothing.
		apostrophe := r == '\'' && unicode.IsLetter(prev) && i+1 < len(s) && unicode.IsLetter(rune(s[i+1]))
		prev = r
		switch {
		case r == '\'' && !open && !apostrophe:
			single = !single
		case single:
		case r == '"':
			open = !open
		case r == '“':
			open = true
		case r == '”':
			open = false
		}
	}
	return open
}

var spanContinuationRE = regexp.MustCompile(`\\[ \t]+`)

var argparseRE = regexp.MustCompile(`\bargument (--[\w-]+)(?:/-[\w-]+)?: invalid (?:choice|\w+ value): '([^']*)'`)

// scriptRunRE finds an interpreter running a script inside a sentence,
// its path perhaps hidden behind a placeholder ("bash
// <repo_root>/vllm_infer/run_vllm_server.sh", a vllm-dev post).
var scriptRunRE = regexp.MustCompile(`\b(?:bash|sh|python3?|torchrun)\s+(?:<[^<>\s]{1,60}>|[\w./~-])+\.(?:sh|py)\b`)

// quotedRE finds phrases in double quotes, where posts often put commands:
// I ran - " vllm serve m --tp 8 ".
var quotedRE = regexp.MustCompile(`["“]\s*([^"“”]{6,600}?)\s*["”]`)

// setupStepRE is a step a command line takes before its program and
// joins to it with "&&" or ";": changing directory, reading a profile,
// activating an environment, loading a module, setting a variable ("cd
// %s && source .venv/bin/activate && vllm serve …", "source /etc/profile
// && vllm serve /data/DeepSeek-R1 …" in a bug report, "export
// VLLM_USE_MODELSCOPE=true && vllm serve …", "NAME='Llama-3-70B-Instruct'
// && python -m vllm.entrypoints.openai.api_server …", vllm#6228;
// "GPU_COUNT=$(nvidia-smi --list-gpus | wc -l) && vllm serve …"). The
// first group is an exported assignment, the second a variable set.
var setupStepRE = regexp.MustCompile(`^(?:(?:cd|source|\.|set|conda\s+activate|module\s+load)\s[^&;|]*?|export\s+([A-Za-z_][A-Za-z0-9_]*=[^&;|\s]*)|([A-Za-z_][A-Za-z0-9_]*=(?:\$\([^()]*\)|'[^']*'|"[^"]*"|[^\s&;|'"]*)))\s*(?:&&|;)\s*`)

// stripSetupSteps removes the setup steps (setupStepRE) before a line's
// program; an exported variable becomes part of the program's
// environment, as the shell passes it.
func stripSetupSteps(line string) string {
	var env []string
	for range 6 {
		m := setupStepRE.FindStringSubmatchIndex(line)
		if m == nil || m[1] == len(line) {
			break
		}
		if m[2] >= 0 {
			env = append(env, line[m[2]:m[3]])
		}
		line = line[m[1]:]
	}
	if len(env) == 0 {
		return line
	}
	return strings.Join(env, " ") + " " + line
}

// parseCommandLine parses one logical line. It returns nothing unless the
// line starts (after a prompt and environment assignments) with a program
// the schema knows or a generic wrapper such as python or docker.
func parseCommandLine(line string, s *Schema, strictStart bool) []Command {
	if len(line) > maxCommandBytes {
		return nil
	}
	line = strings.TrimSpace(stripPrompt(line))
	line = systemdExecRE.ReplaceAllString(line, "")
	line = supervisorCommandRE.ReplaceAllString(line, "$1")
	line = stripSetupSteps(line)
	if m := argsAssignRE.FindStringSubmatch(line); m != nil {
		line = m[1] // ENGINE_ARGS=--model x --tp 2
	}
	if line == "" {
		return nil
	}
	// A line of bare engine arguments (a compose file's command, a
	// container's args) belongs to the program whose model flag starts it.
	if p := s.byModelFlag(line); p != nil {
		sub := ""
		if len(p.Subcommands) > 0 {
			sub = p.Subcommands[0]
		}
		line = strings.TrimSpace(p.Name + " " + sub + " " + line)
	}
	rest := envPrefixRE.ReplaceAllString(line, "")
	// Wrappers, launchers and assignments may alternate ("A=1 nohup env
	// B=2 vllm …", "nohup uv run vllm serve …"); the assignments are all
	// the command's environment.
	for range 4 {
		w := strings.Fields(rest)
		at := launchedAt(w, s)
		if len(w) <= 1 || !wrapperPrograms[w[0]] && at < 0 {
			break
		}
		env := strings.TrimSpace(line[:len(line)-len(rest)])
		var stripped string
		switch {
		case at >= 0 && w[at] == "-m":
			stripped = "python " + strings.Join(w[at:], " ")
		case at >= 0:
			stripped = strings.Join(w[at:], " ")
		default:
			stripped = strings.Join(stripWrappers(w), " ")
		}
		line = strings.TrimSpace(env + " " + stripped)
		rest = envPrefixRE.ReplaceAllString(line, "")
	}
	first, after, _ := strings.Cut(rest, " ")
	if second, _, _ := strings.Cut(strings.TrimSpace(after), " "); strings.HasSuffix(first, ":") || strings.HasSuffix(second, ":") {
		return nil // "vllm serve: error: argument --x: invalid", a message
	}
	if strings.HasPrefix(strings.TrimSpace(after), "|") {
		// Docker Compose's log prefix, the service's name and a bar
		// ("vllm  | (APIServer pid=7) Traceback …", vllm#24297, #23259;
		// "vllm-service  | INFO …", opea-project/GenAIExamples#2068): a
		// program piped on with no arguments runs nothing to report.
		return nil
	}
	if strings.HasSuffix(first, "/") {
		return nil // a directory ("vllm/", a vendored copy), not a program
	}
	prog := path.Base(first)
	second, _, _ := strings.Cut(strings.TrimSpace(after), " ")
	if tp, _ := s.tool(prog, second); !s.knownProgram(prog) && tp == nil {
		// In code, any tool invoked with long flags is a command.
		if strictStart || !anyProgramRE.MatchString(rest) || notPrograms[prog] {
			return nil
		}
	}
	// A bare prose line only counts as a command when it carries flags:
	// "vllm serve fails when I add a LoRA" is a sentence, not a command.
	if strictStart && !strings.Contains(rest, " -") {
		return nil
	}
	calls, envs := shellCalls(line, rest)
	var out []Command
	for i, words := range calls {
		if len(words) == 0 || isVersionQuery(words) || isListingRow(words) || isStatement(words) {
			continue
		}
		if p := path.Base(words[0]); !s.knownProgram(p) && (i > 0 || !anyProgramRE.MatchString(strings.Join(words, " "))) {
			continue // "| tee log.txt" and the like
		}
		out = append(out, buildCommand(words, envs[i], s)...)
	}
	return out
}

// shellCalls splits a command line into its simple commands (a pipeline
// or list has several) with their variable assignments, parsed as bash;
// prose that breaks shell quoting ("don't") falls back to the fields of
// rest, the line without its environment prefix.
func shellCalls(line, rest string) (calls [][]string, envs []map[string]string) {
	line = shellPlaceholderRE.ReplaceAllString(line, "$1'$2'")
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		env := map[string]string{}
		for _, m := range strings.Fields(envPrefixRE.FindString(line)) {
			k, v, _ := strings.Cut(m, "=")
			env[k] = v
		}
		return [][]string{strings.Fields(rest)}, []map[string]string{env}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		words := make([]string, 0, len(call.Args))
		for _, w := range call.Args {
			words = append(words, wordString(w))
		}
		env := map[string]string{}
		for _, a := range call.Assigns {
			if a.Name != nil {
				v := ""
				if a.Value != nil {
					v = wordString(a.Value)
				}
				env[a.Name.Value] = v
			}
		}
		calls = append(calls, words)
		envs = append(envs, env)
		return false
	})
	return calls, envs
}

var (
	argsAssignRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=["']?(--\S.*?)["']?$`)
	// anyProgramRE: a lower-case tool name, maybe a subcommand and
	// arguments, and at least one long flag.
	anyProgramRE = regexp.MustCompile(`^[a-z][a-z0-9_.-]{1,30}(?:\s+[^\s-]\S*){0,4}\s+--[a-z]`)
	notPrograms  = map[string]bool{"error": true, "warning": true, "info": true, "debug": true, "usage": true,
		"note": true, "at": true, "from": true, "import": true, "def": true, "return": true, "raise": true,
		"args": true, "with": true, "and": true, "the": true, "if": true, "for": true, "then": true,
		"use": true, "try": true, "set": true, "add": true, "run": true, "pass": true, "using": true, "enable": true,
		"disable": true, "when": true, "but": true, "i": true, "we": true, "you": true, "it": true, "this": true, "my": true}
)

// wordString renders a shell word as the program would receive it, keeping
// expansions it cannot evaluate in their source form.
func wordString(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		writeWordPart(&b, p)
	}
	return b.String()
}

func writeWordPart(b *strings.Builder, p syntax.WordPart) {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(p.Value)
	case *syntax.SglQuoted:
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			writeWordPart(b, q)
		}
	default:
		var sb strings.Builder
		if err := syntax.NewPrinter().Print(&sb, p); err == nil {
			b.WriteString(sb.String())
		}
	}
}

// dockerBoolFlags are the options of docker run and podman run that take
// no value (their reference pages); dockerBool also knows their grouped
// short forms.
var dockerBoolFlags = map[string]bool{
	"--rm": true, "-d": true, "--detach": true, "-i": true, "-t": true,
	"--privileged": true, "--init": true, "--interactive": true, "--tty": true, "-P": true,
	"--publish-all": true, "--read-only": true, "--no-healthcheck": true,
	"--oom-kill-disable": true, "-q": true, "--quiet": true,
	// podman run's own.
	"--replace": true, "--rmi": true, "--read-only-tmpfs": true, "--no-hosts": true,
	"--env-host": true,
}

// dockerShortGroupRE is a group of docker run's single-letter switches
// ("-it", "-dit", "-itd").
var dockerShortGroupRE = regexp.MustCompile(`^-[dit]{2,3}$`)

// dockerBool reports whether the container runtime's option a takes no
// value. next is the word after it: an option ("--replace --name x",
// podman's; "-itd --gpus …") is never a value, whatever the option, so an
// option this list lacks does not swallow the next (vllm-project/vllm#17609,
// #34573).
func dockerBool(a, next string) bool {
	if dockerBoolFlags[a] || dockerShortGroupRE.MatchString(a) {
		return true
	}
	return isFlagWord(next)
}

// buildCommand turns the words of one simple command into Commands: the
// command itself and, for `python -m` and container runs, the program
// they wrap.
func buildCommand(words []string, env map[string]string, s *Schema) []Command {
	name := path.Base(words[0])
	args := words[1:]
	isPython := name == "python" || name == "python3" || strings.HasPrefix(name, "python3.")
	if isPython {
		args = skipInterpreterOptions(args)
	}
	switch {
	case isPython && len(args) >= 2 && args[0] == "-m":
		if p, sub := s.module(args[1]); p != nil {
			return []Command{runAs(p, sub, args[2:], env, "python -m "+args[1], s)}
		}
		c := parseArgs(args[1], args[2:], nil, s)
		c.Env = nonEmpty(env)
		c.Via = "python -m"
		return harnessed(c, s)
	case (name == "docker" || name == "podman") && len(args) > 0 && args[0] == "run":
		return dockerRun(name, args[1:], env, s)
	case (name == "apptainer" || name == "singularity") && len(args) > 1 && args[0] == "run":
		// A cluster's container runtime running an image straight from
		// Docker's registry runs its entrypoint with the arguments after
		// it, as docker run does ("apptainer run --nv
		// docker://vllm/vllm-openai --model … --max-model-len 50000", a
		// SLURM helper script; HPC projects pull vLLM's image so). The
		// runtime's own options (--nv, -B) set nothing of the server's.
		for i, a := range args[1:] {
			if image, ok := strings.CutPrefix(a, "docker://"); ok && image != "" {
				return dockerRun(name, append([]string{image}, args[i+2:]...), env, s)
			}
		}
	case (name == "bash" || name == "sh") && len(args) >= 2 && shellScriptOption(args[0]):
		// A shell given its script on the command line, as containers
		// start servers ("docker run … /bin/bash -c \"pip install vllm &&
		// vllm serve …\"", a Kubernetes command ["/bin/sh", "-c", "…"]):
		// the script's commands are the ones that run, with the
		// shell's environment and under the shell's wrapper. A script nests
		// another only by escaping its quotes, so the depth stays small.
		if cmds := scriptCommands(args[1], s); len(cmds) > 0 {
			for i := range cmds {
				for k, v := range env {
					if _, ok := cmds[i].Env[k]; !ok {
						if cmds[i].Env == nil {
							cmds[i].Env = map[string]string{}
						}
						cmds[i].Env[k] = v
					}
				}
			}
			return cmds
		}
	}
	if len(args) > 0 {
		if p, sub := s.tool(name, args[0]); p != nil {
			c := runAs(p, sub, args[1:], env, name+" "+args[0], s)
			c.tool = true
			return []Command{c}
		}
	}
	p := s.program(name)
	c := parseArgs(name, args, p, s)
	c.Env = nonEmpty(env)
	if p == nil {
		return harnessed(c, s)
	}
	return []Command{c}
}

// runAs is the command of program p's subcommand sub (unless the
// arguments name another) that another command ran with p's own
// arguments: `python -m vllm.entrypoints.openai.api_server …`, `trl
// vllm-serve …`, named by via.
func runAs(p *Program, sub string, args []string, env map[string]string, via string, s *Schema) Command {
	c := parseArgs(p.Name, args, p, s)
	if c.Subcommand == "" {
		c.Subcommand = sub
	}
	c.Env = nonEmpty(env)
	c.Via = via
	return c
}

// scriptCommands returns the commands of a shell script given on a
// command line: those of its line as a command line, or, when the line
// starts with a command no program names ("rm -rf /dev/shm/… && pip
// install -U transformers && python3 -m vllm.entrypoints.openai.api_server
// …", zai-org/Open-AutoGLM#133), those of its later commands that run a
// program the schema knows.
func scriptCommands(script string, s *Schema) []Command {
	if cmds := parseCommandLine(script, s, false); len(cmds) > 0 {
		return cmds
	}
	if len(script) > maxCommandBytes {
		return nil
	}
	calls, envs := shellCalls(script, script)
	var out []Command
	for i, words := range calls {
		if len(words) > 0 && s.knownProgram(path.Base(words[0])) && !isVersionQuery(words) {
			out = append(out, buildCommand(words, envs[i], s)...)
		}
	}
	return out
}

// shellScriptOption reports whether a shell's option takes the script
// as its next argument: "-c", alone or grouped with single-letter
// options ("-lc" for a login shell, "-ec", "-xc").
func shellScriptOption(a string) bool {
	return len(a) >= 2 && len(a) <= 5 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c")
}

// harnessed returns c and, when c is a harness selecting a pack's
// program (Schema.harness), the program's command the harness runs:
// its key=value list read as flags as an API call's keywords are
// (True a switch, False and None unset), the model key as the model
// flag. c keeps every flag as written, the two the harness read among
// them: it is the command the post ran.
func harnessed(c Command, s *Schema) []Command {
	p, h := s.harness(c)
	if p == nil {
		return []Command{c}
	}
	inner := Command{Program: p.Name, Subcommand: h.Subcommand, Flags: map[string]string{}, Env: c.Env, Via: c.Program, harness: true}
	argsFlag := normFlag(h.Args)
	for _, item := range topLevelItems(c.Flags[argsFlag], '}') {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || !loggedNameRE.MatchString(k) {
			continue
		}
		v, set := settingValue(v)
		if !set {
			continue
		}
		flag := normFlag("--" + k)
		if k == h.ModelKey && p.ModelFlag != "" {
			flag = p.ModelFlag
		}
		inner.Flags[flag] = v
	}
	return []Command{c, inner}
}

// skipInterpreterOptions drops the options Python's own command line
// takes before "-m module" ("python -u -m vllm.entrypoints…", "python3 -O
// -m …", "-X dev", "-W ignore"), which say how the interpreter runs, not
// what: the module after them is the program. Anything else is left as
// it is.
func skipInterpreterOptions(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "-W" || a == "-X":
			if len(args) < 2 {
				return args
			}
			args = args[2:]
		case strings.HasPrefix(a, "-W") || strings.HasPrefix(a, "-X") || pythonSwitchesRE.MatchString(a):
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

// pythonSwitchesRE is a group of Python's switches without arguments
// ("-u", "-OO", "-Bu"); "-m" and "-c" end the interpreter's options.
var pythonSwitchesRE = regexp.MustCompile(`^-[bBdEiIOPqsSuvx]+$`)

func dockerRun(name string, args []string, env map[string]string, s *Schema) []Command {
	c := Command{Program: name, Subcommand: "run", Flags: map[string]string{}, Env: nonEmpty(env)}
	i := 0
	for i < len(args) {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if k, v, ok := strings.Cut(a, "="); ok {
			c.Flags[normFlag(k)] = v
			i++
			continue
		}
		if i+1 >= len(args) || dockerBool(a, args[i+1]) {
			c.Flags[normFlag(a)] = ""
			i++
			continue
		}
		k := normFlag(a)
		if old, ok := c.Flags[k]; ok && old != "" {
			c.Flags[k] = old + "," + args[i+1]
		} else {
			c.Flags[k] = args[i+1]
		}
		if k == "-e" || k == "--env" {
			ek, ev, _ := strings.Cut(args[i+1], "=")
			if c.Env == nil {
				c.Env = map[string]string{}
			}
			c.Env[ek] = ev
		}
		i += 2
	}
	if i >= len(args) {
		return []Command{c}
	}
	image := args[i]
	c.Args = append(c.Args, image)
	rest := args[i+1:]
	out := []Command{c}
	if ep := strings.Fields(c.Flags["--entrypoint"]); len(ep) > 0 {
		// The entrypoint chosen on the command line runs with the
		// arguments after the image, whatever the image's own would:
		// a shell given a script ("--entrypoint /bin/bash
		// vllm/vllm-openai:v0.12.0 -c \"pip install … && python3 -m
		// vllm.entrypoints.openai.api_server …\"", zai-org/Open-AutoGLM#133;
		// "-lc", launch scripts of many projects), or nothing to run
		// but an interactive shell (a post that then runs vllm serve
		// inside it).
		if len(rest) > 0 {
			for _, ic := range buildCommand(append(ep, rest...), c.Env, s) {
				if ic.Via == "" {
					ic.Via = name
				}
				out = append(out, ic)
			}
		}
		return out
	}
	if p, sub := s.image(image); p != nil {
		inner := rest
		if len(inner) > 0 && path.Base(inner[0]) == p.Name {
			inner = inner[1:]
		}
		ic := parseArgs(p.Name, inner, p, s)
		if ic.Subcommand == "" {
			ic.Subcommand = sub
		}
		ic.Env = c.Env
		ic.Via = name
		out = append(out, ic)
	} else if len(rest) > 0 && !isFlagWord(rest[0]) {
		// An image no pack knows runs its own entrypoint: arguments
		// that start with an option name no program ("docker run …
		// substratusai/vllm-gh200:v0.8.3 --model m", vllm-project/vllm#18390),
		// as in a manifest's argument list (withProgram).
		for _, ic := range buildCommand(rest, nil, s) {
			if ic.Via == "" {
				ic.Via = name
			}
			out = append(out, ic)
		}
	}
	return out
}

// parseArgs splits args into subcommand, positional arguments and flags.
func parseArgs(program string, args []string, p *Program, s *Schema) Command {
	c := Command{Program: program, Flags: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			c.Args = append(c.Args, args[i+1:]...)
			break
		}
		if isElision(a) {
			continue // "vllm serve ... --enforce-eager": what the writer left out
		}
		if !isFlagWord(a) {
			if c.Subcommand == "" && len(c.Args) == 0 && p != nil && contains(p.Subcommands, a) {
				c.Subcommand = a
				continue
			}
			c.Args = append(c.Args, a)
			continue
		}
		k, v, hasValue := strings.Cut(a, "=")
		k = normFlag(k)
		if p != nil {
			if long, ok := p.Aliases[k]; ok {
				k = long
			}
		}
		if hasValue {
			c.Flags[k] = v
			continue
		}
		if i+1 < len(args) && p.isBoolean(k) && (strings.EqualFold(args[i+1], "true") || strings.EqualFold(args[i+1], "false")) {
			c.Flags[k] = strings.ToLower(args[i+1]) // --enable-chunked-prefill true
			i++
			continue
		}
		if p.isBoolean(k) || pipSwitch(program, k) || i+1 >= len(args) {
			c.Flags[k] = ""
			continue
		}
		next := args[i+1]
		if isFlagWord(next) {
			c.Flags[k] = ""
			continue
		}
		if isElision(next) {
			c.Flags[k] = "" // "--model ...": set, to a value left out
			i++
			continue
		}
		c.Flags[k] = next
		i++
	}
	return c
}

// pipSwitches are pip's install options that take no value (pip's
// reference: pip install and its general options; uv pip takes the same).
// pip is no program of a pack, so without them an option before the
// package takes the package for its value: the installation template's
// "pip install -vvv vllm" (vllm-dev C2-021, corpus #3827, #5631 and four
// more), "pip install -U vllm" (#9515), "uv pip install --pre
// vllm==0.10.1+gptoss" (#22519).
var pipSwitches = map[string]bool{
	"-U": true, "--upgrade": true, "--pre": true, "--user": true, "--no-deps": true,
	"--force-reinstall": true, "--no-cache-dir": true, "--no-build-isolation": true,
	"--break-system-packages": true, "-I": true, "--ignore-installed": true,
	"--verbose": true, "--quiet": true, "--isolated": true, "--no-index": true,
	"--system": true,
}

// pipVerbosityRE is pip's -v and -q, repeated for more ("-vvv").
var pipVerbosityRE = regexp.MustCompile(`^-(?:v+|q+)$`)

// pipSwitch reports whether flag is a switch of pip's (or uv's, whose
// "uv pip" takes pip's options).
func pipSwitch(program, flag string) bool {
	switch program {
	case "pip", "pip3", "uv":
		return pipSwitches[flag] || pipVerbosityRE.MatchString(flag)
	}
	return false
}

// isElision reports whether a word is an ellipsis, three or more dots or
// "…": guides, design notes and posts write "vllm serve ... --flag" for
// the arguments they leave out, which are no model and no value.
func isElision(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if r != '.' && r != '…' {
			return false
		}
	}
	return w != "." && w != ".."
}

// normFlag normalises a long flag: lower case, underscores to dashes.
// Short flags are kept as written.
func normFlag(f string) string {
	if rest, ok := strings.CutPrefix(f, "--"); ok {
		return "--" + strings.ReplaceAll(strings.ToLower(rest), "_", "-")
	}
	return f
}

// pythonName returns a long flag's name as Python keywords and YAML keys
// write the same setting: --max-model-len is max_model_len (normFlag of
// "--" and the name goes back).
func pythonName(flag string) string {
	return strings.ReplaceAll(strings.TrimLeft(flag, "-"), "-", "_")
}

// NormalizeFlag is normFlag for callers outside the package (bench labels).
func NormalizeFlag(f string) string { return normFlag(f) }

func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	dot := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func nonEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// isVersionQuery reports whether a command only asks for a version
// ("vllm -v", "python --version"); such lines are read for versions, not
// kept as commands.
func isVersionQuery(words []string) bool {
	if len(words) != 2 {
		return false
	}
	switch words[1] {
	case "-v", "-V", "--version", "version":
		return true
	}
	return false
}

// isListingRow reports whether the words of a line are a package and its
// version as pip list and conda list print them ("vllm   0.9.2",
// "vllm 0.6.1.post2"): a listing, not a run of the program.
func isListingRow(words []string) bool {
	return len(words) >= 2 && len(words) <= 4 && bareVersionRE.MatchString(words[1])
}

// statementVerbs are the verbs that follow a sentence's subject and never
// a program's name: "uv is set", as vLLM's collect_env prints it when uv
// manages the environment (vllm#30320, #37828, #55193), "docker is
// installed", "ray was started".
var statementVerbs = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "isn't": true, "wasn't": true,
	"has": true, "hasn't": true, "does": true, "doesn't": true, "did": true, "didn't": true,
	"will": true, "won't": true, "can't": true, "cannot": true, "seems": true,
}

// isStatement reports whether the words of a line are a sentence about a
// program rather than a run of it: its second word is a verb no
// subcommand, argument or option is spelled as.
func isStatement(words []string) bool {
	return len(words) >= 2 && statementVerbs[strings.ToLower(words[1])]
}

// ParseCommand parses one command line (as a label or a user would write
// it) into its main command: the first command of a program the schema
// knows, else the first command; nil if the line holds no command.
func ParseCommand(line string, s *Schema) *Command {
	cmds := parseCommandLine(strings.Join(joinContinuations(strings.Split(line, "\n"), s), " "), s, false)
	for i := range cmds {
		if s.program(cmds[i].Program) != nil && !cmds[i].harness {
			return &cmds[i]
		}
	}
	if len(cmds) > 0 {
		return &cmds[0]
	}
	return nil
}
