package knowledge

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// logPrefixRE strips the decorations vLLM and its workers put before log
// lines: "(EngineCore pid=298899) ", "(VllmWorker rank=0 pid=12) ",
// "[rank0]: ", "ERROR 05-12 10:00:00 [core.py:123] ", timestamps. Ray
// names a Ray Data worker by its stage, in parentheses of its own
// ("(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, ip=240.248.0.198)
// ERROR 08-28 03:22:49 [core.py:634] Traceback …", as posts about Ray's
// batch inference with vLLM paste it: ray-project/ray#53825 and others),
// and a Ray Serve replica by its application and deployment
// ("(ServeReplica:llama3-app:LLMDeploymentllama-3-8B-instruct pid=12249,
// ip=10.0.155.99) INFO …", ray-project/ray#54812, Ray Serve guides).
// PyTorch's own logger writes glog's head, a level letter with the date
// and time, the thread and the source line, and for torch.compile the
// compiled frame's id ("[rank0]:E0701 14:28:21.083000 911603
// torch/_inductor/runtime/triton_heuristics.py:539] [0/0] ptxas …",
// NixOS/nixpkgs#406675; "E0829 03:48:34.301000 1991
// torch/_inductor/…py:553] [0/1] NameError(…)" in a Triton write-up);
// c10 puts it in brackets ("[W313 09:42:24.376887599
// OperatorEntry.cpp:154] Warning: …", vllm-dev C1-027). vLLM-Omni names
// the stage of its pipeline a line comes from ("[Stage-0] ERROR 01-30
// 18:03:36 [diffusion_worker.py:344] Traceback …", gpustack/gpustack#4363;
// vllm-omni's own logs and log-parsing tests).
var logPrefixRE = regexp.MustCompile(`^\s*(?:\((?:[\w\s:.-]*(?:\([\w\s:.-]*(?:\([\w\s:.-]*\))?\))?[\w\s:.-]* )?(?:pid|rank)=[^)]*\)\s*)*(?:\[rank\d+\]:?\s*)?(?:\[Stage-\d+\]\s*)?` +
	`(?:\[?[EWIF]\d{3,4}\s+\d\d:\d\d:\d\d\.\d+(?:\s+\d+)?\s+[^\s\]]+:\d+\]\s*(?:\[\d+/\d+(?:_\d+)?\]\s*)?)?` +
	`(?:(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL)\s+(?:\d\d-\d\d\s+)?\d\d:\d\d:\d\d(?:[.,]\d+)?\s*(?:\[[^\]]*\]\s*)?)?(?:\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s*(?:-\s*)?(?:\w+\s*-\s*)?)?`)

// rayRepeatRE is the note Ray's log deduplication puts after a line that
// several workers printed ("… aborted due to errors [repeated 8x across
// cluster]", ray-project/ray#53825; vllm-project/vllm#5370's workers;
// verl-project/verl#4503): the worker's words end before it.
var rayRepeatRE = regexp.MustCompile(`\s*\[repeated \d+x across cluster\]\s*$`)

// pyExcRE matches a Python exception line: a dotted class name ending in
// Error, Exception, Exit, Interrupt or Warning (or a bare known class),
// optionally followed by ": message".
var pyExcRE = regexp.MustCompile(`^((?:[A-Za-z_][\w]*\.)*(?:[A-Z][\w]*(?:Error|Exception|Exit|Interrupt|Fault)|AssertionError|StopIteration|KeyboardInterrupt))(?::\s?(.*))?$`)

// quotedErrPat is an exception class and its colon (quotedErrRE).
const quotedErrPat = `(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): `

