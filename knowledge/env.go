package knowledge

import (
	"regexp"
	"strconv"
	"strings"
)

// versionRE is a release version: 0.24.0, 0.6.3.post1, 0.8.0rc3.dev31+g61f41218,
// 2.4.0+cu121, 0.24.0+rocm725.
const versionPat = `v?(\d+\.\d+(?:\.\d+)*(?:(?:a|b|rc|\.post|\.dev|post|dev)\d*)*(?:\.dev\d+)?(?:\+[\w.]+)?)`

var (
	// "vllm -v" / "vllm --version" on one line, the version on the next.
	versionCmdRE  = regexp.MustCompile(`^\s*(?:[$%#>]\s*)?([\w.-]+)\s+(?:-v|-V|--version|version)\s*$`)
	bareVersionRE = regexp.MustCompile(`^\s*` + versionPat + `\s*$`)
	// "vllm==0.6.3", "vllm 0.6.3" (pip list), "vLLM version: 0.8.3",
	// "vLLM Version: 0.8.3" (collect_env), "vllm version 0.5.3".
	pkgVersionRE    = regexp.MustCompile(`(?i)(?:^|[\s(,;` + "`" + `])(vllm(?:-mlx)?|torch|pytorch|transformers|triton|xformers|flashinfer(?:-python)?|flash[-_]attn|lmdeploy|sglang|nccl|vllm-flash-attn|tokenizers|ray|numpy|cuda|rocm|python|nvidia-nccl-cu\d+|torchvision)(?:\s+version)?(?:\s*==\s*|\s*:\s*|\s+)` + versionPat + `\b`)
	pipShowRE       = regexp.MustCompile(`^Name:\s*([\w.-]+)\s*$`)
	pipShowVerRE    = regexp.MustCompile(`^Version:\s*` + versionPat)
	cudaVersionRE   = regexp.MustCompile(`(?i)\b(?:CUDA Version:?|CUDA used to build PyTorch:|CUDA runtime version:|cuda\s*:?)\s*(\d+\.\d+)\b`)
	serverVersionRE = regexp.MustCompile(`(?i)\bvLLM (?:API server )?version:? ` + versionPat)
	rocmVersionRE   = regexp.MustCompile(`(?i)\b(?:ROCM used to build PyTorch:|ROCm(?: version)?:?)\s*(\d+\.\d+(?:\.\d+)?)`)
	ncclVersionRE   = regexp.MustCompile(`(?i)\bNCCL version\s*(\d+\.\d+\.\d+)`)
	pythonVerRE     = regexp.MustCompile(`(?i)\bPython(?: version)?:?\s*(3\.\d+(?:\.\d+)?)`)
	osRE            = regexp.MustCompile(`(?i)\b(Ubuntu \d+\.\d+(?:\.\d+)?(?: LTS)?|Debian(?: GNU/Linux)? \d+|CentOS(?: Linux)? \d+|Rocky Linux \d+(?:\.\d+)?|Red Hat Enterprise Linux[\w ]*\d+(?:\.\d+)?|RHEL \d+(?:\.\d+)?|Windows (?:10|11|Server \d+)|WSL2?|macOS \d+(?:\.\d+)*|Arch Linux|Fedora(?: Linux)? \d+)`)
	exportEnvRE     = regexp.MustCompile(`^\s*(?:export\s+)([A-Z][A-Z0-9_]+)=(\S*)\s*$`)
)

