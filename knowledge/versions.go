package knowledge

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

// versionRE is a release version: 0.24.0, 0.6.3.post1, 0.8.0rc3.dev31+g61f41218,
// 2.4.0+cu121, 0.24.0+rocm725. A local label's dots join its parts, so a
// full stop after it ends the sentence ("vllm==0.7.3.dev164+g54ed913f.").
const versionPat = `v?(\d+\.\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev|post|dev)\d*)*(?:\.dev\d+)?(?:\+\w+(?:\.\w+)*)?)`

var (
	// "vllm -v" / "vllm --version" on one line, the version on the next.
	versionCmdRE = regexp.MustCompile(`^\s*(?:[$%#>]\s*)?([\w.-]+)\s+(?:-v|-V|--version|version)\s*$`)
	// The same question asked of Python, as install guides tell people to
	// and bug reports paste (pytorch/pytorch#137695): python -c "import
	// vllm; print(vllm.__version__)", the version on the next line.
	pyVersionCmdRE = regexp.MustCompile(`^\s*(?:[$%#>]\s*)?python[\d.]*\s+-c\s+["']\s*import\s+([\w.]+)\s*;\s*print\(\s*([\w.]+)\.__version__\s*\)\s*;?\s*["']\s*$`)
	// The same question typed in a Python session, at its prompt or as a
	// script's line, the answer printed below it: ">>> print(torch.
	// __version__)" and "2.0.1+cu118" (vllm#669), "print(torch.
	// __version__)" and "1.8.1+cu102" (pytorch/pytorch#85332), IPython's
	// "In [2]: vllm.__version__" and "Out[2]: '0.6.3'"; torch.version.cuda
	// answers the CUDA release torch was built with ("'11.8'", vllm#669).
	pyVersionExprRE = regexp.MustCompile(`^\s*(?:>>>\s*|In \[\d+\]:\s*)?(?:print\(\s*)?(?:([A-Za-z_]\w*)\.__version__|(torch)\.version\.(cuda))\s*(?:\)\s*)?;?\s*$`)
	// versionAnswerRE is the line that answers a version query: the
	// version alone, in a string's quotes, behind IPython's "Out[n]: ".
	versionAnswerRE = regexp.MustCompile(`^\s*(?:Out\[\d+\]:\s*)?(['"]?)` + versionPat + `(['"]?)\s*$`)
	bareVersionRE   = regexp.MustCompile(`^\s*` + versionPat + `\s*$`)
	pipShowRE       = regexp.MustCompile(`^Name:\s*([\w.-]+)\s*$`)
	pipShowVerRE    = regexp.MustCompile(`^Version:\s*` + versionPat)
	cudaVersionRE   = regexp.MustCompile(`(?i)\b(?:CUDA Version:?|CUDA used to build PyTorch\s*:|cuda\s*:?)\s*(\d+\.\d+)\b`)
	rocmVersionRE   = regexp.MustCompile(`(?i)\b(?:ROCM used to build PyTorch\s*:|ROCm(?: version)?:?)\s*(\d+\.\d+(?:\.\d+)?)`)
	ncclVersionRE   = regexp.MustCompile(`(?i)\bNCCL version\s*(\d+\.\d+\.\d+)`)
	pythonVerRE     = regexp.MustCompile(`(?i)\bPython(?: version)?:?\s*(3\.\d+(?:\.\d+)?)`)
	osRE            = regexp.MustCompile(`(?i)\b((?:Ubuntu (?:Server )?|(?-i:Ubuntu))\d+\.\d+(?:\.\d+)?(?: LTS)?|Debian(?: GNU/Linux)? \d+|CentOS(?: Linux)? \d+|Rocky Linux \d+(?:\.\d+)?|Red Hat Enterprise Linux[\w ]*\d+(?:\.\d+)?|RHEL \d+(?:\.\d+)?|Windows (?:10|11|Server \d+)|WSL2?|macOS \d+(?:\.\d+)*|Arch Linux|Fedora(?: Linux)? \d+)`)
	exportEnvRE     = regexp.MustCompile(`^\s*(?:export\s+)([A-Z][A-Z0-9_]+)=(\S*)\s*$`)
)

// Version statements are weighed by how they were made: a tool's own
// listing (pip, collect_env, `x --version`, a pinned requirement, an
// image tag) outranks a labelled statement ("vLLM version: 0.8.3"),
// which outranks a package named beside a number in a sentence ("the
// support that arrived in transformers 5.10"), which outranks the title.
// Within a tier the first statement wins.
const (
	tierTitle = iota + 1
	tierProse
	tierLabelled
	tierListing
)

