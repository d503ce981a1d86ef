package knowledge

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Issue is an issue as an importer hands it over, whatever its wire
// format (the github package reads `gh issue list --json` and the REST
// API into it).
type Issue struct {
	// Repo is the repository, "owner/name".
	Repo      string
	Number    int
	Title     string
	Body      string
	URL       string
	State     string
	Labels    []string
	UpdatedAt time.Time
}

// Reading is the version of how IssueEntry, DocEntry and TopicEntry read
// a source into an Entry. It is stamped on every entry they make
// (Entry.Reading) and raised whenever they read the same source
// differently, so that a knowledge base built by an older reading can be
// told apart and re-imported rather than silently ranked by rules it was
// not read for.
//
//   - 2: imported entries carry no hand-set prior (they had 0.6 for
//     issues, 0.8 for docs pages); the fitted "curated" and "docs"
//     weights say how much each source is worth. Issue titles name
//     their models (Entry.Models).
//   - 3: an import that meets a curated entry of the same id leaves its
//     text on it for search (Entry.SourceText).
//   - 4: command-line usage errors (argparse's "error: argument --x:
//     invalid choice", "unrecognized arguments") are read as symptoms;
//     an issue without a platform label takes the platform its title
//     names (Vocabulary.titlePlatforms).
//   - 5: settings an issue title names in their Python form
//     ("data_parallel_size", "kv_cache_dtype") are among its flags.
//   - 6: IPython and Jupyter tracebacks are read: their frames name
//     packages, and one cut before its last line keeps the class its
//     head names ("TypeError   Traceback (most recent call last)").
//   - 7: a pydantic ValidationError's message is the validator's, read
//     from the line below its head ("1 validation error for VllmConfig"
//     then "Value error, …").
//   - 8: pip's build and resolution failures are read as symptoms
//     ("Failed building wheel for vllm"), and a package glued to its
//     version in a title ("vllm0.6.3.post1") is read as stated.
//   - 9: raw HTML in a Markdown body is read as HTML: the command in
//     "<summary>The output of <code>vllm serve …</code></summary>" is
//     inline code, without its tags.
//   - 10: env, and assignments between wrappers, give the command its
//     environment ("exec env X=1 vllm …"); a systemd unit's ExecStart=
//     is a command and its Environment= lines settings; an installed
//     program's path ("…/bin/python") is not a model.
//   - 11: a Compose or Kubernetes command written as one string
//     ("command: --model x", or a folded block) is a command.
//   - 12: the OpenAI-compatible server's error object without a "type"
//     ({"object":"error","message":…}) is an api-error with its message.
//   - 13: themed shell prompts ("❯", "➜", "λ") are stripped, a
//     placeholder in angle brackets ("<model>") is a word, not a
//     redirection, and a directory named like a program ("vllm/") runs
//     nothing.
//   - 14: an error quoted in a sentence ends at its closing backtick
//     or double quote.
//   - 15: so does one printed without a class ("CUDA error: …").
//   - 16: a model named by family and generation with a space ("GLM
//     4.7"), Python's own options before -m, a toolkit's version in a
//     title, and a continuation that carries an install or an export
//     into the program's run are read; a debug log's platform probe is
//     no platform evidence. (Issue and docs entries read the same as at
//     15; a learned topic's facts may not.)
//   - 17: an environment report's absent platforms ("ROCM used to build
//     PyTorch: N/A") and, with "Is CUDA available: False", its CUDA
//     build name no platform; the model vLLM's log says it loads is a
//     model. (Again only a learned topic's facts may differ.)
//   - 18: items commented out of a Compose or Python argument list are
//     not set, and a top-level directory in the program's model
//     position ("vllm serve /model") is the model.
//   - 19: the engine's first log line states vLLM's version, NVLink in
//     a GPU topology is NVIDIA hardware, and a model id under a hardware
//     maker's organisation names no platform.
//   - 20: a program's own image with its tag after a space ("vllm-openai
//     v0.8.3") states the program's version.
//   - 21: a family with a lettered generation after a space ("DeepSeek
//     R1", "Kimi K2") names a post's model.
//   - 22: so does "Initializing a V0 LLM engine (v…)" state vLLM's
//     version.
//   - 23: an exception logged as its repr ("IndexError('…')") is read,
//     after the errors that stopped something when logged as a warning;
//     a script, template or configuration file is no model.
//   - 24: a model's name right after Chinese, Japanese or Korean text
//     ("vllm部署Gemma-3-27b问题") is read. (Issue and docs entries read
//     the same as at 23; a learned topic's facts may not.)
//   - 25: a keyword argument commented out of a Python call
//     (`# enforce_eager=True,` inside LLM(…)) is not set. (Again only a
//     learned topic's facts may differ.)
//   - 26: the error a title names comes before another its log printed
//     first (an imported issue's symptoms may be reordered); a size or a
//     variant after a model's family and generation ("Gemma 3 27B IT")
//     is part of its name, a script's --model path is a model, and the
//     script python runs is none (a learned topic's facts may differ).
//   - 27: a model family a title names alone ("[New Model]: Jamba",
//     "[gpt-oss] tool parser") is the model when nothing else names one
//     (again only a learned topic's facts may differ).
//   - 28: MiniCPM is one of the pack's model families (six corpus titles
//     name it: "Minicpm3", "MiniCPM-o-2_6", "minicpm-4.5v"), so an
//     imported issue whose title names it carries the family.
//   - 29: a code block holding nothing but flags names them (a learned
//     topic's facts may differ).
//   - 30: a name with a parameter count among its dash-separated parts
//     ("Meta-Llama-3.1-70B-Instruct", "HY-MT1.5-1.8B") is a model
//     whatever its family (a learned topic's facts may differ).
//   - 31: a command a terminal wrapped inside a word is joined again
//     ("--hos" / "t 0.0.0.0 --port 8011"), and "Lite" and "Exp" after a
//     model's generation are part of its name (a learned topic's facts
//     may differ).
//   - 32: PyTorch's "cuda" (torch.cuda.*, a "cuda" device string) and
//     CUDA graphs name no platform; an issue read by them alone has
//     none.
//   - 33: a family with a dash is read spaced too ("GPT OSS" is
//     gpt-oss), and a title's family alone takes the size and variant
//     words after it ("DeepSeek Coder", "Mistral Small"); Mamba is one
//     of the pack's model families (nine corpus titles name it).
//   - 34: a family with a dash is read glued too ("CommandR+", with the
//     "+" of its release; "gptoss"), and a release in a title's tag
//     ("[v0.4.0] Release Tracker") is the main package's.
//   - 35: an issue's title is read as a post's is (titleText): its
//     typographic forms folded and a first word glued to its tag set
//     apart ("[Bug]:RuntimeError: …" names its error).
//   - 36: Llama 4's releases after its name are part of it ("Llama4
//     Scout", "llama 4 scout instruct").
//   - 37: NVIDIA's GPU architectures (Hopper, Blackwell, …) name the
//     CUDA platform ("… on Hopper" in a title).
//   - 38: a sentence about a program in a log ("uv is set") runs
//     nothing, a terminal's wrap is joined after a shell prompt, GeForce
//     numbers in the plural and a GPU named short and in full are read as
//     one card each, and an environment report's absent platforms ("ROCM
//     used to build PyTorch: N/A") tag no topic when pasted without
//     fences. (Issue and docs entries read the same as at 37; a learned
//     topic's facts may differ.)
//   - 39: "cuda-error:" is CUDA's error head as "CUDA error:" is, and a
//     CUDA error's message quoted without its head is read as that
//     error when a symptom knows it (the templates); #16307's entry gains
//     the symptom its title names.
//   - 40: a known message quoted in a sentence or a JSON string ends at
//     its closing quote; Python's keyword arguments, pip's "(from
//     versions: …)" and an extension's built-for versions (xFormers'
//     "… (you have …)") are no installed versions; commands after setup
//     steps ("cd d && source …/activate && vllm serve"), inside a
//     shell's "-c" script and behind prompts with several environments
//     or Red Hat's brackets are read; "head node", "worker node" and
//     run_cluster.sh are multi-node words; Jetson modules are GPUs; a
//     log behind a viewer's prefix (Docker Compose's "service  | ",
//     journalctl's time, host and unit, an RFC 3339 time) is read as a log,
//     a terminal's colour codes are dropped, and a rich-text editor's escaped
//     underscores and brackets ("gpu\_memory", "\[24,20\]") are read
//     unescaped.
//   - 41: a Python call's argument set to a script's constant is the
//     constant's literal (`model_name = "x"` … LLM(model=model_name)),
//     a command read without its Markdown orders by where it stands, and
//     a launcher's command is the one it runs (`uv run vllm serve …`,
//     `srun …`, `apptainer exec … python -m vllm…`, `timeout 600 …`);
//     Ascend NPUs are a platform of their own (npu); Windows' prompts
//     (PowerShell's "PS C:\…> ", cmd's "C:\…>") and continuation marks
//     (a backtick or a caret after a blank) are read as a shell's, and a
//     continued command orders by where it starts; an NGC container's
//     monthly tag (nvcr.io/nvidia/vllm:25.09-py3) is no version; a
//     notebook's shell escape ("!vllm serve …", "%pip install …", "%sh")
//     is read as the command after it; a command a Python script builds
//     as a string (`cmd = f"vllm serve {MODEL} …"`, os.system("…")) is
//     read with its fields filled, and a Python assignment is no command.
//   - 42: a folded Compose command ("command: >" and its lines) is read
//     once, not again line by line as a second command holding its
//     first line's flags.
//   - 43: an ellipsis ("vllm serve ... --flag", "--model …") is no
//     argument and no flag's value.
//   - 44: a traceback's head glued to the end of another line (a
//     progress bar, a logger's prefix, a message announcing it) starts
//     a traceback, and the line's text before it is read on its own.
//   - 45: a traceback the rich library drew in a box is read as one, its
//     frames naming their packages.
//   - 46: the arguments vLLM logs at start ("non-default args: {…}") are
//     the post's flags.
//   - 47: an evaluation harness selecting vLLM (`lm_eval --model vllm
//     --model_args k=v,…`) runs a vLLM command with the list as its
//     flags; a shell variable is no model.
//   - 48: a setting the engine's whole-configuration dump prints at its
//     default (the pack's log_formats.config_defaults) tags no topic.
//   - 49: an error a title repeats cut short is the body's error, not
//     one of its own.
//   - 50: a Python call commented out ("#llm = LLM(…)") runs nothing.
//   - 51: a link ends where CJK text glued to it begins.
//   - 52: a command quoted inside a sentence ends at its closing quote.
//   - 53: a paste marked with single backticks reads as its bare lines;
//     a version a Python session prints below its question is stated;
//     Chinese sentences state versions glued to their words, and end a
//     command written in them; Intel Gaudi is the HPU platform, not XPU;
//     collect_env's aligned report reads as the older one; zsh's "user@host
//     dir %" is a prompt; "image" in a quoted error tags no topic.
//   - 54: "vllm is 0.8.2" in a sentence states a version, as do the parts
//     of an image's tag ("rocm6.3.1_vllm_0.8.5"); "image tag" is a
//     container's; a Helm chart's release is no package's; a command a
//     log prints as a bracketed list ends at its bracket; `accelerate
//     launch -m` runs a module; a backtick alone on a line marks a paste;
//     "AMD" before EPYC or Ryzen is a CPU; Radeons without RX, Strix Halo
//     and Ryzen AI APUs are ROCm's; a container's --entrypoint runs the
//     arguments after the image; Ray Serve's engine_kwargs are flags;
//     the NPU and HPU platform plugins (vllm-ascend, torch_npu,
//     vllm-gaudi) are packages; "npu-910b" is an accelerator, no model;
//     PyTorch's "+cpu" build beside a TPU, Neuron or NPU names no platform.
//   - 55: the command and arguments kubectl describe pod prints, one
//     element a line under "Command:" and "Args:", are the container's
//     command; its "Image:" names the image that runs them. A title
//     that says the body's error and goes on to say when or where it
//     happened names no error of its own. The shell's "Killed" (alone,
//     after a progress bar, in a script's job report) is a signal.
//     LiteLLM's hosted_vllm/ prefix is no part of the model it routes to.
//     A title pins a release with one "=" too, and one that compares two
//     releases of the package states neither. A quoted shell variable
//     that holds flags, over lines or grown line by line, is expanded
//     into the command that names it. The images vLLM's guides build
//     (vllm-cpu-env, vllm-xpu-env, vllm-hpu-env) run the server. A
//     version asked at a shell prompt is asked as without one.
//   - 56: a Compose command written as a plain scalar over lines (a bare
//     "command:" with the arguments one a line under it, or "command:
//     --model x" going on below) is one command; a launcher's lone "--"
//     (chg run, distrobox enter, ray symmetric-run, kubectl exec) is
//     followed by the command it runs, and uvx runs the tool it names;
//     a line so started is no terminal wrap of the line above, and
//     commands that start alike keep their order in the post. A pack's
//     Helm chart (production-stack's) runs its program for each model
//     entry of a values file. A dict a script unpacks into LLM(…)
//     (`LLM(**llm_kwargs)`) gives the call its entries.
//   - 57: a pack's image pulled through a registry mirror
//     (docker.m.daocloud.io/vllm/vllm-openai) is that image; a command
//     that reads its program's config file (vllm serve --config c.yaml)
//     has the settings of the file the post pastes; a command in a code
//     span ends at the closing backtick before a colon or a bracket; a
//     pack's tool (trl vllm-serve) runs its program with its options; a
//     Python list of a command's words reads a name as the script's
//     constant or as written, and takes what `cmd += [...]` adds; an
//     option's single-quoted JSON value runs over lines to its quote;
//     PyTorch 2.1's "total capacty of" gives an out-of-memory error's
//     card size; a Python string of adjacent literals in parentheses
//     is one command string; the model a 404 says the server does not
//     serve is read (log_formats.unknown_model).
//   - 58: Gaudi is read from the fork's release suffix (+gaudi117) and
//     the PT_HPU_* variables; a word saying which version ("latest",
//     "current") is no package; vLLM's start-up logo gives the release
//     and the model (log_formats.version and model); a supervisord
//     program's command= is its command, over its indented lines; a
//     model's page on ModelScope or hf-mirror.com names it; a parallel
//     size of 1 is a setting at its default (log_formats.config_defaults);
//     a version is labelled in Korean and Japanese too, and read from a
//     Markdown table's row of two cells; a sentence that starts with
//     the command and goes on in Japanese or Korean ends it, and a path
//     keeps a folder with a Chinese name; a GeForce number counted after
//     it ("4090*2") or in words ("dual 3090s") is a card; Apptainer's
//     and Singularity's run of an image from Docker's registry runs it
//     as docker run does.
//   - 59: a Compose service's entrypoint runs with its command (flow,
//     block and scalar forms); a command that starts inside an open
//     quotation ends at its closing quote; "L40s" is the L40S, a GPU's
//     count given on a second mention or by collect_env's list is kept;
//     a docs page is titled by its front matter, else by its first
//     level-one heading outside code; a quoted error ends at the quote
//     that opened it, and a copy cut short is dropped; a version is read
//     in brackets after its package and after a CJK "is"; bold italic
//     (***x***) in a prose line is rendered text, as bold was.
const Reading = 59