var (
	goPanicRE   = regexp.MustCompile(`^panic: (.+)$`)
	rustPanicRE = regexp.MustCompile(`^thread '([^']*)' panicked at (?:'([^']*)', )?(.+?):?$`)
	cppThrowRE  = regexp.MustCompile(`^terminate called after throwing an instance of '([^']+)'`)
	cppWhatRE   = regexp.MustCompile(`^\s*what\(\):\s*(.+)$`)
	// cudaErrRE is CUDA's error head, which the runtime always prints
	// with its colon ("CUDA error: out of memory"): without one, "CUDA
	// error" is a noun in a sentence ("[Bug]: Docker image CUDA error on
	// RTX 2080 Ti", vllm-project/vllm#19445; "[Bug]: CUDA Error when
	// print", #6575), not a message. cudaStatusRE is the status codes,
	// which are messages in their own right whatever follows them
	// ("CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx(…)`").
	cudaErrRE    = regexp.MustCompile(`(?i)\b(CUDA[ -]error|CUDA driver error)\s*:\s*(.+)$`)
	cudaStatusRE = regexp.MustCompile(`\b(CUBLAS_STATUS_\w+|cudaError\w*)[:\s]+(.+)$`)
	hipErrRE     = regexp.MustCompile(`(?i)\b(HIP error|hipError\w+)[:\s]+(.*)$`)
	ncclErrRE    = regexp.MustCompile(`(?i)\b(NCCL error(?: in: [^,]+)?|NCCL WARN|ncclInternalError|ncclUnhandledCudaError|ncclSystemError|ncclRemoteError)[:,\s]+(.*)$`)
	// ptxasErrRE is an error of ptxas, the CUDA assembler that Triton
	// and torch.compile run on the kernels they generate, as their logs
	// relay it: "ptxas /tmp/x.ptx, line 657; error   : Modifier
	// '.evict_last' cannot be combined with modifier '.cg'" (vllm#15619),
	// "ptxas /tmp/x.ptx, line 6; error   : PTX .version 8.4 does not
	// support .target sm_120a" (NixOS/nixpkgs#406675), "ptxas
	// /tmp/x.ptx, line 113; fatal   : Parsing error near '.': syntax
	// error" (ray-project/ray#53825). The "ptxas fatal   : Ptx assembly
	// aborted due to errors" that closes each is a generic wrapper.
	ptxasErrRE = regexp.MustCompile(`^ptxas(?:\s+\S+,\s+line\s+\d+;)?\s+(?:error|fatal)\s*:\s*(.+)$`)
	// quotedErrRE is an error quoted inside a sentence, closed by the
	// quote that opened it: a backtick's message may hold an apostrophe
	// ("`ValueError: The model's max seq len …`"), which an error put in
	// single quotes cannot.
	quotedErrRE = regexp.MustCompile(`["“]\s*(` + quotedErrPat + `[^"”]{3,300})["”]|'\s*(` + quotedErrPat + `[^']{3,300})'|` + "`" + `\s*(` + quotedErrPat + "[^`]{3,300})`")
	watchdogRE  = regexp.MustCompile(`(Watchdog caught collective operation timeout|NCCL (?:communicator|operation) .*timed? ?out|collective operation timeout)`)
	notFoundRE  = regexp.MustCompile(`^(?:(?:ba|z|fi)?sh: )?(?:([\w.-]+): command not found|command not found: ([\w.-]+))$`)
	fatalPyRE   = regexp.MustCompile(`(?i)^Fatal Python error:\s*(.+)$`)
	// pip's own failures, as installation posts paste them: building a
	// package from source (vllm#799, #778, #1391, #13518; "× Building
	// wheel for vllm (pyproject.toml) did not run successfully" since pip
	// 22), or resolving one (#13479); a build that failed before it built
	// anything, while pip asked the package what it needs ("× Getting
	// requirements to build wheel did not run successfully", vllm#3002 and
	// #7575 on Jetson boards, dusty-nv/jetson-inference#1872) or read its
	// metadata. "error: subprocess-exited-with-error" heads every build
	// failure and says nothing of its own.
	pipErrRE = regexp.MustCompile(`(?i)^(?:ERROR:\s*|×\s*|error:\s*)?(Failed building wheel for [\w.-]+|Could not build wheels for [\w.-]+|Building wheel for [\w.-]+ \([\w.-]+\) did not run successfully|(?:Getting requirements to build (?:wheel|editable)|Preparing (?:editable )?metadata \([\w.-]+\)) did not run successfully|Failed to build [\w.-]+(?: [\w.-]+)*$|Could not find a version that satisfies the requirement [\w.-]+|No matching distribution found for [\w.-]+|ResolutionImpossible|Cannot install .{1,200}? because these package versions have conflicting dependencies)`)
	// dockerDaemonRE is the Docker daemon refusing to create or start a
	// container, as the docker CLI and Compose print it: no GPU runtime
	// ("docker: Error response from daemon: could not select device
	// driver \"\" with capabilities: [[gpu]].", the commonest failure of
	// posts that run vLLM's image without the NVIDIA Container Toolkit, in
	// the setup notes of many projects), an entrypoint that is no program
	// ("… exec: \"vllm\": executable file not found in $PATH: unknown",
	// LMCache/LMCache#906).
	dockerDaemonRE = regexp.MustCompile(`^(?:docker: )?Error response from daemon: (.{3,400})`)
	// usageErrRE matches the error argparse prints before exiting: "vllm
	// serve: error: argument --tool-call-parser: invalid choice: 'glm45'
	// (choose from ...)", "api_server.py: error: unrecognized arguments:
	// --api-key KEY"; a positional argument's, the subcommand a CLI was
	// given ("vllm: error: argument subparser: invalid choice:
	// 'Qwen/Qwen2.5-7B-Instruct'" when serve is left out, "TRL CLI: error:
	// argument command: invalid choice: 'vllm-serve'", huggingface/trl#3139
	// and wdrink/SimpleAR#24 on a TRL too old for it).
	usageErrRE = regexp.MustCompile(`(?:^|[\s:])error: (?:(argument (?:--[\w-]+|[a-z_][\w-]*))(?:/-[\w-]+)?: (invalid choice|invalid \w+ value|expected (?:one|at least one) argument)|(unrecognized arguments|the following arguments are required): (.+))`)
	// killedRE is the shell's report of a process SIGKILL stopped, most
	// often the kernel's OOM killer while a model loads: "Killed" on a
	// line of its own or glued to the progress bar it cut
	// ("… 3/4 [00:08<00:02,  2.83s/it]Killed", deepseek-ai/DeepSeek-VL2#90),
	// and a script's job report ("./entrypoint.sh: line 28:     7 Killed
	// …", vectorch-ai/ScaleLLM#38).
	killedRE = regexp.MustCompile(`^\s*Killed\s*$|\]Killed\s*$|^\S+: line \d+:\s+\d+ Killed\b`)
	signalRE = regexp.MustCompile(`(?i)^(?:\*\*\* )?(Segmentation fault|Bus error|Aborted)(?: \(core dumped\))?|^(?:\*\*\* )?(SIGSEGV|SIGBUS|SIGABRT|SIGKILL) (?:received|\()`)
	// frameRE is a traceback frame as Python prints it (File "x.py",
	// line 3), as IPython 8 and Jupyter print it (File
	// ~/lib/x.py:93, in f(...)) and as IPython 7 did (~/lib/x.py in f(...)).
	frameRE = regexp.MustCompile(`^\s*(?:File "([^"]+)", line \d+|File (\S+?\.py):\d+, in |(\S+?\.py) in [\w<>]+\()`)
	// ipythonHeadRE is the head IPython and Jupyter print a traceback
	// under: the exception class, then "Traceback (most recent call
	// last)" on the same line. A paste cut before the last line still
	// names its class here.
	ipythonHeadRE = regexp.MustCompile(`^((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault)|StopIteration|KeyboardInterrupt))\s{2,}Traceback \(most recent call last\)`)
	// rayTaskHeadRE is the head Ray prints over the traceback of a task
	// or actor method that raised: the cause's class in RayTaskError's
	// parentheses, or Ray's note that nobody fetched the error, then the
	// task ("ray.exceptions.RayTaskError(AssertionError):
	// ray::RayWorker.execute_method() (pid=…, ip=…)", corpus #649 and
	// vLLM's Ray executor; "Unhandled error (suppress with
	// 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::WorkerDict…() (pid=…)",
	// verl-project/verl#302 and corpus #4770; verl's and MindSpeed-RL's
	// training posts). The task's frames follow, then its exception's
	// line; a paste cut before it keeps the class the head names.
	rayTaskHeadRE = regexp.MustCompile(`(?:^|\s)(?:(?:ray\.exceptions\.)?RayTaskError\(((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\)|Unhandled error \(suppress with '?RAY_IGNORE_UNHANDLED_ERRORS=1'?\)):\s+ray::[\w.<>]+\(\)`)
	causeMarkerRE = regexp.MustCompile(`^(The above exception was the direct cause of the following exception:|During handling of the above exception, another exception occurred:)`)
)

// genericWrappers are exception messages that only point elsewhere ("see
// root cause above"); the error they wrap is the one worth matching.
var genericWrappers = []string{
	"engine core initialization failed",
	"see root cause above",
	"see stack trace above",
	"worker failed with error",
	"worker proc",
	"engine process failed to start",
	"ptx assembly aborted due to errors",
}

// extractErrors scans every line of the document for errors. The most
// telling error comes first: the final exception of a traceback, unless it
// is a generic wrapper, in which case its root cause is promoted.
func extractErrors(doc *document, s *Schema) []ErrorInfo {
	lines, title := errorLines(doc)
	set := &errorSet{seen: map[string]int{}}
	if s != nil {
		set.main = s.Vocabulary.Package.Name
	}
	set.scanLines(lines)
	set.titleFirst(title)
	// A title that names a class without a colon: "NotImplementedError
	// from the OpenAI-compatible server".
	if m := titleClassRE.FindStringSubmatch(title); m != nil && len(set.out) == 0 {
		set.add(ErrorInfo{Type: m[1]})
	}
	// A sentence that names the class the poster saw, with no message
	// and no log: "I get an AssertionError when loading the model",
	// "it throws a torch.OutOfMemoryError after a few requests".
	if len(set.out) == 0 {
		if typ := proseClass(doc.prose); typ != "" {
			set.add(ErrorInfo{Type: typ})
		}
	}
	// Error bodies of HTTP APIs, as JSON or as a printed Python dict:
	// {'message': '...', 'type': 'BadRequestError', ...}.
	for _, e := range bodyErrors(doc.title + "\n" + doc.scanText()) {
		set.add(e)
	}
	// Messages printed without their class ("ERROR ... Bfloat16 is only
	// supported on GPUs with compute capability of at least 8.0"): the
	// class is inferred from a pack's known error templates.
	for _, e := range inferErrors(lines, set.out, s) {
		set.add(e)
	}
	set.out = withoutCutCopies(set.out)
	for i := range set.out {
		set.out[i].Kind = errorKind(set.out[i])
	}
	return prioritise(set.out)
}