var (
	// "name==1.2.3", "name=1.2.3" (pip freeze, conda, requirements), a
	// sentence's full stop after it or not.
	pinRE = regexp.MustCompile(`(?:^|[\s(,;` + "`" + `'"])([A-Za-z][\w.-]*[A-Za-z0-9])\s*={1,2}\s*` + versionPat + `\.?(?:[\s,;)` + "`" + `'"]|$)`)
	// A pip list / conda list row or a bullet: "vllm      0.9.2",
	// "- triton-windows 3.8.0.post28".
	listRowRE = regexp.MustCompile(`^\s*(?:[-*•]\s+)?([A-Za-z][\w.-]*[A-Za-z0-9])(?:\s{2,}|\s+(?:[-*]\s*)?|\s*[:|]\s*)` + versionPat + `(?:\s+\S+)?\s*$`)
	// "NAME version: X", "NAME version is X", "NAME 版本：X", "NAME: X",
	// "NAME : X" (collect_env), with the value optionally quoted. A
	// Chinese sentence glues the name to the words before it and says
	// "is" its own way: "用的VLLM版本v0.10.0" (studio-dots-ai/dots.ocr#260),
	// "vllm版本是0.12.0" (zai-org/GLM-V#223). Korean and Japanese write
	// the label in their own words, Japanese with "の" before it: "vLLM
	// 버전: 0.14.0" (Korean experiment reports), "vLLM バージョン: 0.10.1"
	// (what Japanese setup scripts print), "vLLMのバージョンは0.8.5".
	labelledRE = regexp.MustCompile(`(?i)(?:^|[\s(,;` + "`" + cjkRunes + `])([A-Za-z][\w.-]*[A-Za-z0-9])(?:\s*の?\s*(?:version|版本|버전|バージョン|ver\.?)\s*(?:is|是|为|為|은|는|は|が|:|=)?|\s*:)\s*['"` + "`" + `]?` + versionPat + `\b`)
	// An image reference with a version tag: vllm/vllm-openai:v0.8.3,
	// ghcr.io/x/vllm:v0.8.1, nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc2.
	imageTagRE = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `'"=])((?:[\w.-]+/)*[\w.-]+):v?(\d+\.\d+[\w.+-]*?)\.?(?:[\s)\]` + "`" + `'",]|$)`)
	driverRE   = regexp.MustCompile(`(?i)\b(?:NVIDIA |Nvidia )?driver version\s*:?\s*(\d{3}\.\d+(?:\.\d+)?)`)
	nvccRE     = regexp.MustCompile(`(?i)\bCuda compilation tools, release (\d+\.\d+)`)
	// "Python: 3.12", "Python 3.11.13", "Python version: 3.12.13"; not
	// "python3.10/site-packages".
	pythonStatedRE = regexp.MustCompile(`(?i)(?:^|[^/\w])Python(?:\s+version)?(?:\s*:\s*|\s+)v?(3\.\d{1,2}(?:\.\d+)?)\b`)
)

// compiledPackages are a vocabulary's package names ready to match.
type compiledPackages struct {
	// known holds the literal names, lower-cased.
	known map[string]bool
	// stated matches a package named beside a version: "vllm==0.6.3",
	// "vllm 0.6.3" (pip list), "vLLM version: 0.8.3", "vllm version
	// 0.5.3"; nil when the vocabulary names none.
	stated *regexp.Regexp
	// needles are the lower-cased literal heads of the names: a line
	// holding none of them is not tried against stated, which keeps a
	// long line of punctuation cheap.
	needles []string
}

// mayState reports whether a line names any of the packages.
func (c compiledPackages) mayState(l string) bool {
	l = strings.ToLower(l)
	return slices.ContainsFunc(c.needles, func(n string) bool { return strings.Contains(l, n) })
}

func compilePackages(names []string) compiledPackages {
	c := compiledPackages{known: map[string]bool{}}
	var alts []string
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if stem, ok := strings.CutSuffix(n, "*"); ok {
			alts = append(alts, regexp.QuoteMeta(stem)+`\d+`)
			c.needles = append(c.needles, stem)
			continue
		}
		if n != "" {
			c.known[n] = true
			alts = append(alts, regexp.QuoteMeta(n))
			c.needles = append(c.needles, n)
		}
	}
	if len(alts) == 0 {
		return c
	}
	// Longer names first, so "vllm-flash-attn" is not read as "vllm".
	sort.SliceStable(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	// The name may be glued to its version, as titles and Chinese posts
	// write it ("vllm0.6.3.post1 … on wsl", vllm#10116; "WSL2中vllm0.4.0
	// 无法启动", #4140; "Using VLLM0.7.2 server", #13252) or a wheel
	// names it ("vllm-0.6.3"); so what precedes the name is anything but a
	// word, a path or a dotted name. A sentence may say "is" between them
	// ("My vllm is 0.8.2.", vllm-project/vllm#15871; "My current vllm is
	// 0.6.5.", Tomorrowdawn/top_nsigma#2), as a label's "version is" does.
	// One "=" pins as two do, as conda writes it and titles copy it
	// ("2080ti 22G * 4, vllm=0.4.0 startup error", vllm-project/vllm#3764;
	// corpus bodies' "vllm=0.7.3", read there as pins).
	//
	// The version may follow the name in brackets, as write-ups and
	// reports put it ("using vLLM (v0.16.0) via Docker on a single RTX
	// 5090", "deploy … using vllm (v0.8.5 and v0.8.5.post1)" in vLLM
	// issues; "Docker + vLLM（0.20.1）", "vllm（0.2.5）" in Chinese notes,
	// whose brackets are full-width), or after a CJK "is" ("vllm是0.9.1",
	// "vLLMは0.10.2を使っています"), or set as code after the name
	// ("vllm `0.8.1`", vllm-project/vllm#16128; the versions-as-code
	// perturbation).
	c.stated = regexp.MustCompile(`(?i)(?:^|[^\w.\-/\\])(` + strings.Join(alts, "|") + `)(?:\s+version)?(?:\s*={1,2}\s*|\s*:\s*|\s+is\s+|\s*[(（]\s*|\s*(?:是|为|は)\s*|\s+` + "`" + `|\s+|-)?` + versionPat + `\b`)
	return c
}