// ReadSources returns the Entry.Source values of entries read from a
// source (IssueEntry, DocEntry, TopicEntry), which Reading applies to.
func ReadSources() []string { return []string{"github", "docs", "forum"} }

// maxIssueBody bounds how much of an issue body is kept for search.
const maxIssueBody = 8 << 10

// IssueEntry converts one issue to an Entry. Structured fields are read
// off the title and the machine text in the body (the flags it uses and
// its error signatures) and off its labels, which name a platform as the
// vocabulary's LabelPlatforms say (v may be nil).
func IssueEntry(is Issue, v *Vocabulary) Entry {
	e := Entry{
		ID:        is.Repo + "#" + strconv.Itoa(is.Number),
		Kind:      KindIssue,
		URL:       is.URL,
		Title:     strings.TrimSpace(is.Title),
		State:     strings.ToLower(is.State),
		Source:    "github",
		Reading:   Reading,
		UpdatedAt: is.UpdatedAt,
	}
	body := is.Body
	if len(body) > maxIssueBody {
		body = body[:maxIssueBody]
	}
	e.Body = body
	for _, l := range is.Labels {
		e.Tags = append(e.Tags, l)
		if v != nil {
			e.Platforms = appendUnique(e.Platforms, v.labelPlatforms(l)...)
		}
	}
	// The title is kept as its author wrote it and read as a post's is
	// (titleText), so that "[Bug]:RuntimeError: …" names its error.
	title := titleText(e.Title)
	if v != nil {
		e.Models = v.titleModels(title)
		if len(e.Platforms) == 0 {
			e.Platforms = v.titlePlatforms(title)
		}
	}
	doc := &document{title: title, prose: strings.Split(body, "\n")}
	doc.prose = append(doc.prose, title)
	for _, er := range extractErrors(doc, nil) {
		sym := er.Type
		if er.Message != "" {
			sym += ": " + er.Message
		}
		if len(e.Symptoms) < 4 {
			e.Symptoms = appendUnique(e.Symptoms, sym)
		}
	}
	for _, f := range flagMentionRE.FindAllString(title+"\n"+body, 32) {
		e.Flags = appendUnique(e.Flags, normFlag(f))
	}
	// A title names settings in their Python form too ("Support
	// data_parallel_size in offline inference mode"), as posts do.
	// In a fixed order, so that importing the same issue twice gives the
	// same entry (and the same hash: no spurious "updated").
	for _, f := range slices.Sorted(maps.Keys(settingFlags(title))) {
		e.Flags = appendUnique(e.Flags, f)
	}
	return e
}