// extractVersions reads versions from `x -v` pairs, pip and collect_env
// listings and inline mentions. The first statement of a package wins.
func extractVersions(doc *document, cmds []Command) map[string]string {
	v := map[string]string{}
	set := func(pkg, ver string) {
		pkg = strings.ToLower(pkg)
		switch pkg {
		case "pytorch":
			pkg = "torch"
		case "flashinfer-python":
			pkg = "flashinfer"
		case "flash_attn":
			pkg = "flash-attn"
		}
		if strings.HasPrefix(pkg, "nvidia-nccl-") {
			pkg = "nccl"
		}
		if _, ok := v[pkg]; !ok && ver != "" {
			v[pkg] = ver
		}
	}
	lines := doc.lines()
	for i, l := range lines {
		errLine := isErrorLine(l)
		if m := versionCmdRE.FindStringSubmatch(l); m != nil && i+1 < len(lines) {
			if n := bareVersionRE.FindStringSubmatch(lines[i+1]); n != nil {
				set(m[1], n[1])
				continue
			}
		}
		if m := pipShowRE.FindStringSubmatch(l); m != nil && i+1 < len(lines) {
			if n := pipShowVerRE.FindStringSubmatch(lines[i+1]); n != nil {
				set(m[1], n[1])
			}
		}
		if m := serverVersionRE.FindStringSubmatch(l); m != nil {
			set("vllm", m[1])
		}
		for _, m := range pkgVersionRE.FindAllStringSubmatch(l, -1) {
			if errLine {
				break // "As of transformers v4.44, ..." states no installed version
			}
			pkg := strings.ToLower(m[1])
			if pkg == "cuda" || pkg == "python" || pkg == "rocm" {
				continue // read below with their own patterns
			}
			set(pkg, m[2])
		}
		if m := ncclVersionRE.FindStringSubmatch(l); m != nil {
			set("nccl", m[1])
		}
		if m := cudaVersionRE.FindStringSubmatch(l); m != nil {
			set("cuda", m[1])
		}
		if m := rocmVersionRE.FindStringSubmatch(l); m != nil {
			set("rocm", m[1])
		}
	}
	if doc.title != "" {
		for _, m := range pkgVersionRE.FindAllStringSubmatch(doc.title, -1) {
			if p := strings.ToLower(m[1]); p == "vllm" || p == "torch" || p == "transformers" {
				set(p, m[2])
			}
		}
	}
	// A docker image tag is a version too: vllm/vllm-openai:v0.8.3.
	for _, c := range cmds {
		if c.Program != "docker" && c.Program != "podman" {
			continue
		}
		for _, a := range c.Args {
			if strings.Contains(a, "vllm") {
				if _, tag, ok := strings.Cut(a, ":"); ok {
					if m := bareVersionRE.FindStringSubmatch(tag); m != nil {
						set("vllm", m[1])
					}
				}
			}
		}
	}
	return v
}

// platformSignal is one piece of evidence for a platform, with a weight:
// a version suffix (+rocm725) outweighs hardware names, which outweigh
// words. "CUDA out of memory" is printed by PyTorch on ROCm too, so the
// bare word cuda is weak.
//
// needles, when set, are lower-case strings of which every match of re
// contains at least one; a post holding none of them skips the regexp.
type platformSignal struct {
	re       *regexp.Regexp
	platform string
	weight   int
	needles  []string
}

var platformSignals = []platformSignal{
	{regexp.MustCompile(`\+rocm\d*|\brocm/vllm|\bROCM used to build PyTorch: \d`), "rocm", 10, []string{"rocm"}},
	{regexp.MustCompile(`\+cu\d{2,3}\b|\bCUDA used to build PyTorch: \d`), "cuda", 8, []string{"+cu", "cuda used"}},
	{regexp.MustCompile(`\+cpu\b|VLLM_TARGET_DEVICE=cpu|\bvllm-cpu\b`), "cpu", 10, []string{"cpu"}},
	{regexp.MustCompile(`\+xpu\b|\bIntel(?:\(R\))? (?:Arc|Data Center GPU|Gaudi)|\bXPU\b`), "xpu", 8, []string{"xpu", "intel"}},
	{regexp.MustCompile(`(?i)\b(?:tpu v\d|google tpu|\btpu\b)`), "tpu", 6, []string{"tpu"}},
	{regexp.MustCompile(`(?i)\b(?:neuron|inferentia|trainium|inf2\.|trn1\.)`), "neuron", 6, []string{"neuron", "inferentia", "trainium", "inf2.", "trn1."}},
	{regexp.MustCompile(`(?i)\b(?:AMD|Radeon|Instinct|MI\d{3}X?|RX ?\d{4}(?: ?XTX?)?|gfx\d{3,4}\w*|HIP error|hipError|ROCm)\b`), "rocm", 5, nil},
	{regexp.MustCompile(`(?i)(?:\b|\d[x×])(?:NVIDIA|GeForce|RTX ?A?\d{4}|GTX ?\d{3,4}|Tesla|A100|A10G?|A30|A40|A[456]000|H100|H200|H20|B200|GB200|L40S?|L4|T4|V100|P100|nvidia-smi|CUDA Version|NCCL)\b`), "cuda", 4, nil},
	{regexp.MustCompile(`(?i)\b(?:cpu[- ]only|on (?:the |my |a )?cpu|no gpus?|without (?:a |any )?gpus?|CPU backend|--device[= ]cpu|cpu device|supports? cpu|for cpu|cpu (?:inference|mode|build|version|installation))\b`), "cpu", 6, []string{"cpu", "gpu"}},
	{regexp.MustCompile(`(?i)\bcuda\b`), "cuda", 1, []string{"cuda"}},
}