// pkgs returns the schema's compiled package names (none for a nil or
// unprepared schema; Extract prepares the schema it is given).
func (s *Schema) pkgs() compiledPackages {
	if s == nil {
		return compiledPackages{}
	}
	return s.packages
}

// notPackages are labels that precede numbers but name no package.
var notPackages = map[string]bool{
	"version": true, "release": true, "driver": true, "compute": true, "capability": true,
	"temperature": true, "top_p": true, "top-p": true, "port": true, "line": true, "step": true,
	"epoch": true, "loss": true, "time": true, "took": true, "memory": true, "utilization": true,
	"ratio": true, "rate": true, "speed": true, "throughput": true, "latency": true, "score": true,
	"ip": true, "host": true, "address": true, "date": true, "size": true, "total": true, "free": true,
	"used": true, "gpu": true, "gib": true, "gb": true, "mb": true, "arch": true, "sm": true,
	"kernel": true, "os": true, "ubuntu": true, "image": true, "tag": true, "linux": true,
	// A Helm chart's own release ("Helm Chart Version: 0.1.2",
	// vllm-project/production-stack#407; "chart: … version: v0.85.9",
	// VictoriaMetrics/helm-charts#3070) is the deployment's, not a package's.
	"chart": true,
	// Qualifiers before "version": "API server version", "CUDA runtime
	// version", "build version".
	"server": true, "runtime": true, "api": true, "build": true, "client": true, "engine": true,
	"library": true, "lib": true, "package": true, "platform": true, "model": true, "bios": true,
	"firmware": true, "protocol": true, "schema": true, "config": true, "file": true, "format": true,
	// A source control identity: "version or commit hash: 0.5.2.dev101+g8b2c612f"
	// (vllm-project/llm-compressor#1550) names the tool before it.
	"hash": true, "commit": true, "revision": true, "sha": true,
	// Log levels: uvicorn's access log ("INFO:172.16.18.69:52036 - "POST
	// …") and Python's logging ("WARNING:root:…") put an address or a
	// logger after them, never a version.
	"info": true, "warning": true, "warn": true, "error": true, "debug": true, "critical": true,
	"trace": true, "fatal": true, "notice": true,
	// "[notice] A new release of pip is available: 23.1.2 -> 23.3.2".
	"available": true,
	// Where a version was read, not what it is of: pip's "Could not find
	// a version that satisfies the requirement torch==2.6.0 (from
	// versions: 1.11.0, 1.12.0, …)" lists what an index offers
	// (vllm#13479), "engine version from logs: v0.16.1rc1" (vllm#36450).
	"versions": true, "log": true, "logs": true,
	// Which of a package's versions, not which package: "vllm latest
	// version 0.10.1.1", "the current release: 0.9.2", "same version as
	// before".
	"latest": true, "newest": true, "current": true, "stable": true, "nightly": true,
	"previous": true, "same": true, "new": true, "newer": true, "old": true, "older": true, "last": true,
	// The same for which a version is against what is asked of it: "my
	// currently installed version is 2.1.0a0+41361538.nv23.06"
	// (vllm-project/vllm#5640), "the installed version is 2.1.280",
	// "required version: 2.0", "Desired | Actual" columns.
	"installed": true, "required": true, "minimum": true, "recommended": true, "expected": true,
	"desired": true, "actual": true, "supported": true,
}

// versionKey normalises a package name.
func versionKey(pkg string) string {
	pkg = strings.ToLower(pkg)
	switch pkg {
	case "pytorch":
		return "torch"
	case "flashinfer-python":
		return "flashinfer"
	case "flash_attn":
		return "flash-attn"
	case "vllm_ascend":
		return "vllm-ascend"
	case "torch_npu":
		return "torch-npu"
	}
	if strings.HasPrefix(pkg, "nvidia-nccl-") {
		return "nccl"
	}
	return pkg
}

// fullVersion reports whether ver has the form only versions have: three
// or more numbers, or a pre-release, post-release or local suffix.
func fullVersion(ver string) bool {
	return strings.Count(ver, ".") >= 2 || strings.ContainsAny(ver, "+") || strings.Contains(ver, "rc") || strings.Contains(ver, "post") || strings.Contains(ver, "dev")
}

// versionSet collects version statements with their tiers.
type versionSet struct {
	v    map[string]string
	tier map[string]int
	pk   compiledPackages
}

func (vs *versionSet) set(pkg, ver string, tier int) {
	pkg = versionKey(pkg)
	if ver == "" || pkg == "" || notPackages[pkg] {
		return
	}
	if old, ok := vs.v[pkg]; ok && sameRelease(old, ver) {
		// One release stated twice, once with its local version label:
		// collect_env prints "PyTorch version: 2.6.0+cu124" and then
		// pip's "torch==2.6.0" (vllm#16948, #4577). The label says which
		// build it is, so it stays, whichever statement carries it.
		if strings.Contains(ver, "+") {
			vs.v[pkg] = ver
		}
		vs.tier[pkg] = max(vs.tier[pkg], tier)
		return
	}
	if t, ok := vs.tier[pkg]; ok && t >= tier {
		return
	}
	vs.v[pkg] = ver
	vs.tier[pkg] = tier
}