// labelPlatforms returns the platforms an issue label names, in a fixed
// order.
func (v *Vocabulary) labelPlatforms(label string) []string {
	var out []string
	for plat, labels := range v.LabelPlatforms {
		for _, l := range labels {
			if strings.EqualFold(l, label) {
				out = append(out, plat)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// titlePlatforms returns the platform an issue's title names by its
// hardware or its name ("XPU (ARC A770) support broken", "fails on
// MI300X"), when its labels name none. Like titleModels it reads only the
// title: a body's environment report names the reporter's machine, which
// is often not what the issue is about.
func (v *Vocabulary) titlePlatforms(title string) []string {
	if len(title) > maxTitleBytes {
		title = title[:maxTitleBytes]
	}
	t := stripTitleTemplate(title)
	s := &Schema{Vocabulary: *v}
	if p := extractPlatform(&document{title: t}, nil, nil, s); p != "" {
		return []string{p}
	}
	return nil
}

// titleModels returns the model families an issue's title names, each
// with the generation written after it when there is one ("GLM 4.7 tool
// call issue" names glm4.7, "Qwen3-VL crashes" qwen3). A title names the
// model the issue is about; a body names the models of the reporter's
// set-up too, so only the title is read.
func (v *Vocabulary) titleModels(title string) []string {
	if len(title) > maxTitleBytes {
		title = title[:maxTitleBytes] // bounds a hostile file's cost
	}
	lower := strings.ToLower(title)
	var out []string
	fams := make([]string, len(v.ModelFamilies))
	for i, f := range v.ModelFamilies {
		fams[i] = strings.ToLower(f)
	}
	familyMentions(lower, fams, func(fam string, _, end int, gen string) {
		if gen == "" && end < len(lower) && isWordByte(lower[end]) && (lower[end] < '0' || lower[end] > '9') {
			return // a longer word ("optional" is not opt)
		}
		out = appendUnique(out, fam+gen)
	})
	return out
}

// familyMentions calls f for each place lower-case text names one of the
// (lower-case) families at the start of a word, in the order of fams and
// then of the text, with the generation written after the family
// (titleGeneration; "" when none).
//
// A family whose name has a dash is found spaced and glued too: "GPT OSS
// 120B", "gpt oss 20b" (vllm-project/vllm#22403, #22515, #22519) are
// gpt-oss, not the GPT family, and "CommandR+" (#3829, #3920) is
// command-r; f gets the family as the pack writes it.
func familyMentions(lower string, fams []string, f func(fam string, start, end int, gen string)) {
	for _, fam := range fams {
		forms := []string{fam}
		if strings.Contains(fam, "-") {
			forms = append(forms, strings.ReplaceAll(fam, "-", " "), strings.ReplaceAll(fam, "-", ""))
		}
		for _, form := range forms {
			for i := 0; i < len(lower); {
				j := strings.Index(lower[i:], form)
				if j < 0 {
					break
				}
				start, end := i+j, i+j+len(form)
				i = end
				if start > 0 && isWordByte(lower[start-1]) {
					continue
				}
				f(fam, start, end, titleGeneration(lower[end:]))
			}
		}
	}
}

// maxTitleBytes bounds how much of an issue title is read for models and
// platforms; GitHub titles hold at most 256 characters.
const maxTitleBytes = 1 << 10

// titleGeneration reads the generation that follows a family word: a
// number, after at most one separator and a "v" ("-3", " 4.7", "2.5",
// "-v3").
func titleGeneration(rest string) string {
	if rest != "" && (rest[0] == '-' || rest[0] == ' ' || rest[0] == '_') {
		rest = rest[1:]
	}
	v := ""
	if len(rest) > 1 && rest[0] == 'v' && rest[1] >= '0' && rest[1] <= '9' {
		v, rest = "v", rest[1:] // deepseek-v3
	}
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.' && n > 0 && n+1 < len(rest) && rest[n+1] >= '0' && rest[n+1] <= '9') {
		n++
	}
	if n < len(rest) && (rest[n] == 'b' || rest[n] == 'm') && (n+1 == len(rest) || !isWordByte(rest[n+1])) {
		return "" // a size ("llama 7b"), not a generation
	}
	if n == 0 {
		return ""
	}
	return v + rest[:n]
}

var flagMentionRE = regexp.MustCompile(`--[a-z][a-z0-9_-]{2,40}`)

// DocEntry converts a Markdown documentation page into an Entry. The title
// is the first heading (or the name); url is where the page is published.
func DocEntry(id, url, markdownText string) Entry {
	title := docTitle(markdownText)
	if title == "" {
		title = id
	}
	body := markdownText
	if len(body) > 64<<10 {
		body = body[:64<<10]
	}
	e := Entry{ID: id, Kind: KindDocs, URL: url, Title: title, Body: body, Source: "docs", Reading: Reading}
	for _, f := range flagMentionRE.FindAllString(body, 64) {
		e.Flags = appendUnique(e.Flags, normFlag(f))
	}
	return e
}

// frontMatterRE is a page's YAML front matter, which MkDocs and most
// static site generators read its title from ("---\ntitle: Speculative
// Decoding\n---", as vLLM's docs pages open).
var frontMatterRE = regexp.MustCompile(`\A(?:\xef\xbb\xbf)?---[ \t]*\r?\n((?s:.*?))\r?\n---[ \t]*(?:\r?\n|\z)`)

// frontTitleRE is the front matter's title line.
var frontTitleRE = regexp.MustCompile(`(?m)^title:[ \t]*(.+?)[ \t]*\r?$`)

// docTitle returns a docs page's title: its front matter's, else its
// first level-one heading as Markdown parses it (a "# comment" line in a
// fenced shell or YAML block is code, not a heading: vLLM's speculative
// decoding page was titled "Modify OpenAI's API key…" and its Kubernetes
// page "vLLM needs to access the host's shared memory…" from such
// lines), else "".
func docTitle(md string) string {
	if m := frontMatterRE.FindStringSubmatch(md); m != nil {
		if t := frontTitleRE.FindStringSubmatch(m[1]); t != nil {
			if v := strings.Trim(t[1], `"'`); v != "" {
				return v
			}
		}
		md = md[len(m[0]):]
	}
	src := []byte(md)
	doc := markdown.Parser().Parse(text.NewReader(src)) // the parser posts are read with (post.go)
	title := ""
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level == 1 {
			// A heading over several lines (a setext one, a code span
			// that wraps) is one line of title.
			title = strings.Join(strings.Fields(string(headingText(h, src))), " ")
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return title
}

// headingText is the text of a heading's inline content, without its
// Markdown (emphasis, code spans' backticks, links' targets).
func headingText(n ast.Node, src []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b = append(b, t.Segment.Value(src)...)
			if t.SoftLineBreak() || t.HardLineBreak() {
				b = append(b, ' ')
			}
			continue
		}
		b = append(b, headingText(c, src)...)
	}
	return b
}

func appendUnique(list []string, items ...string) []string {
	for _, s := range items {
		if !contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