func extractPlatform(doc *document, versions map[string]string) string {
	score := map[string]int{}
	for _, ver := range versions {
		switch {
		case strings.Contains(ver, "+rocm"):
			score["rocm"] += 10
		case strings.Contains(ver, "+cu"):
			score["cuda"] += 8
		case strings.HasSuffix(ver, "+cpu"):
			score["cpu"] += 10
		case strings.Contains(ver, "+xpu"):
			score["xpu"] += 10
		}
	}
	if _, ok := versions["rocm"]; ok {
		score["rocm"] += 6
	}
	// "SIGSEGV received ... on cpu 140" names a core, not a platform.
	text := doc.scanText()
	lower := strings.ToLower(text)
	if strings.Contains(lower, "on cpu") {
		text = cpuCoreRE.ReplaceAllString(text, "")
	}
	for _, s := range platformSignals {
		if s.needles != nil && !containsAny(lower, s.needles) {
			continue
		}
		// A signal counts at most three times, so three matches are enough.
		n := len(s.re.FindAllStringIndex(text, 3))
		if n > 0 {
			score[s.platform] += s.weight * min(n, 3)
		}
	}
	best, bestScore := "", 0
	for _, p := range []string{"rocm", "cuda", "cpu", "xpu", "tpu", "neuron"} {
		if score[p] > bestScore {
			best, bestScore = p, score[p]
		}
	}
	return best
}

var cpuCoreRE = regexp.MustCompile(`(?i)\bon cpu \d+`)

var (
	gpuMemFirstRE = regexp.MustCompile(`(?i)\b(\d{1,3})\s?(?:GB|GiB|G)\s+((?:AMD|NVIDIA|Nvidia|Intel)?\s?(?:[\w-]+\s)?(?:GPU|card|VRAM))\b`)
	gpuNamedRE    = regexp.MustCompile(`(?i)(?:\b|^)(\d+\s?[x×]\s?)?((?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX|GTX)\s?(?:A?\d{4}|PRO \d{4})(?:\s?Ti| SUPER)?|(?:NVIDIA\s+)?(?:A100|H100|H200|H20|B200|GB200|A10G|A10|A30|A40|A6000|L40S|L40|L4|T4|V100|P100)|(?:AMD\s+)?(?:Instinct\s+)?MI\d{3}X?|(?:AMD\s+)?(?:Radeon\s+)?RX\s?\d{4}\s?(?:XTX|XT)?|Intel Arc \w+)(?:[\s-]+(?:SXM\d?|PCIe|NVL|HBM\d?e?)?)*(?:[\s-]*(\d{2,3})\s?GB)?`)
)

// extractGPUs finds accelerators with their memory where the post says it.
// The total capacity printed in a CUDA OOM message fills in memory when no
// size was stated.
func extractGPUs(doc *document, errs []ErrorInfo) []GPU {
	var out []GPU
	seen := map[string]bool{}
	var kept []string
	for _, l := range strings.Split(doc.scanText(), "\n") {
		if !isErrorLine(l) {
			kept = append(kept, l) // "only supports AMD MI200 GPUs" names no GPU of the poster's
		}
	}
	text := strings.Join(kept, "\n")
	for _, m := range gpuMemFirstRE.FindAllStringSubmatch(text, 4) {
		mem, _ := strconv.ParseFloat(m[1], 64)
		name := strings.TrimSpace(m[2])
		key := strings.ToLower(name)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, GPU{Name: name, MemoryGiB: mem})
	}
	for _, m := range gpuNamedRE.FindAllStringSubmatch(text, 8) {
		name := strings.Join(strings.Fields(m[2]), " ")
		key := strings.ToLower(name)
		if seen[key] {
			continue
		}
		seen[key] = true
		g := GPU{Name: name}
		if m[3] != "" {
			g.MemoryGiB, _ = strconv.ParseFloat(m[3], 64)
		}
		if m[1] != "" {
			g.Count, _ = strconv.Atoi(strings.TrimRight(strings.TrimSpace(m[1]), "x× "))
		}
		out = append(out, g)
	}
	for _, e := range errs {
		if total, ok := e.Numbers["oom_total_gib"]; ok {
			if len(out) == 0 {
				out = append(out, GPU{Name: "GPU 0", MemoryGiB: total})
			} else if out[0].MemoryGiB == 0 {
				out[0].MemoryGiB = total
			}
			break
		}
	}
	return out
}

// modelRE matches a Hugging Face model id: org/name.
var modelRE = regexp.MustCompile(`(?:^|[\s"'=(` + "`" + `:])([A-Za-z0-9][\w.-]{1,60})/([\w.-]*[A-Za-z][\w.-]{0,100})`)