// sameRelease reports whether a and b are one release and differ at most
// in that one of them carries a local version label ("2.6.0" and
// "2.6.0+cu124").
func sameRelease(a, b string) bool {
	ra, la, _ := strings.Cut(a, "+")
	rb, lb, _ := strings.Cut(b, "+")
	return ra == rb && (la == "" || lb == "")
}

// extractVersions reads versions from tool listings, labelled statements,
// image tags and sentences; see the tiers above.
func extractVersions(doc *document, cmds []Command, errs []ErrorInfo, s *Schema) map[string]string {
	vs := &versionSet{v: map[string]string{}, tier: map[string]int{}, pk: s.pkgs()}
	// An error's message states what the program requires, not what the
	// poster runs ("As of transformers v4.44, default chat template is no
	// longer allowed"), wherever the post quotes it: in a title after the
	// exception's class (vllm-project/vllm#39279), in the server's JSON
	// error body (`{"object":"error","message":"As of transformers v4.44,
	// …"}`, microsoft/agent-lightning#57; `{'error': {'message': …}}`,
	// QwenLM/Qwen3-Omni#105) or after an HTTP status ("400 As of
	// transformers v4.44, …", ByteDance-Seed/Seed-X-7B#7). The words
	// around it are still read.
	quoted := errorMessages(errs)
	lines := doc.lines()
	for i, l := range lines {
		if isErrorLine(l) {
			// "As of transformers v4.44, ..." states no installed
			// version, except in the forms a runtime reports its own.
			vs.labelledForms(l, true)
			continue
		}
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		if pkg := versionQuery(l); pkg != "" {
			if v := versionAnswer(next); v != "" {
				vs.set(pkg, v, tierListing)
				continue
			}
		}
		l = vs.builtFor(tableRow(quoted.blank(l)))
		vs.listed(l, next, s)
		vs.labelled(l)
		vs.prose(l)
	}
	vs.title(quoted.blank(doc.title), s)
	vs.images(cmds, s)
	return vs.v
}

// quotedMessages are the messages of a post's errors, blanked out of a
// line before its versions are read (extractVersions).
type quotedMessages []string

// errorMessages returns the first sentences (firstSentence) of the
// messages of the first maxQuotedMessages exceptions of a post (most
// important first) long enough to be the program's words rather than
// the poster's (minQuotedError), or nil. Only the first sentence: an exception read
// inside a sentence runs to the end of the poster's line ("… gives
// ValueError: The model's max seq len (131072) is larger than … (52000).
// Try increasing … vllm 0.8.5"), whose last words are the poster's. Only
// exceptions: the requirement pip could not meet ("Could not find a
// version that satisfies the requirement torch==2.6.0") is the version
// the poster asked for, and is read as stated.
func errorMessages(errs []ErrorInfo) quotedMessages {
	var q quotedMessages
	for _, e := range errs {
		if len(q) == maxQuotedMessages {
			break
		}
		if msg := firstSentence(e.Message); e.Kind == kindException && len(msg) >= minQuotedError {
			q = append(q, msg)
		}
	}
	return q
}

// maxQuotedMessages bounds the work per line to a few substring searches:
// the errors past the first few of a post are its cascade's repeats
// (ranking weighs four, postSignatures).
const maxQuotedMessages = 8

// blank returns l with every quoted message in it blanked, and a
// message's head that ends the line (a title cut to fit: "… so you must
// provide a chat template if the tokenizer does not defi"); each message
// holds at least minQuotedError bytes (errorMessages), the head looked
// for.
func (q quotedMessages) blank(l string) string {
	for _, m := range q {
		if strings.Contains(l, m) {
			l = strings.ReplaceAll(l, m, " ")
			continue
		}
		if i := strings.Index(l, m[:minQuotedError]); i >= 0 && strings.HasPrefix(m, l[i:]) {
			l = l[:i]
		}
	}
	return l
}

// tableRow gives a Markdown table's row of two cells as "label: value",
// the form labelled reads: reports and forum posts set their environment
// out as a table ("| vLLM version | 0.19.1 (`vllm/vllm-openai:v0.19.1`) |",
// "| PyTorch version | 2.10.0+cu130 |", in benchmark write-ups, bug
// investigations and deployment notes of several projects). A row of
// more cells compares setups and states none of them; other lines are
// returned as they are.
func tableRow(l string) string {
	t := strings.TrimSpace(l)
	if len(t) < 5 || t[0] != '|' || t[len(t)-1] != '|' || t[len(t)-2] == '\\' {
		return l
	}
	// A cell's own "|" is escaped, as GitHub's tables write it.
	cells := strings.Split(strings.ReplaceAll(t[1:len(t)-1], `\|`, "\x00"), "|")
	if len(cells) != 2 {
		return l
	}
	label := strings.Trim(strings.TrimSpace(cells[0]), "*_`")
	value := strings.ReplaceAll(strings.TrimSpace(cells[1]), "\x00", "|")
	if label == "" || value == "" || strings.Trim(label, "-: ") == "" {
		return l
	}
	return label + ": " + strings.Trim(value, "*_")
}