// withoutCutCopies drops an error that another of the same class says in
// full: a copy read up to a quote inside its message ("ValueError: The
// model" of "`ValueError: The model's max seq len …`") or up to a span's
// backtick adds no error of its own.
//
// In the order of class then message, a message sorts just before the
// messages that go on from it, so comparing neighbours finds every cut
// copy in O(n log n), however many errors a log holds.
func withoutCutCopies(errs []ErrorInfo) []ErrorInfo {
	if len(errs) < 2 {
		return errs
	}
	order := make([]int, len(errs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(strings.Compare(errs[a].Type, errs[b].Type), strings.Compare(errs[a].Message, errs[b].Message))
	})
	cut := make([]bool, len(errs))
	for k := 0; k+1 < len(order); k++ {
		e, next := errs[order[k]], errs[order[k+1]]
		cut[order[k]] = e.Type == next.Type && len(next.Message) > len(e.Message) && strings.HasPrefix(next.Message, e.Message)
	}
	out := errs[:0]
	for i, e := range errs {
		if !cut[i] {
			out = append(out, e)
		}
	}
	return out
}

// titleFirst puts first the error the title names when the body printed
// another before it: the poster titled the post with the failure they
// mean, and a log's earlier error is often a step on the way to it
// (vllm#9624, #9712 and #9713 title "ValueError: Model architectures
// […] are not supported" over a log whose first error is the registry
// subprocess's CalledProcessError). The body's copy is kept, as the
// fuller one: a title is cut at GitHub's limit. A title cut inside the
// message is the body's error too, not one of its own (sameCut): vllm#3147
// and #9515 cut the path or the list the body prints whole, and
// vllm#16343's "orch.OutOfMemoryError: … of which 212.81" lost a letter
// at the front as well.
func (set *errorSet) titleFirst(title string) {
	if title == "" || len(set.out) < 2 {
		return
	}
	ts := &errorSet{seen: map[string]int{}, main: set.main}
	ts.scanLines([]string{title})
	if len(ts.out) == 0 {
		return
	}
	t := ts.out[0]
	defer set.reindex()
	if i, ok := set.seen[t.Signature]; ok {
		for _, e := range set.out {
			if sameCut(t, e) || e.Signature != t.Signature && goesOn(title, t, e) {
				set.out = slices.Delete(set.out, i, i+1)
				t = e
				break
			}
		}
	}
	if t.Type == set.out[0].Type {
		return
	}
	for i, e := range set.out {
		if e.Type == t.Type {
			copy(set.out[1:i+1], set.out[:i])
			set.out[0] = e
			return
		}
	}
}

// reindex records where each signature is after set.out was reordered.
func (set *errorSet) reindex() {
	clear(set.seen)
	for j, e := range set.out {
		set.seen[e.Signature] = j
	}
}

// sameCut reports whether t, read off a title, is e cut short: e's message
// goes on where t's stops, and their classes have the same name (a copy
// may lose the front of a qualified one).
func sameCut(t, e ErrorInfo) bool {
	short := strings.TrimSpace(t.Message)
	if len(short) < 12 || len(short) >= len(e.Message) || !strings.HasPrefix(e.Message, short) {
		return false
	}
	base := func(typ string) string { return typ[strings.LastIndexByte(typ, '.')+1:] }
	return base(t.Type) == base(e.Type)
}

// goesOn reports whether a title says the body's error e where its own
// error t starts, and goes on to say when or where it happened:
// "NameError: name 'x' is not defined when using vllm in lm_eval" over
// the body's "NameError: name 'x' is not defined" (arcee-ai/mergekit#524),
// "CUDA error: unknown error when running vllm serve on WSL2" over the
// log's "RuntimeError: CUDA error: unknown error" (vllm-project/vllm#19077).
// The title's error is the body's, not one of its own. e must start with
// t (at its message or inside its class's prefix): a message that turns
// up later in the title's sentence says nothing of what t is.
func goesOn(title string, t, e ErrorInfo) bool {
	short := strings.TrimSpace(e.Message)
	i := strings.Index(title, short)
	at := strings.Index(title, strings.TrimSpace(t.Message))
	if len(short) < 8 || i < 0 || at < 0 || i > at || i < at-len(t.Type)-3 {
		return false
	}
	rest := title[i+len(short):]
	if !strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, ",") {
		return false
	}
	word, _, _ := strings.Cut(strings.TrimLeft(rest, " ,"), " ")
	return clauseWords[strings.ToLower(word)]
}

// clauseWords start the clause a title adds after an error: when,
// where or with what it happened.
var clauseWords = map[string]bool{
	"when": true, "while": true, "after": true, "during": true, "on": true, "in": true,
	"with": true, "using": true, "for": true, "if": true, "at": true, "from": true,
}

// errorLines are the lines errors are looked for in: the post's, the
// title without its template prefix (titles are often the error itself:
// "[Bug]: ValueError: LoRA rank 32 ..."), code spans, and errors quoted
// inside sentences ("it keeps giving me `RuntimeError: ...`").
func errorLines(doc *document) (lines []string, title string) {
	lines = doc.lines()
	title = stripTitleTemplate(doc.title)
	if title != "" {
		lines = append(lines, title)
	}
	for _, span := range doc.inline {
		lines = append(lines, strings.Split(span, "\n")...)
	}
	for _, l := range doc.prose {
		for _, m := range quotedErrRE.FindAllStringSubmatch(l, 4) {
			lines = append(lines, m[1]+m[2]+m[3]) // one group matched
		}
	}
	return lines, title
}

// withoutCJKSentence returns an error's message without the Chinese,
// Japanese or Korean sentence of the post's that goes on after it on its
// line: a message quoted in a CJK sentence ends where the writer's own
// text begins ("KeyError: 'model.layers.0.mlp.gate_up_proj.weight'，请问怎么解决？",
// an error asked about inline, as Chinese posts and comments across
// projects ask it: "…，请问怎么解决" after what went wrong). The message
// is cut only when it is not CJK itself up to there and the CJK text
// starts after a blank or a sentence's punctuation outside quotes, so a
// path quoted in it ('/data/模型/x') and a message in Chinese stay whole.
func withoutCJKSentence(msg string) string {
	loc := cjkRE.FindStringIndex(msg)
	if loc == nil || loc[0] == 0 {
		return msg
	}
	before := msg[:loc[0]]
	if strings.Count(before, "'")%2 == 1 || strings.Count(before, `"`)%2 == 1 {
		return msg // inside a quoted value
	}
	punct := cjkPunctStartRE.MatchString(msg[loc[0]:]) // "，", "。", "？"
	if r, _ := utf8.DecodeLastRuneInString(before); !punct && !unicode.IsSpace(r) && !strings.ContainsRune(",.;:!?", r) {
		return msg // glued to a word of the message: part of it
	}
	return strings.TrimRight(before, " \t,;:")
}