// notModels are org/name shaped words that are not models.
var notModelOrgs = map[string]bool{
	"vllm-project": true, "usr": true, "home": true, "root": true, "tmp": true, "opt": true,
	"and": true, "or": true, "site-packages": true, "dist-packages": true, "lib": true,
	"docs": true, "issues": true, "pull": true, "blob": true, "tree": true, "github.com": true,
	"huggingface.co": true, "docs.vllm.ai": true, "en": true, "v1": true, "api": true,
	"dev": true, "proc": true, "etc": true, "var": true, "mnt": true, "data": true,
	"workspace": true, "app": true, "models": true, "model": true, "input": true, "output": true,
	"read": true, "write": true, "true": true, "false": true, "src": true, "rocm": true,
}

// extractModels returns model ids, those on the main command line first.
func extractModels(doc *document, cmds []Command, s *Schema) []string {
	var out []string
	add := func(m string) {
		m = strings.TrimRight(strings.Trim(m, "'\"`"), ".,;:)")
		if m == "" || contains(out, m) {
			return
		}
		out = append(out, m)
	}
	for _, c := range cmds {
		p := s.program(c.Program)
		if p == nil {
			continue
		}
		if p.ModelFlag != "" {
			if v, ok := c.Flags[p.ModelFlag]; ok && v != "" {
				add(v)
			}
		}
		if len(c.Args) > 0 && (looksLikeModel(c.Args[0]) || looksLikePath(c.Args[0])) {
			add(c.Args[0])
		}
	}
	// Other tools (lmdeploy, scripts) name local model directories too.
	for _, c := range cmds {
		if s.program(c.Program) != nil {
			continue
		}
		for _, a := range c.Args {
			if looksLikePath(a) {
				add(a)
				break
			}
		}
	}
	// Engine-argument dumps and Python calls: model='...' / model="...".
	for _, m := range modelKwargRE.FindAllStringSubmatch(doc.scanText(), 4) {
		if looksLikeModel(m[1]) || looksLikePath(m[1]) {
			add(m[1])
		}
	}
	text := doc.scanText()
	for _, m := range modelRE.FindAllStringSubmatchIndex(text, 64) {
		org, name := text[m[2]:m[3]], text[m[4]:m[5]]
		end := m[5]
		if end < len(text) && (text[end] == '/' || text[end] == ':' && strings.HasPrefix(text[end:], "://")) {
			continue // a longer path or a URL
		}
		if start := m[2]; start > 0 && (text[start-1] == '/' || text[start-1] == '.' || text[start-1] == '~') {
			continue
		}
		if notModelOrgs[strings.ToLower(org)] || !hasLetter(name) || isFileName(name) {
			continue
		}
		if org == "vllm" && strings.HasPrefix(name, "vllm") {
			continue // the docker image
		}
		add(org + "/" + name)
	}
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}

var modelKwargRE = regexp.MustCompile(`\bmodel\s*=\s*['"]([^'"\s]{3,200})['"]`)

// looksLikePath reports whether s is a local model path (a directory or a
// weights file), which is how many posts name their model.
func looksLikePath(s string) bool {
	return (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "~/")) &&
		strings.Count(s, "/") >= 2 && !isFileName(s) || strings.HasSuffix(strings.ToLower(s), ".gguf")
}

func looksLikeModel(s string) bool {
	org, name, ok := strings.Cut(s, "/")
	return ok && org != "" && name != "" && !strings.Contains(name, "/") && !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "~")
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

func isFileName(s string) bool {
	for _, ext := range []string{".py", ".json", ".jinja", ".yaml", ".yml", ".txt", ".sh", ".so", ".md", ".html", ".cpp", ".cu", ".h", ".log", ".gguf"} {
		if strings.HasSuffix(strings.ToLower(s), ext) {
			return !strings.HasSuffix(strings.ToLower(s), ".gguf") || strings.Count(s, "/") > 0
		}
	}
	return false
}

var intentRE = regexp.MustCompile(`(?i)\b(?:i(?:'m| am) trying to|i want to|i(?:'m| am) attempting to|i need to|how (?:do|can) i|i(?:'d| would) like to|i(?:'m| am) (?:running|deploying|serving|using))\b[^.!?\n]*`)

func extractIntent(doc *document) string {
	for _, l := range doc.prose {
		if m := intentRE.FindString(l); m != "" {
			m = strings.TrimSpace(m)
			if len(m) > 160 {
				m = m[:160]
			}
			return m
		}
	}
	return ""
}

func extractEnv(doc *document, cmds []Command) map[string]string {
	env := map[string]string{}
	for _, c := range cmds {
		for k, v := range c.Env {
			env[k] = v
		}
	}
	for _, l := range doc.lines() {
		if m := exportEnvRE.FindStringSubmatch(l); m != nil {
			env[m[1]] = m[2]
		}
	}
	if len(env) == 0 {
		return nil
	}
	return env
}

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