// builtForRE is an extension's complaint that it was built for other
// versions than the ones installed, as xFormers prints it in every
// project that loads it ("xFormers was built for: PyTorch 2.1.2+cu121
// with CUDA 1201 (you have 2.1.2+cpu)", "Python 3.11.7 (you have
// 3.11.0)"; vllm#2865, facebookresearch/xformers#982, open-mmlab/PIA#30,
// invoke-ai/InvokeAI#6590).
var builtForRE = regexp.MustCompile(`\b(PyTorch|Python)\s+v?\d[\w.+]*(?:\s+with CUDA\s+\S+)?\s+\(you have (v?\d[\w.+]*)\)`)

// builtFor reads the installed versions of l's built-for complaints and
// returns l without them: the versions an extension was built for are
// not the poster's, nor is the platform their build suffix names.
func (vs *versionSet) builtFor(l string) string {
	if !strings.Contains(l, "you have") {
		return l
	}
	return builtForRE.ReplaceAllStringFunc(l, func(m string) string {
		sub := builtForRE.FindStringSubmatch(m)
		vs.set(sub[1], sub[2], tierListing)
		return ""
	})
}

// withoutBuiltFor is text without the versions extensions say they were
// built for (builtForRE).
func withoutBuiltFor(text string) string {
	if !strings.Contains(text, "you have") {
		return text
	}
	return builtForRE.ReplaceAllString(text, "$1 $2")
}

// versionQuery returns the package a line asks the version of, as
// `vllm --version`, `python -c "import vllm; print(vllm.__version__)"`
// and a Python session's `print(torch.__version__)` do, whose answer is
// the next line (versionAnswer); "cuda" for torch.version.cuda, the CUDA
// release torch was built with; "" for any other line.
func versionQuery(l string) string {
	// Every question says "version" or -v/-V; most lines of a post say
	// neither, and are not run through the prompt patterns below.
	if !strings.Contains(l, "version") && !strings.Contains(l, "-v") && !strings.Contains(l, "-V") {
		return ""
	}
	// Asked at any prompt a command is read behind ("(venv) $ python -c
	// …", "user@host:~$ vllm --version").
	l = stripPrompt(l)
	if m := versionCmdRE.FindStringSubmatch(l); m != nil {
		return m[1]
	}
	if !strings.Contains(l, "version") {
		return ""
	}
	if m := pyVersionCmdRE.FindStringSubmatch(l); m != nil && m[1] == m[2] {
		return m[1]
	}
	if m := pyVersionExprRE.FindStringSubmatch(l); m != nil {
		if m[2] != "" {
			return m[3]
		}
		return m[1]
	}
	return ""
}

// versionAnswer returns the version a line answering versionQuery states,
// bare, quoted as a string's repr or behind IPython's "Out[n]: "; "" when
// the line is anything else (a line of code, a log).
func versionAnswer(l string) string {
	a := versionAnswerRE.FindStringSubmatch(l)
	if a == nil || a[1] != a[3] {
		return ""
	}
	return a[2]
}

// listed reads the versions a listing states (pip show, collect_env,
// pins, list rows, image tags); next is the line after l.
func (vs *versionSet) listed(l, next string, s *Schema) {
	if m := pipShowRE.FindStringSubmatch(l); m != nil && next != "" {
		if n := pipShowVerRE.FindStringSubmatch(next); n != nil {
			vs.set(m[1], n[1], tierListing)
		}
	}
	if re := s.logs().version; re != nil {
		if m := re.FindStringSubmatch(l); m != nil {
			vs.set(s.Vocabulary.Package.Name, m[1], tierListing)
		}
	}
	for _, m := range pinRE.FindAllStringSubmatch(l, -1) {
		known := vs.pk.known[strings.ToLower(m[1])]
		// One "=" before a two-part number is Python's as often as
		// conda's: a keyword argument in a traceback ("result(timeout=
		// 0.0001)", vllm#4070), an engine's argument dump ("burstiness=
		// 1.0", #23867), an assignment ("factor = 4.0", #18755). An
		// unknown name counts only with a release's form (conda's
		// "cudatoolkit=11.8.0") or with pip's "==".
		if !known && !strings.Contains(m[0], "==") && !fullVersion(m[2]) {
			continue
		}
		if !strings.Contains(m[1], "_") || known {
			vs.set(m[1], m[2], tierListing)
		}
	}
	if m := listRowRE.FindStringSubmatch(l); m != nil {
		name := strings.ToLower(m[1])
		if vs.pk.known[name] || !strings.Contains(name, "_") && fullVersion(m[2]) {
			vs.set(m[1], m[2], tierListing)
		}
	}
	vs.imageTags(l, s, tierListing)
	vs.spacedImageTags(l, s, tierProse)
}

// imageTags reads the release of each image named with its tag in text
// ("vllm/vllm-openai:v0.8.3", "intel/vllm:0.17.0-xpu") as its package's,
// and the releases a tag names part by part (taggedParts).
func (vs *versionSet) imageTags(text string, s *Schema, tier int) {
	for _, m := range imageTagRE.FindAllStringSubmatch(text, -1) {
		if pkg := imagePackage(m[1], s); pkg != "" && !containerRelease(m[1], m[2]) {
			vs.set(pkg, imageFlavourRE.ReplaceAllString(m[2], ""), tier)
		}
	}
	vs.taggedParts(text, tier)
}