// pleaRE is the writer's own sentence going on after an error's message
// on its line: a plea or a question after a comma or a sentence's end
// ("KeyError: 'x', any idea how to fix this?", ", any idea how to fix
// it?" as forum posts of every kind ask it; "… was encountered. Any help
// is appreciated!"). "Please …" alone is no plea: vLLM's own messages
// say it ("Please reduce the length of the messages").
var pleaRE = regexp.MustCompile(`(?i)[,.;!?]\s+(?:any (?:ideas?|help|suggestions?|thoughts|advice|clues?|pointers?|hints?)\b|how (?:can|do|should|could) (?:i|we)\b|(?:can|could) (?:someone|anyone|somebody|you)\b|(?:does|did|has) (?:anyone|anybody|someone)\b|thanks\b|thank you\b|thx\b|what (?:should|can|could) (?:i|we)\b|i (?:don't|do not|have no) (?:know|idea)\b|please help\b|help please\b)`)

// actorAddressRE is the actor's address Xinference (and Xoscar, its actor
// framework) puts before the message of an exception an actor raised:
// "ValueError: [address=0.0.0.0:43315, pid=822191] You set image=2 …"
// (xorbitsai/inference#3054), "ImportError: [address=0.0.0.0:39501,
// pid=13418] libcudart.so.12: …", "TypeError: [address=…, pid=65]
// AsyncEngineArgs.__init__() got an unexpected keyword argument …" in
// posts and notes of projects that serve vLLM through Xinference. The
// message is what follows it; the address is where it ran.
var actorAddressRE = regexp.MustCompile(`^\[address=[^\]\s]{1,100}, pid=\d+\]\s*`)

// withoutPlea returns an error's message without the plea or question of
// the writer's that goes on after it (pleaRE), and the punctuation that
// parted them, as a sentence's comma is not the message's.
func withoutPlea(msg string) string {
	loc := pleaRE.FindStringIndex(msg)
	if loc == nil {
		return msg
	}
	cut := msg[:loc[0]]
	if msg[loc[0]] == '.' || msg[loc[0]] == '!' || msg[loc[0]] == '?' {
		cut = msg[:loc[0]+1] // the message's own full stop
	}
	return strings.TrimRight(cut, " \t,;")
}

// errorSet collects errors once each by signature.
type errorSet struct {
	out  []ErrorInfo
	seen map[string]int
	// main is the main package, whose frames are recognised in a source
	// tree too.
	main string
}

func (set *errorSet) add(e ErrorInfo) {
	e.Message = withoutPlea(withoutCJKSentence(actorAddressRE.ReplaceAllString(strings.TrimSpace(e.Message), "")))
	if len(e.Message) > 500 {
		e.Message = e.Message[:500]
	}
	e.Signature = Signature(e.Type, e.Message)
	e.Numbers = errorNumbers(e.Message)
	if i, ok := set.seen[e.Signature]; ok {
		// The same error printed by several workers: keep the richest.
		if len(e.Packages) > len(set.out[i].Packages) {
			set.out[i].Packages = e.Packages
		}
		return
	}
	set.seen[e.Signature] = len(set.out)
	set.out = append(set.out, e)
}

// tracebackHead is the line that starts a Python traceback.
const tracebackHead = "Traceback (most recent call last):"

// splitGluedHeads returns lines with a traceback head that ends a line
// of other text put on a line of its own: a progress bar's last redraw
// ("…7.83it/s]Traceback …", as tqdm leaves it without a newline), a
// logger's own prefix ("rank:  3 | 2022-04-03 18:44:26,615 CRITICAL |
// Traceback …") or a message that announces it ("Exception in worker
// …: NCCL error: …, Traceback …"), so that the text before it is read as
// the line it is and the frames after it as a traceback's.
func splitGluedHeads(lines []string) []string {
	var out []string
	for i, l := range lines {
		before, glued := strings.CutSuffix(strings.TrimRight(l, " \t\r"), tracebackHead)
		if glued && strings.TrimSpace(before) != "" && !strings.HasPrefix(strings.TrimSpace(before), "Traceback") {
			if out == nil {
				out = append(make([]string, 0, len(lines)+1), lines[:i]...)
			}
			out = append(out, before, tracebackHead)
			continue
		}
		if out != nil {
			out = append(out, l)
		}
	}
	if out == nil {
		return lines
	}
	return out
}

var (
	// richHeadRE is the top of the box the rich library draws a traceback
	// in ("╭──── Traceback (most recent call last) ────╮"; "┌" and "┐"
	// in plain terminals), and richFootRE its bottom.
	richHeadRE = regexp.MustCompile(`[╭┌]─+ Traceback \(most recent call last\) ─+[╮┐]`)
	richFootRE = regexp.MustCompile(`^\s*[╰└]─+[╯┘]\s*$`)
	// richFrameRE is a frame inside the box, "/path/file.py:131 in
	// main", its function sometimes wrapped onto the next line.
	richFrameRE = regexp.MustCompile(`^(\S+?\.py):(\d+) in(?: ([\w<>.]+))?$`)
)

// unboxRichTracebacks returns lines with each traceback the rich library
// drew in a box (typer and click programs, training frameworks:
// llm-foundry's in VinAIResearch/PhoGPT#28, text-generation-webui's,
// mcp-client-for-ollama's) written as Python prints one: the head, then
// each frame as `File "…", line N, in f`; the box's source lines and
// locals are left out, and the exception after the box ends it as
// usual. A path rich wrapped at the box's edge is joined again.
func unboxRichTracebacks(lines []string) []string {
	start := slices.IndexFunc(lines, richHeadRE.MatchString)
	if start < 0 {
		return lines
	}
	out := append(make([]string, 0, len(lines)), lines[:start]...)
	for i := start; i < len(lines); i++ {
		if !richHeadRE.MatchString(lines[i]) {
			out = append(out, lines[i])
			continue
		}
		out = append(out, tracebackHead)
		var inner []string
		j := i + 1
		for ; j < len(lines) && !richFootRE.MatchString(lines[j]); j++ {
			t := strings.TrimSpace(lines[j])
			if !strings.HasPrefix(t, "│") {
				break // the box was cut off
			}
			t = strings.TrimSpace(strings.TrimPrefix(t, "│"))
			if strings.HasSuffix(t, "│") && !strings.HasPrefix(t, "│") {
				t = strings.TrimSpace(strings.TrimSuffix(t, "│"))
			}
			inner = append(inner, t)
		}
		for k := 0; k < len(inner); k++ {
			t := inner[k]
			m := richFrameRE.FindStringSubmatch(t)
			if m == nil && k+1 < len(inner) && t != "" && !strings.ContainsAny(t, " │") {
				// A path wrapped at the box's edge.
				if m = richFrameRE.FindStringSubmatch(t + inner[k+1]); m != nil {
					k++
				}
			}
			if m == nil {
				continue
			}
			if m[3] == "" && k+1 < len(inner) {
				m[3] = inner[k+1] // the function wrapped onto the next line
			}
			out = append(out, `  File "`+m[1]+`", line `+m[2]+", in "+m[3])
		}
		i = j
		if j < len(lines) && !richFootRE.MatchString(lines[j]) {
			i = j - 1 // a cut-off box: the line that ended it is read as it is
		}
	}
	return out
}

// scanLines reads Python tracebacks (with the packages of their frames
// and the chain of causes), exceptions named inside sentences, and the
// one-line errors of lineErrors.
func (set *errorSet) scanLines(lines []string) {
	var frames, causes []string
	inTraceback := false
	// headed is the class an IPython traceback's head named, until the
	// traceback's own exception line is read; a paste cut before it
	// keeps the class alone, with the frames read so far.
	headed := ""
	flushHeaded := func() {
		if headed != "" {
			set.add(ErrorInfo{Type: headed, Packages: append([]string(nil), frames...)})
			headed = ""
		}
	}
	defer flushHeaded()
	// validatedUntil is the last line a ValidationError head's own
	// error lines may take; a pydantic error line up to there is the
	// head's, read with it.
	validatedUntil := -1
	lines = unboxRichTracebacks(splitGluedHeads(lines))
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		if len(raw) > 4096 {
			raw = raw[:4096]
		}
		l := strings.TrimRight(rayRepeatRE.ReplaceAllString(logPrefixRE.ReplaceAllString(raw, ""), ""), " \t")
		t := strings.TrimSpace(l)
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		switch {
		case t == "" || causeMarkerRE.MatchString(t):
			continue
		case strings.HasPrefix(t, "Traceback (most recent call last)"):
			flushHeaded()
			inTraceback = true
			frames = frames[:0]
			continue
		}
		if m := ipythonHeadRE.FindStringSubmatch(t); m != nil {
			flushHeaded()
			inTraceback, headed = true, m[1]
			frames = frames[:0]
			continue
		}
		if m := rayTaskHeadRE.FindStringSubmatch(t); m != nil {
			flushHeaded()
			inTraceback, headed = true, m[1]
			frames = frames[:0]
			continue
		}
		if m := frameRE.FindStringSubmatch(l); m != nil {
			if pkg := framePackage(m[1]+m[2]+m[3], set.main); pkg != "" && !contains(frames, pkg) {
				frames = append(frames, pkg)
			}
			continue
		}
		if m := pyExcRE.FindStringSubmatch(t); m != nil && !strings.HasPrefix(l, " ") {
			e := ErrorInfo{Type: m[1], Message: m[2]}
			if n, ok := validationCount(e.Message); ok {
				if msg := validationMessage(lines[i+1 : min(i+4, len(lines))]); msg != "" {
					e.Message = msg
				}
				validatedUntil = i + linesPerValidationError*n
			}
			if inTraceback {
				e.Packages = append([]string(nil), frames...)
				e.Causes = append([]string(nil), causes...)
				causes = append(causes, m[1])
				inTraceback, headed = false, ""
			}
			set.add(e)
			continue
		}
		// An exception named inside a sentence or after a label: "the
		// container throws: OSError: Incorrect path", "vllm_worker:
		// RuntimeError: Cannot re-initialize CUDA". A class that ends the
		// line takes its message from the next one ("gives ValueError:").
		if ix := embeddedExcRE.FindStringSubmatchIndex(t); ix != nil {
			m := submatches(t, ix)
			if !inTraceback && exceptionHeadingRE.MatchString(t) {
				// "Exception:" alone on its line heads the log pasted
				// under it (vllm-project/production-stack#43); it names
				// no class.
				continue
			}
			// An error quoted in a sentence ends at its closing quote:
			// "keeps giving me `RuntimeError: FlashAttention only
			// supports AMD MI200 GPUs or newer.` and I don't see why"
			// (a vllm-dev forum post).
			msg := strings.TrimRight(endAtQuote(t, ix[2], m[2]), "`\" ")
			if strings.HasSuffix(msg, "'") && strings.Count(msg, "'")%2 == 1 {
				msg = strings.TrimRight(msg[:len(msg)-1], " ") // the quote around the whole error
			}
			if msg == "" {
				msg = strings.TrimSpace(logPrefixRE.ReplaceAllString(next, ""))
			}
			set.add(ErrorInfo{Type: m[1], Message: msg})
			continue
		}
		// An exception logged as its repr at the end of a line: "ERROR …
		// IndexError('Error in model execution …: tuple index out of
		// range')" (vllm#11312, #10494), "Failed to import from vllm._C
		// with ImportError('…: undefined symbol: …')" (vllm#5501).
		// Logged as a warning, it is an exception a fallback caught
		// (vllm#6269's "Failed to import from vllm._C with
		// ModuleNotFoundError(…)" before the TypeError its title names).
		if m := excReprRE.FindStringSubmatch(t); m != nil {
			set.add(ErrorInfo{Type: m[1], Message: strings.ReplaceAll(m[3], `\'`, "'"), warning: warningLineRE.MatchString(raw)})
			continue
		}
		// A pydantic error line pasted without the ValidationError head
		// above it: "Value error, torch.bfloat16 is not supported for
		// quantization method awq. … [type=value_error, input_value=…]"
		// (vllm#28857, #20253 in a code span, a GPTQ write-up, an Ascend
		// setup's attention backend). The trailer is pydantic v2's own,
		// so the class is the one its head would have named.
		if m := validationLineRE.FindStringSubmatch(t); m != nil && i > validatedUntil && pydanticTrailerRE.MatchString(t) {
			set.add(ErrorInfo{Type: pydanticValidationError, Message: m[1]})
			continue
		}
		for _, le := range lineErrors {
			if ix := le.re.FindStringSubmatchIndex(t); ix != nil {
				e := le.read(submatches(t, ix), next)
				// Quoted in a sentence ("Then, \"CUDA error: unknown
				// error\" is thrown before loading module", vllm#19077),
				// the message ends at the closing quote.
				e.Message = endAtQuote(t, ix[0], e.Message)
				set.add(e)
				break
			}
		}
	}
}

// submatches returns the strings of a FindStringSubmatchIndex result,
// "" for a group that did not take part.
func submatches(s string, ix []int) []string {
	m := make([]string, len(ix)/2)
	for i := range m {
		if ix[2*i] >= 0 {
			m[i] = s[ix[2*i]:ix[2*i+1]]
		}
	}
	return m
}

// endAtQuote cuts msg, an error read from line at offset at, at the
// quote that closes one opened just before at: a backtick or a double
// quote, which do not occur inside error messages. A single quote is
// left alone: messages quote names with it ("KeyError: 'model.layers.0'").
func endAtQuote(line string, at int, msg string) string {
	if at == 0 || (line[at-1] != '`' && line[at-1] != '"') {
		return msg
	}
	if k := strings.IndexByte(msg, line[at-1]); k >= 0 {
		return strings.TrimRight(msg[:k], " ")
	}
	return msg
}

// validationHeadRE is the first line of a pydantic ValidationError's
// message, which names only the model; the error itself is on a line
// below it ("1 validation error for VllmConfig" then "  Value error,
// Model Runner V2 does not yet support: …", as vLLM's configuration
// classes raise it: corpus #28981 and #42963,
// intel/intel-xpu-backend-for-triton#7166).
var validationHeadRE = regexp.MustCompile(`^(\d+) validation errors? for [\w.]+$`)

// validationCount reports whether msg is a ValidationError head's
// message and how many errors it counts (at most maxValidationErrors).
func validationCount(msg string) (int, bool) {
	m := validationHeadRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n > maxValidationErrors {
		n = maxValidationErrors
	}
	return n, true
}

// linesPerValidationError is how many lines pydantic prints for each
// error under a ValidationError head: the field (or the model's name),
// the message with its trailer, and the "For further information"
// line. maxValidationErrors bounds the count a head's number may claim.
const (
	linesPerValidationError = 3
	maxValidationErrors     = 64
)