// taggedParts reads the releases an image's tag names for the packages
// it carries, one part each between "_" and "-": a known package's name
// glued to its release or followed by it, as AMD tags its vLLM images
// ("rocm/vllm:rocm6.3.1_vllm_0.8.5_20250513",
// "rocm/vllm:rocm6.2_mi300_ubuntu20.04_py3.9_vllm_0.6.4"; ROCm's guides
// and the scripts and manifests of many projects run them) and GPUStack
// its runners ("gpustack/runner:cuda12.9-vllm0.11.2", gpustack/gpustack#3835).
// CUDA's, ROCm's and Python's releases are read by their own forms
// (ownFormPackage).
func (vs *versionSet) taggedParts(text string, tier int) {
	if !strings.Contains(text, ":") || !vs.pk.mayState(text) {
		return
	}
	for _, m := range partedTagRE.FindAllStringSubmatch(text, 8) {
		parts := strings.FieldsFunc(strings.ToLower(m[1]), func(r rune) bool { return r == '_' || r == '-' })
		for i, p := range parts {
			name, ver := p, ""
			if g := gluedPartRE.FindStringSubmatch(p); g != nil {
				name, ver = g[1], g[2]
			} else if i+1 < len(parts) && bareVersionRE.MatchString(parts[i+1]) {
				ver = strings.TrimPrefix(parts[i+1], "v")
			}
			if ver != "" && vs.pk.known[name] && !ownFormPackage(name) {
				vs.set(name, ver, tier)
			}
		}
	}
}

var (
	// partedTagRE is an image reference whose tag has parts ($1).
	partedTagRE = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `'"=])(?:[\w.-]+/)+[\w.-]+:([\w.+]+[_-][\w.+-]+)`)
	// gluedPartRE is a tag's part that glues a name to its release.
	gluedPartRE = regexp.MustCompile(`^([a-z][a-z0-9]*?[a-z])v?(\d+\.\d+(?:\.\d+)*)$`)
)

// spacedImageTags reads a program's own image named with its release tag
// after a space, as a sentence writes it ("on vllm-openai v0.8.3",
// vllm-project/vllm#16197; "using vllm-openai v0.7.2 docker containers",
// #13375). Only images a program of the schema is called after count,
// and only a "v" tag, so that "vllm-openai latest" or a listing's image
// id stays no version.
func (vs *versionSet) spacedImageTags(text string, s *Schema, tier int) {
	if s == nil || !strings.Contains(text, " v") {
		return
	}
	for _, m := range spacedImageTagRE.FindAllStringSubmatch(text, 4) {
		if pkg := imageProgram(m[1], s); pkg != "" {
			vs.set(pkg, m[2], tier)
		}
	}
}

var spacedImageTagRE = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `'"])((?:[\w.-]+/)*[\w.-]+-[\w.-]+|(?:[\w.-]+/)+[\w.-]+) v(\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?)(?:[\s)\],;.` + "`" + `'"]|$)`)

// labelled reads versions stated after a label ("CUDA Version: 12.4",
// "vLLM version 0.8.5"), and driver, nvcc, ROCm, NCCL and Python
// versions in their own forms.
func (vs *versionSet) labelled(l string) {
	for _, m := range labelledRE.FindAllStringSubmatch(l, -1) {
		name := strings.ToLower(m[1])
		if vs.pk.known[name] || !strings.Contains(name, "_") && fullVersion(m[2]) {
			vs.set(m[1], m[2], tierLabelled)
		}
	}
	vs.labelledForms(l, false)
}

// labelledForms reads the versions of labelledVersions in l; inError
// asks only for the forms an error reports its own runtime's version in.
func (vs *versionSet) labelledForms(l string, inError bool) {
	for _, lv := range labelledVersions {
		if inError && !lv.inErrors {
			continue
		}
		if m := lv.re.FindStringSubmatch(l); m != nil {
			vs.set(lv.pkg, m[1], tierLabelled)
		}
	}
}

// labelledVersions are the forms in which drivers and toolkits state
// their versions, with the package each names. inErrors marks the forms
// that are read in error lines too: NCCL ends its errors with the
// version of the NCCL that failed ("..., NCCL version 2.21.5").
var labelledVersions = []struct {
	re       *regexp.Regexp
	pkg      string
	inErrors bool
}{
	{driverRE, "nvidia_driver", false},
	{nvccRE, "cuda", false},
	{cudaVersionRE, "cuda", false},
	{rocmVersionRE, "rocm", false},
	{ncclVersionRE, "nccl", true},
	{pythonStatedRE, "python", false},
}

// ownFormPackage reports whether pkg states its version in forms of its
// own (labelledVersions: "CUDA Version: 12.4", "ROCm 6.3", "Python
// 3.12"), which the generic readers leave to them.
func ownFormPackage(pkg string) bool { return pkg == "cuda" || pkg == "rocm" || pkg == "python" }

// sizeNotVersionRE is a model's parameter count in billions ("0.5B", "1.5b"),
// which the version pattern would read as a beta release.
var sizeNotVersionRE = regexp.MustCompile(`^\d+\.\d+[bB]$`)