// pydanticValidationError is the class pydantic v2 raises, as a
// traceback's last line names it.
const pydanticValidationError = "pydantic_core._pydantic_core.ValidationError"

// pydanticTrailerRE is the trailer pydantic v2 puts after each error's
// message: the error's type and the input it refused.
var pydanticTrailerRE = regexp.MustCompile(`\[type=(?:value|assertion)_error\b`)

// validationLineRE is a pydantic error line: the validator's own message
// after its kind, before pydantic's "[type=…, input_value=…]" trailer.
var validationLineRE = regexp.MustCompile(`^\s*(?:Value|Assertion) error, (.+?)(?:\s*\[type=.*)?$`)

// validationMessage returns the first validator message among the lines
// after a ValidationError's head, or "".
func validationMessage(lines []string) string {
	for _, l := range lines {
		if len(l) > 4096 {
			l = l[:4096]
		}
		if m := validationLineRE.FindStringSubmatch(logPrefixRE.ReplaceAllString(l, "")); m != nil {
			return m[1]
		}
	}
	return ""
}

// lineErrors are errors other runtimes and libraries print on one line
// (and at most the next), tried in order.
var lineErrors = []struct {
	re   *regexp.Regexp
	read func(m []string, next string) ErrorInfo
}{
	{goPanicRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "panic", Message: m[1]} }},
	{rustPanicRE, func(m []string, next string) ErrorInfo {
		msg := m[2]
		if msg == "" {
			msg = strings.TrimSpace(next)
		}
		return ErrorInfo{Type: "rust-panic", Message: msg}
	}},
	{cppThrowRE, func(m []string, next string) ErrorInfo {
		msg := ""
		if w := cppWhatRE.FindStringSubmatch(next); w != nil {
			msg = w[1]
		}
		return ErrorInfo{Type: m[1], Message: msg}
	}},
	{notFoundRE, func(m []string, _ string) ErrorInfo {
		return ErrorInfo{Type: "command-not-found", Message: m[1] + m[2]}
	}},
	{usageErrRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "usage-error", Message: usageMessage(m)} }},
	{fatalPyRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "fatal-python-error", Message: m[1]} }},
	{pipErrRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "pip-error", Message: pipMessage(m[1])} }},
	{dockerDaemonRE, func(m []string, _ string) ErrorInfo {
		return ErrorInfo{Type: "docker-error", Message: strings.TrimRight(strings.TrimSpace(m[1]), ".")}
	}},
	{signalRE, func(m []string, _ string) ErrorInfo {
		return ErrorInfo{Type: "signal", Message: strings.TrimSpace(m[1] + m[2])}
	}},
	{killedRE, func([]string, string) ErrorInfo { return ErrorInfo{Type: "signal", Message: "Killed"} }},
	{watchdogRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "nccl-timeout", Message: m[1]} }},
	{ncclErrRE, func(m []string, _ string) ErrorInfo {
		return ErrorInfo{Type: "nccl-error", Message: strings.TrimSpace(m[1] + " " + m[2])}
	}},
	{hipErrRE, func(m []string, _ string) ErrorInfo {
		return ErrorInfo{Type: "hip-error", Message: withoutDoingClause(m[2])}
	}},
	{ptxasErrRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "ptxas-error", Message: m[1]} }},
	{cudaErrRE, func(m []string, _ string) ErrorInfo {
		return ErrorInfo{Type: "cuda-error", Message: withoutDoingClause(m[2])}
	}},
	{cudaStatusRE, func(m []string, _ string) ErrorInfo { return ErrorInfo{Type: "cuda-error", Message: m[1] + " " + m[2]} }},
}

// doingClauseRE is the clause a writer adds after a device runtime's
// message to say what they were doing: "HIP error: invalid argument when
// running an example code from the vllm repo" (ROCm/legacy-rocm-build
// #3246's title), "CUDA error: unknown error when running vllm serve on
// WSL2" (vllm-project/vllm#19077's). The runtimes' own messages hold no
// such gerund ("operation not permitted when stream is capturing" stays
// whole).
var doingClauseRE = regexp.MustCompile(`\s+(?:when|while|after)\s+(?:(?:I|we)\s+(?:am|are|was|were)\s+)?[a-z]+ing\b.*$`)

// withoutDoingClause returns a device runtime's message without the
// clause of the writer's after it (doingClauseRE).
func withoutDoingClause(msg string) string {
	if loc := doingClauseRE.FindStringIndex(msg); loc != nil && loc[0] > 0 {
		return msg[:loc[0]]
	}
	return msg
}

// pipBuildRE is each way pip words a failed build: by version, or on the
// several lines one failure prints.
var pipBuildRE = regexp.MustCompile(`(?i)^(?:Building wheel for ([\w.-]+) \([\w.-]+\) did not run successfully|Could not build wheels for ([\w.-]+)|Failed building wheel for ([\w.-]+))`)

// pipMessage is the comparable part of a pip failure: a failed build is
// worded one way, whichever pip printed it.
func pipMessage(msg string) string {
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	if m := pipBuildRE.FindStringSubmatch(msg); m != nil {
		return "Failed building wheel for " + strings.ToLower(m[1]+m[2]+m[3])
	}
	return msg
}

// usageMessage is the comparable part of a command-line usage error: the
// flag and what was wrong with it, without the refused value and the
// choices (which change between versions), or the flags named as
// unrecognised or missing, without their values.
func usageMessage(m []string) string {
	if m[1] != "" {
		return m[1] + ": " + m[2]
	}
	var flags []string
	for _, w := range strings.Fields(m[4]) {
		w = strings.Trim(w, ",`'\"")
		if strings.HasPrefix(w, "-") && len(flags) < 8 {
			flags = append(flags, w)
		}
	}
	if len(flags) == 0 {
		return m[3]
	}
	return m[3] + ": " + strings.Join(flags, " ")
}

// exceptionHeadingRE is the generic word "Exception" used as a heading:
// alone on its line with a colon, as people title the log they paste
// next.
var exceptionHeadingRE = regexp.MustCompile(`(?i)^(?:the\s+)?exceptions?\s*:$`)

// proseClassRE is an exception class named in a sentence as the one the
// poster or their program met: after "I get", "I'm getting", "it
// throws", "we hit", "which raises", or after a failure "with" ("dies
// with", "fails with"). A class named otherwise is talked about, not met
// ("you get a ValueError saying …" in a feature request, vllm-dev B073;
// "raise ValueError(" in a traceback's source line).
var proseClassRE = regexp.MustCompile(`(?i:\b(?:(?:i|we|it|this|that|which|and|but|then)(?:'m| am| are|'re| was| were| have been|'ve been| had| have|'ve)?\s+(?:(?:also|still|always|now|keep|kept)\s+)?(?:gets?|got|getting|sees?|saw|seeing|hits?|hitting|encounter(?:s|ed|ing)?|throws?|threw|throwing|raises?|raised|raising)|(?:fails?|failed|failing|crash(?:es|ed)?|crashing|dies|died|dying|exits?|exited|stops?|stopped|errors? out|errored out)\s+with)\s+(?:an?\s+|the\s+)?(?:\*\*|__|\*|_)?)((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\b`)

// proseClass returns the first exception class a sentence of the post
// names as the one the poster met (proseClassRE), or "". Posts that
// paste no log often say only that ("The server dies with AssertionError
// when I set --enable-prefix-caching"), as titles do (titleClassRE).
func proseClass(prose []string) string {
	for _, l := range prose {
		for _, ix := range proseClassRE.FindAllStringSubmatchIndex(l, 4) {
			if end := ix[3]; end < len(l) && (l[end] == ':' || l[end] == '(') {
				continue // a class with its message (the line readers' part), or a call
			}
			return l[ix[2]:ix[3]]
		}
	}
	return ""
}

// titleClassRE finds an exception class named as a word of a title.
var titleClassRE = regexp.MustCompile(`(?:^|\s)((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))(?:\s|$)`)

// titleTemplateRE matches the prefixes issue templates and habits put
// before a title: "[Bug]: ", "[Usage] ", "[BUG]", "[Installation]: ".
var titleTemplateRE = regexp.MustCompile(`^\s*(?:\[[^\]]{1,30}\]\s*:?\s*)+`)

// titleText is a post's title as every reader of it sees it: typographic
// forms folded (normalizeText), and its leading tags set apart from the
// first word by a space. Trackers' templates end in a space, but people
// type over it: "[Bug]:RuntimeError: Engine core initialization
// failed." (vllm-project/vllm#18730), "[Bug]:unsloth/DeepSeek-R1-…"
// (#13122), "[Misc]Clarify Error Handling …" (#13724), "[New
// Model]:Can you support …" (#14739); seventeen corpus titles do. Read
// glued, the tag's bracket or colon hid the first word from every rule
// that finds a name or a flag where a word starts.
func titleText(title string) string {
	title = strings.TrimSpace(normalizeText(title))
	if m := titleTemplateRE.FindString(title); m != "" && len(m) < len(title) && !strings.HasSuffix(m, " ") {
		return m + " " + title[len(m):]
	}
	return title
}

// stripTitleTemplate removes a template prefix from a title.
func stripTitleTemplate(title string) string {
	return strings.TrimSpace(titleTemplateRE.ReplaceAllString(title, ""))
}

// supportTemplateRE matches the prefixes of the trackers' help-request
// templates ("[Bug]: ", "[Usage] ", "[Misc]", "[Question]"), which say
// what kind of post it is and nothing of what it is about. It is not
// supportTitleRE (decide.go), the templates whose word says a post asks
// for help: "[Installation]" and "[Performance]" do that and also name a
// subject, so they are kept as title words here.
var supportTemplateRE = regexp.MustCompile(`^\s*(?:\[(?i:bug|usage|misc|question)\]\s*:?\s*)+`)

// titleWords is a title as its words are matched, on both sides, against
// entries' and posts' words: without a help-request template. A forum
// post about a bug carries no "[Bug]:", the GitHub issue about the same
// bug does, and the answer must not turn on that (the same post titled
// with and without it, TestMetamorphicTitleTemplate). Templates that name a
// subject ("[Installation]", "[Performance]", "[New Model]") stay words.
func titleWords(title string) string {
	return supportTemplateRE.ReplaceAllString(title, "")
}

// warningLineRE is a log line below ERROR.
var warningLineRE = regexp.MustCompile(`^\s*(?:\([^)]*\)\s*)*(?:WARNING|WARN|INFO|DEBUG)\b`)

// excReprRE is an exception's repr ending a line: the class, then its
// message quoted in parentheses.
var excReprRE = regexp.MustCompile(`(?:^|[\s(\[>:,;])((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\((['"])(.{1,1000})['"]\)[.,;]?$`)

// embeddedExcRE finds an exception class followed by a colon anywhere in a
// line, after a space, bracket, quote or label, or glued to the Chinese or
// Japanese words before it, as those write no space there ("使用vllm推理
// Kimi_vl时提示ValueError: …", hiyouga/LlamaFactory#8022's title; "运行
// 报错RuntimeError: …" in notes and posts of many projects).
var embeddedExcRE = regexp.MustCompile(`(?:^|[\s(\[>:,;"'` + "`" + cjkRunes + `])((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault)|Exception|AssertionError|StopIteration|KeyboardInterrupt)):(?:\s+(\S.*))?$`)

var (
	bodyTypeRE = regexp.MustCompile(`["']type["']\s*:\s*["']((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))["']`)
	bodyMsgRE  = regexp.MustCompile(`["']message["']\s*:\s*(?:"((?:[^"\\\n]|\\.){1,600})"|'((?:[^'\\\n]|\\.){1,600})')`)
)

// bodyErrorWindow bounds how far from its "type" an error body's "message"
// may be: both are keys of one small object.
const bodyErrorWindow = 800

// bodyErrors reads API error bodies: an object with a "type" naming an
// exception class and a "message", in JSON or Python-dict quoting, on one
// line or several.
func bodyErrors(text string) []ErrorInfo {
	var out []ErrorInfo
	typed := bodyTypeRE.FindAllStringSubmatchIndex(text, 8)
	for _, m := range typed {
		msg, _ := nearestBodyMessage(text, m[0], m[1])
		out = append(out, ErrorInfo{Type: text[m[2]:m[3]], Message: msg})
	}
	// The OpenAI-compatible server's error object without its "type",
	// which clients cut or leave out ({"object":"error","message":"\"auto\"
	// tool choice requires --enable-auto-tool-ch…", relayed by Home
	// Assistant, mike-nott/mcp-assist#21; vLLM's own error bodies before
	// they named a class): its message, as an api-error.
	for _, m := range bodyObjectRE.FindAllStringIndex(text, 8) {
		if slices.ContainsFunc(typed, func(t []int) bool { return t[0] > m[0]-bodyErrorWindow && t[0] < m[1]+bodyErrorWindow }) {
			continue // the typed error read above
		}
		msg, _ := nearestBodyMessage(text, m[0], m[1])
		if msg == "" || strings.HasPrefix(msg, "\\") {
			// A renderer that dropped the escapes ("message":""auto"
			// tool choice …", Markdown's \" cooked to "): the message
			// runs to the quote that ends the value.
			if mm := bodyLooseMsgRE.FindStringSubmatch(text[m[1]:min(len(text), m[1]+bodyErrorWindow)]); mm != nil {
				msg = mm[1]
			}
		}
		if msg != "" {
			out = append(out, ErrorInfo{Type: "api-error", Message: msg})
		}
	}
	return out
}

// bodyLooseMsgRE is an error object's "message" whose inner quotes are
// not escaped: the value ends at a quote before a comma, a brace or the
// end of the line.
var bodyLooseMsgRE = regexp.MustCompile(`(?m)^\s*,?\s*["']message["']\s*:\s*"(.{1,600}?)"\s*(?:[,}]|\.?\s*$)`)

// bodyObjectRE is the OpenAI-compatible error object's marker.
var bodyObjectRE = regexp.MustCompile(`["']object["']\s*:\s*["']error["']`)