// prose reads "vllm 0.8.5" in a sentence.
func (vs *versionSet) prose(l string) {
	if vs.pk.stated == nil || !vs.pk.mayState(l) {
		return
	}
	for _, m := range vs.pk.stated.FindAllStringSubmatch(l, -1) {
		pkg := strings.ToLower(m[1])
		if ownFormPackage(pkg) {
			continue // read above with their own patterns
		}
		if sizeNotVersionRE.MatchString(m[2]) {
			continue // "vLLM（0.5B 太小）": a model's size, not a beta
		}
		vs.set(pkg, m[2], tierProse)
	}
}

// title reads the versions of the main package, torch and transformers
// a title names, and those of the toolkits in the forms a sentence
// states them in ("fails for ROCm 7.14 on gfx950", "with vllm-openai cuda
// 11.8 docker image"): the weakest statement.
func (vs *versionSet) title(title string, s *Schema) {
	main := ""
	if s != nil {
		main = s.Vocabulary.Package.Name
	}
	// An image with its tag, as a body's listing is read: "running
	// vllm-openai:v0.7.3 with …" (vllm-project/vllm#16307), "Whisper with
	// vllm/vllm-openai:v0.10.2 (Works Fine on v0.10.1)" (#25318), "docker
	// vllm/vllm-openai:v0.10.2 and vllm/vllm-openai:v0.11.0 failed"
	// (#27251, the first).
	vs.imageTags(title, s, tierTitle)
	vs.spacedImageTags(title, s, tierTitle)
	for _, lv := range labelledVersions {
		if ownFormPackage(lv.pkg) {
			if m := lv.re.FindStringSubmatch(title); m != nil {
				vs.set(lv.pkg, m[1], tierTitle)
			}
		}
	}
	if vs.pk.stated != nil && vs.pk.mayState(title) {
		stated := vs.pk.stated.FindAllStringSubmatch(title, -1)
		// A title with a release no package claims beside the main
		// package's compares two of its releases ("The new version
		// (v0.5.4) cannot load the gptq model, but the old version
		// (vllm=0.5.3.post1) can", corpus vllm#7240): which one the poster
		// runs is not said, as bareTitleVersion finds of bare ones.
		compared := len(anyReleaseRE.FindAllStringIndex(title, 4)) > len(stated)
		for _, m := range stated {
			if p := versionKey(m[1]); p != "" && p == main && !compared || p == "torch" || p == "transformers" {
				vs.set(p, m[2], tierTitle)
			}
		}
	}
	if main != "" {
		// A release in a title's tag is a release, not a template:
		// "[v0.4.0] Release Tracker" (vllm-project/vllm#3155),
		// "[Bug]: [v0.10.0][Critical] Tools not invoked …" (#21840).
		t := releaseTagRE.ReplaceAllString(title, " $1 ")
		if v := vs.bareTitleVersion(stripTitleTemplate(t)); v != "" {
			vs.set(main, v, tierTitle)
		}
	}
}

// bareTitleVersion returns the one release a title names without naming
// its package: on the main package's tracker or forum it is the main
// package's ("memory leak in v0.2.7", "[Bug]: 0.8.0 ram leakage",
// "doesn't work in version 0.7.2", "throughput v0.10.2"; 19 corpus
// titles, TestCorpusTitleClasses). A title with two releases compares
// them ("regression between 0.10.2 and 0.12.0"), and one after
// "than", "since", "from" or the like ("higher than 0.5.3", "broken
// since 0.14.0") is not the poster's; those, and a release written
// after any package's name ("PyTorch 2.8.0", and so "vllm docker
// v0.8.5.post1", docker being a package too), give "". Without a "v" the
// release must open the title or follow "in", "on", "for", "with",
// "using" or "version".
func (vs *versionSet) bareTitleVersion(t string) string {
	ms := bareReleaseRE.FindAllStringSubmatchIndex(t, 3)
	if len(ms) != 1 || len(anyReleaseRE.FindAllStringIndex(t, 3)) != 1 {
		return "" // none, or releases compared ("on v0.10.2 (works on v0.10.1)")
	}
	m := ms[0]
	before := strings.Fields(t[:m[2]])
	prev := ""
	if len(before) > 0 {
		prev = strings.ToLower(strings.Trim(before[len(before)-1], "`'\"([（,:"))
	}
	switch {
	case notPostersRelease[prev], vs.pk.known[prev]:
		return ""
	case m[3] > m[2]: // written with a "v"
	case prev != "" && !releaseLeadWords[prev]:
		return ""
	}
	return t[m[4]:m[5]]
}

// releaseNumber is a release of three or more numbers with an optional
// post, rc or dev suffix: 0.8.5, 0.5.3.post1, 0.9.0rc2.
const releaseNumber = `\d+\.\d+\.\d+(?:\.?(?:post|rc|dev)\d+)?`

// bareReleaseRE is a release (releaseNumber), optionally after a "v"
// (group 1; the release is group 2).
var bareReleaseRE = regexp.MustCompile(`(?:^|[\s(\[（` + "`" + `])(v?)(` + releaseNumber + `)(?:$|[\s,;:)）\]!?` + "`" + `]|\.(?:\s|$))`)

// releaseTagRE is a release in square brackets, as a title's tag.
var releaseTagRE = regexp.MustCompile(`\[(v?` + releaseNumber + `)\]`)