// nearestBodyMessage returns the "message" nearest to text[start:end]
// within bodyErrorWindow, unescaped.
func nearestBodyMessage(text string, start, end int) (string, bool) {
	lo, hi := max(0, start-bodyErrorWindow), min(len(text), end+bodyErrorWindow)
	win := text[lo:hi]
	pos := start - lo
	best, bestDist := "", -1
	for _, mm := range bodyMsgRE.FindAllStringSubmatchIndex(win, 8) {
		d := mm[0] - pos
		if d < 0 {
			d = -d
		}
		if bestDist >= 0 && d >= bestDist {
			continue
		}
		g := 2
		if mm[2] < 0 {
			g = 4
		}
		best, bestDist = win[mm[g]:mm[g+1]], d
	}
	return strings.ReplaceAll(strings.ReplaceAll(best, `\"`, `"`), `\'`, `'`), bestDist >= 0
}

// errorKind is Herald's category for an error, independent of the class
// Python printed: "RuntimeError: CUDA error: ..." is a cuda-error.
func errorKind(e ErrorInfo) string {
	switch e.Type {
	case "cuda-error", "hip-error", "nccl-error", "nccl-timeout", "panic", "rust-panic",
		"command-not-found", "fatal-python-error", "signal", "usage-error", "pip-error", "ptxas-error",
		"docker-error":
		return e.Type
	}
	msg := strings.ToLower(e.Message)
	switch {
	case strings.Contains(e.Type, "OutOfMemory") || strings.Contains(msg, "out of memory"):
		return "oom"
	case strings.Contains(msg, "nccl"):
		return "nccl-error"
	case strings.Contains(msg, "cuda error") || strings.Contains(msg, "cublas_status"):
		return "cuda-error"
	case strings.Contains(msg, "hip error"):
		return "hip-error"
	}
	return kindException
}

// kindException is the kind of an error Herald has no category for: a
// program's exception, whose message is the program's account of it.
const kindException = "exception"

// prioritise orders errors by how much they say: specific exceptions from
// tracebacks first, generic wrappers last, then the order of appearance.
func prioritise(errs []ErrorInfo) []ErrorInfo {
	wrapped := map[string]bool{}
	for _, e := range errs {
		for _, c := range e.Causes {
			wrapped[c] = true
		}
	}
	rank := func(e ErrorInfo) int {
		if wrapped[e.Type] && len(e.Causes) == 0 {
			return 2 // the start of a chain whose end is reported
		}
		msg := strings.ToLower(e.Message)
		for _, w := range genericWrappers {
			if strings.Contains(msg, w) {
				return 3
			}
		}
		switch e.Type {
		case "cuda-error", "hip-error", "nccl-error", "nccl-timeout", "signal", "fatal-python-error",
			"command-not-found", "usage-error", "ptxas-error", "docker-error":
			return 1
		case "pip-error":
			// pip reports that a build or a resolution failed; an
			// exception in the build's log says why.
			return 2
		}
		if e.warning {
			return 3
		}
		if strings.HasSuffix(e.Type, "Warning") {
			return 4
		}
		if e.Message == "" {
			return 2
		}
		return 0
	}
	out := make([]ErrorInfo, 0, len(errs))
	for r := 0; r <= 4; r++ {
		for _, e := range errs {
			if rank(e) == r {
				out = append(out, e)
			}
		}
	}
	return out
}

// framePackage returns the top-level package of a traceback frame path:
// ".../site-packages/vllm/engine/llm_engine.py" → "vllm", or main for a
// frame in its source tree ("/workspace/vllm/vllm/worker.py").
func framePackage(file, main string) string {
	file = strings.ReplaceAll(file, "\\", "/")
	for _, marker := range []string{"site-packages/", "dist-packages/"} {
		if i := strings.LastIndex(file, marker); i >= 0 {
			rest := file[i+len(marker):]
			pkg, _, _ := strings.Cut(rest, "/")
			return strings.TrimSuffix(pkg, ".py")
		}
	}
	if main != "" && strings.Contains(file, "/"+main+"/") {
		return main
	}
	return ""
}

var (
	maskHexRE    = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{12,}\b`)
	maskPathRE   = regexp.MustCompile(`(?:~|\.{1,2})?(?:/[\w.@+-]+){2,}/?`)
	maskNumRE    = regexp.MustCompile(`\d+(?:\.\d+)?`)
	maskListRE   = regexp.MustCompile(`\[[^\[\]]{60,}\]`)
	maskSpaceRE  = regexp.MustCompile(`\s+`)
	maskRepeatRE = regexp.MustCompile(`(<N>[.,]?)+`)
)

// Signature builds the comparable form of an error: its type and its
// message with hex, paths, long quoted strings and numbers masked. Two
// reports of the same failure on different machines have equal signatures.
func Signature(typ, msg string) string {
	m := maskHexRE.ReplaceAllString(msg, "<HEX>")
	m = maskPathRE.ReplaceAllString(m, "<PATH>")
	m = maskListRE.ReplaceAllString(m, "[<LIST>]")
	m = maskNumRE.ReplaceAllString(m, "<N>")
	m = maskRepeatRE.ReplaceAllString(m, "<N>")
	m = maskSpaceRE.ReplaceAllString(strings.TrimSpace(m), " ")
	if len(m) > 200 {
		m = m[:200]
	}
	if m == "" {
		return typ
	}
	return typ + ": " + m
}

var (
	oomTriedRE = regexp.MustCompile(`(?i)tried to allocate ([\d.]+) ?([KMGT]i?B)`)
	// PyTorch 2.1 spelt it "total capacty of" (posts of several projects).
	oomTotalRE     = regexp.MustCompile(`(?i)total capaci?ty of ([\d.]+) ?([KMGT]i?B)`)
	oomFreeRE      = regexp.MustCompile(`(?i)of which ([\d.]+) ?([KMGT]i?B) is free`)
	oomAllocatedRE = regexp.MustCompile(`(?i)([\d.]+) ?([KMGT]i?B) is allocated by PyTorch`)
	oomReservedRE  = regexp.MustCompile(`(?i)([\d.]+) ?([KMGT]i?B) is reserved by PyTorch but unallocated`)
	seqLenRE       = regexp.MustCompile(`(?i)max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in KV cache \((\d+)\)`)
	ctxLenRE       = regexp.MustCompile(`(?i)maximum context length is (\d+) tokens`)
)

// errorNumbers pulls the key figures out of an error message.
func errorNumbers(msg string) map[string]float64 {
	n := map[string]float64{}
	mem := func(re *regexp.Regexp, key string) {
		if m := re.FindStringSubmatch(msg); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				n[key] = toGiB(v, m[2])
			}
		}
	}
	mem(oomTriedRE, "oom_tried_gib")
	mem(oomTotalRE, "oom_total_gib")
	mem(oomFreeRE, "oom_free_gib")
	mem(oomAllocatedRE, "oom_allocated_gib")
	mem(oomReservedRE, "oom_reserved_gib")
	if m := seqLenRE.FindStringSubmatch(msg); m != nil {
		a, _ := strconv.ParseFloat(m[1], 64)
		b, _ := strconv.ParseFloat(m[2], 64)
		n["max_seq_len"], n["kv_tokens"] = a, b
	}
	if m := ctxLenRE.FindStringSubmatch(msg); m != nil {
		a, _ := strconv.ParseFloat(m[1], 64)
		n["max_context_len"] = a
	}
	if len(n) == 0 {
		return nil
	}
	return n
}

func toGiB(v float64, unit string) float64 {
	switch strings.ToUpper(unit[:1]) {
	case "K":
		return v / (1 << 20)
	case "M":
		return v / 1024
	case "T":
		return v * 1024
	}
	return v
}