// anyReleaseRE is a release written any way, glued to an image or a pin
// too ("vllm/vllm-openai:v0.10.2", "vllm=0.5.3.post1").
var anyReleaseRE = regexp.MustCompile(`\d+\.\d+\.\d+`)

var (
	notPostersRelease = map[string]bool{"than": true, "since": true, "from": true, "to": true, "between": true,
		"and": true, "after": true, "before": true, "until": true, "including": true, "vs": true, "vs.": true,
		">=": true, "<=": true, ">": true, "<": true, "=": true, "==": true}
	releaseLeadWords = map[string]bool{"in": true, "on": true, "for": true, "with": true, "using": true, "version": true}
)

// containerRuntimes are the programs whose run names an image: Docker,
// Podman, and the clusters' Apptainer and Singularity running one from
// Docker's registry.
var containerRuntimes = map[string]bool{"docker": true, "podman": true, "apptainer": true, "singularity": true}

// images reads the version of a docker image tag on a command line.
func (vs *versionSet) images(cmds []Command, s *Schema) {
	for _, c := range cmds {
		if !containerRuntimes[c.Program] {
			continue
		}
		for _, a := range c.Args {
			if repo, tag, ok := strings.Cut(a, ":"); ok && !containerRelease(repo, tag) {
				if m := bareVersionRE.FindStringSubmatch(tag); m != nil {
					if pkg := imagePackage(repo, s); pkg != "" {
						vs.set(pkg, m[1], tierListing)
					}
				}
			}
		}
	}
}

// ngcReleaseRE is the tag of a monthly container release: year and
// month, then a build and a flavour (25.09-py3, 26.03.post1-py3,
// 24.05-py3-igpu).
var ngcReleaseRE = regexp.MustCompile(`^\d{2}\.(?:0[1-9]|1[0-2])(?:\.post\d+)?(?:-[\w.-]+)?$`)

// containerRelease reports whether an image's tag is its registry's
// release of the container rather than the software's version: NVIDIA's
// NGC registry tags its images by year and month, so
// nvcr.io/nvidia/vllm:26.04-py3 carries vLLM 0.19.0 and
// nvcr.io/nvidia/pytorch:24.05-py3 a PyTorch 2.4 build (NGC's release
// notes; DGX Spark guides and launch scripts of many projects run
// nvcr.io/nvidia/vllm:25.09-py3 and its successors, and some say which
// vLLM each carries).
func containerRelease(repo, tag string) bool {
	host, _, _ := strings.Cut(repo, "/")
	return strings.EqualFold(host, "nvcr.io") && ngcReleaseRE.MatchString(tag)
}

// imageFlavourRE is the part of an image's tag after its release that
// names the build's flavour: the toolkit's variant, the CUDA and cuDNN it
// carries, the base system ("nvidia/cuda:12.4.0-devel-ubuntu22.04",
// "nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04",
// "pytorch/pytorch:2.3.1-cuda12.1-cudnn8-devel", in the Dockerfiles of
// vllm-project/vllm#2047, #23655 and many projects). The release is what
// comes before it; other suffixes ("-xpu", "-b8.1") stay, as the labels
// keep them.
var imageFlavourRE = regexp.MustCompile(`-(?:cuda\d|(?:devel|runtime|base|cudnn\d*|ubuntu|ubi\d|rockylinux|centos|debian|slim|alpine|bookworm|bullseye|jammy|noble|focal)\b).*$`)

// genericImageNames are last path elements of image repositories that name
// a channel rather than the software (nvcr.io/nvidia/tensorrt-llm/release).
var genericImageNames = map[string]bool{"release": true, "releases": true, "image": true, "images": true, "stable": true, "nightly": true}

// imagePackage names the software an image reference carries: the program
// whose image it is in the schema, a program's name when the repository
// is called after it (ghcr.io/x/vllm, vllm-gfx906), else the repository's
// own name. URLs and host:port pairs are not images.
func imagePackage(repo string, s *Schema) string {
	if strings.Contains(repo, "://") || !strings.Contains(repo, "/") && !strings.Contains(repo, "-") {
		return ""
	}
	if p := imageProgram(repo, s); p != "" {
		return p
	}
	parts, name := imageName(repo)
	if !hasLetter(name) || strings.Contains(name, ".") && len(parts) == 1 {
		return ""
	}
	return name
}

// imageProgram names the schema's program an image reference carries:
// the program whose image it is, or the one its repository is called
// after (ghcr.io/x/vllm, vllm-openai, vllm-gfx906); "" for any other.
func imageProgram(repo string, s *Schema) string {
	if p, _ := s.image(repo); p != nil {
		return p.Name
	}
	if s == nil {
		return ""
	}
	_, name := imageName(repo)
	for _, p := range s.Programs {
		if name == p.Name || strings.HasPrefix(name, p.Name+"-") {
			return p.Name
		}
	}
	return ""
}

// imageName splits a repository into its lower-case parts and names it
// by its last part, or the one before a channel name ("…/release").
func imageName(repo string) (parts []string, name string) {
	parts = strings.Split(strings.ToLower(repo), "/")
	name = parts[len(parts)-1]
	if genericImageNames[name] && len(parts) > 1 {
		name = parts[len(parts)-2]
	}
	return parts, name
}
