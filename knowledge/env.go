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
	cudaVersionRE   = regexp.MustCompile(`(?i)\b(?:CUDA Version:?|CUDA used to build PyTorch\s*:|cuda\s*:?)\s*(\d+\.\d+)\b`)
	serverVersionRE = regexp.MustCompile(`(?i)\bvLLM (?:API server )?version:? ` + versionPat)
	rocmVersionRE   = regexp.MustCompile(`(?i)\b(?:ROCM used to build PyTorch:|ROCm(?: version)?:?)\s*(\d+\.\d+(?:\.\d+)?)`)
	ncclVersionRE   = regexp.MustCompile(`(?i)\bNCCL version\s*(\d+\.\d+\.\d+)`)
	pythonVerRE     = regexp.MustCompile(`(?i)\bPython(?: version)?:?\s*(3\.\d+(?:\.\d+)?)`)
	osRE            = regexp.MustCompile(`(?i)\b(Ubuntu \d+\.\d+(?:\.\d+)?(?: LTS)?|Debian(?: GNU/Linux)? \d+|CentOS(?: Linux)? \d+|Rocky Linux \d+(?:\.\d+)?|Red Hat Enterprise Linux[\w ]*\d+(?:\.\d+)?|RHEL \d+(?:\.\d+)?|Windows (?:10|11|Server \d+)|WSL2?|macOS \d+(?:\.\d+)*|Arch Linux|Fedora(?: Linux)? \d+)`)
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
	// "name==1.2.3", "name=1.2.3" (pip freeze, conda, requirements).
	pinRE = regexp.MustCompile(`(?:^|[\s(,;` + "`" + `'"])([A-Za-z][\w.-]*[A-Za-z0-9])\s*={1,2}\s*` + versionPat + `(?:[\s,;)` + "`" + `'"]|$)`)
	// A pip list / conda list row or a bullet: "vllm      0.9.2",
	// "- triton-windows 3.8.0.post28".
	listRowRE = regexp.MustCompile(`^\s*(?:[-*•]\s+)?([A-Za-z][\w.-]*[A-Za-z0-9])(?:\s{2,}|\s+(?:[-*]\s*)?|\s*[:|]\s*)` + versionPat + `(?:\s+\S+)?\s*$`)
	// "NAME version: X", "NAME version is X", "NAME 版本：X", "NAME: X",
	// "NAME : X" (collect_env), with the value optionally quoted.
	labelledRE = regexp.MustCompile(`(?i)(?:^|[\s(,;` + "`" + `])([A-Za-z][\w.-]*[A-Za-z0-9])(?:\s*(?:version|版本|ver\.?)\s*(?:is|:|=)?|\s*:)\s*['"` + "`" + `]?` + versionPat + `\b`)
	// An image reference with a version tag: vllm/vllm-openai:v0.8.3,
	// ghcr.io/x/vllm:v0.8.1, nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc2.
	imageTagRE = regexp.MustCompile(`(?:^|[\s(\[` + "`" + `'"=])((?:[\w.-]+/)*[\w.-]+):v?(\d+\.\d+[\w.+-]*?)(?:[\s)\]` + "`" + `'",]|$)`)
	driverRE   = regexp.MustCompile(`(?i)\b(?:NVIDIA |Nvidia )?driver version\s*:?\s*(\d{3}\.\d+(?:\.\d+)?)`)
	nvccRE     = regexp.MustCompile(`(?i)\bCuda compilation tools, release (\d+\.\d+)`)
	// "Python: 3.12", "Python 3.11.13", "Python version: 3.12.13"; not
	// "python3.10/site-packages".
	pythonStatedRE = regexp.MustCompile(`(?i)(?:^|[^/\w])Python(?:\s+version)?(?:\s*:\s*|\s+)v?(3\.\d{1,2}(?:\.\d+)?)\b`)
)

// knownPackages are names whose versions are read even when written
// loosely ("PyTorch 2.4.0", "cuda11.8"); other names need a statement
// whose form says it is a version: a pin, a listing row, a label with a
// full x.y.z version.
var knownPackages = map[string]bool{
	"vllm": true, "vllm-mlx": true, "torch": true, "pytorch": true, "transformers": true,
	"triton": true, "xformers": true, "flashinfer": true, "flashinfer-python": true,
	"flash-attn": true, "flash_attn": true, "lmdeploy": true, "sglang": true, "nccl": true,
	"vllm-flash-attn": true, "tokenizers": true, "ray": true, "numpy": true, "cuda": true,
	"rocm": true, "python": true, "torchvision": true, "xinference": true, "safetensors": true,
	"accelerate": true, "peft": true, "bitsandbytes": true, "auto-gptq": true, "autoawq": true,
	"openai": true, "fastapi": true, "pydantic": true, "docker": true,
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
	// Qualifiers before "version": "API server version", "CUDA runtime
	// version", "build version".
	"server": true, "runtime": true, "api": true, "build": true, "client": true, "engine": true,
	"library": true, "lib": true, "package": true, "platform": true, "model": true, "bios": true,
	"firmware": true, "protocol": true, "schema": true, "config": true, "file": true, "format": true,
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
}

func (vs *versionSet) set(pkg, ver string, tier int) {
	pkg = versionKey(pkg)
	if ver == "" || pkg == "" || notPackages[pkg] {
		return
	}
	if t, ok := vs.tier[pkg]; ok && t >= tier {
		return
	}
	vs.v[pkg] = ver
	vs.tier[pkg] = tier
}

// extractVersions reads versions from tool listings, labelled statements,
// image tags and sentences; see the tiers above.
func extractVersions(doc *document, cmds []Command, s *Schema) map[string]string {
	vs := &versionSet{v: map[string]string{}, tier: map[string]int{}}
	lines := doc.lines()
	for i, l := range lines {
		if isErrorLine(l) {
			continue // "As of transformers v4.44, ..." states no installed version
		}
		next := ""
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		if m := versionCmdRE.FindStringSubmatch(l); m != nil {
			if n := bareVersionRE.FindStringSubmatch(next); n != nil {
				vs.set(m[1], n[1], tierListing)
				continue
			}
		}
		vs.listed(l, next, s)
		vs.labelled(l)
		vs.prose(l)
	}
	vs.title(doc.title, s)
	vs.images(cmds, s)
	return vs.v
}

// listed reads the versions a listing states (pip show, collect_env,
// pins, list rows, image tags); next is the line after l.
func (vs *versionSet) listed(l, next string, s *Schema) {
	if m := pipShowRE.FindStringSubmatch(l); m != nil && next != "" {
		if n := pipShowVerRE.FindStringSubmatch(next); n != nil {
			vs.set(m[1], n[1], tierListing)
		}
	}
	if m := serverVersionRE.FindStringSubmatch(l); m != nil {
		vs.set("vllm", m[1], tierListing)
	}
	for _, m := range pinRE.FindAllStringSubmatch(l, -1) {
		if !strings.Contains(m[1], "_") || knownPackages[strings.ToLower(m[1])] {
			vs.set(m[1], m[2], tierListing)
		}
	}
	if m := listRowRE.FindStringSubmatch(l); m != nil {
		name := strings.ToLower(m[1])
		if knownPackages[name] || !strings.Contains(name, "_") && fullVersion(m[2]) {
			vs.set(m[1], m[2], tierListing)
		}
	}
	for _, m := range imageTagRE.FindAllStringSubmatch(l, -1) {
		if pkg := imagePackage(m[1], s); pkg != "" {
			vs.set(pkg, m[2], tierListing)
		}
	}
}

// labelled reads versions stated after a label ("CUDA Version: 12.4",
// "vLLM version 0.8.5"), and driver, nvcc, ROCm, NCCL and Python
// versions in their own forms.
func (vs *versionSet) labelled(l string) {
	for _, m := range labelledRE.FindAllStringSubmatch(l, -1) {
		name := strings.ToLower(m[1])
		if knownPackages[name] || !strings.Contains(name, "_") && fullVersion(m[2]) {
			vs.set(m[1], m[2], tierLabelled)
		}
	}
	if m := driverRE.FindStringSubmatch(l); m != nil {
		vs.set("nvidia_driver", m[1], tierLabelled)
	}
	if m := nvccRE.FindStringSubmatch(l); m != nil {
		vs.set("cuda", m[1], tierLabelled)
	}
	if m := cudaVersionRE.FindStringSubmatch(l); m != nil {
		vs.set("cuda", m[1], tierLabelled)
	}
	if m := rocmVersionRE.FindStringSubmatch(l); m != nil {
		vs.set("rocm", m[1], tierLabelled)
	}
	if m := ncclVersionRE.FindStringSubmatch(l); m != nil {
		vs.set("nccl", m[1], tierLabelled)
	}
	if m := pythonStatedRE.FindStringSubmatch(l); m != nil {
		vs.set("python", m[1], tierLabelled)
	}
}

// prose reads "vllm 0.8.5" in a sentence.
func (vs *versionSet) prose(l string) {
	for _, m := range pkgVersionRE.FindAllStringSubmatch(l, -1) {
		pkg := strings.ToLower(m[1])
		if pkg == "cuda" || pkg == "python" || pkg == "rocm" {
			continue // read above with their own patterns
		}
		vs.set(pkg, m[2], tierProse)
	}
}

// title reads the versions of the main package, torch and transformers
// a title names, the weakest statement.
func (vs *versionSet) title(title string, s *Schema) {
	main := ""
	if s != nil {
		main = s.Vocabulary.Package.Name
	}
	for _, m := range pkgVersionRE.FindAllStringSubmatch(title, -1) {
		if p := versionKey(m[1]); p != "" && p == main || p == "torch" || p == "transformers" {
			vs.set(p, m[2], tierTitle)
		}
	}
}

// images reads the version of a docker image tag on a command line.
func (vs *versionSet) images(cmds []Command, s *Schema) {
	for _, c := range cmds {
		if c.Program != "docker" && c.Program != "podman" {
			continue
		}
		for _, a := range c.Args {
			if repo, tag, ok := strings.Cut(a, ":"); ok {
				if m := bareVersionRE.FindStringSubmatch(tag); m != nil {
					if pkg := imagePackage(repo, s); pkg != "" {
						vs.set(pkg, m[1], tierListing)
					}
				}
			}
		}
	}
}

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
	if p, _ := s.image(repo); p != nil {
		return p.Name
	}
	parts := strings.Split(strings.ToLower(repo), "/")
	name := parts[len(parts)-1]
	if genericImageNames[name] && len(parts) > 1 {
		name = parts[len(parts)-2]
	}
	if s != nil {
		for _, p := range s.Programs {
			if name == p.Name || strings.HasPrefix(name, p.Name+"-") {
				return p.Name
			}
		}
	}
	if !hasLetter(name) || strings.Contains(name, ".") && len(parts) == 1 {
		return ""
	}
	return name
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
	{regexp.MustCompile(`(?i)\b(?:HIP error|hipError|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|--device[= ]/dev/kfd)`), "rocm", 6, []string{"hip", "rocr", "/dev/kfd"}},
	{regexp.MustCompile(`(?i)(?:--gpus[= ]|--runtime[= ]nvidia|nvidia\.com/gpu|TORCH_CUDA_ARCH_LIST|CUDA Version|\bNCCL\b|CUDA_VISIBLE_DEVICES|\bcu\d{3}\b|nvidia-container)`), "cuda", 4, []string{"--gpus", "--runtime", "nvidia", "torch_cuda", "cuda", "nccl", "cu1"}},
	{regexp.MustCompile(`(?i)\b(?:cpu[- ]only|on (?:the |my |a )?cpu|no gpus?|without (?:a |any )?gpus?|CPU backend|--device[= ]cpu|cpu device|supports? cpu|for cpu|cpu (?:inference|mode|build|version|installation))\b`), "cpu", 6, []string{"cpu", "gpu"}},
	{regexp.MustCompile(`(?i)\bcuda\b`), "cuda", 1, []string{"cuda"}},
}

// detectedPlatformRE is vLLM's own statement of the platform it found.
var detectedPlatformRE = regexp.MustCompile(`(?i)Automatically detected platform (cuda|rocm|cpu|xpu|tpu|neuron)\b`)

// hardwareWeight is the evidence of one hardware word of the pack's
// vocabulary: between a bare "cuda" (1) and a version suffix (8-10),
// equal to the strongest generic signals, since a GPU's name says which
// platform it runs but a post may name hardware it does not use.
const hardwareWeight = 5

func extractPlatform(doc *document, versions map[string]string, cmds []Command, s *Schema) string {
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
	// Pasted `git log --oneline` lines name other people's platforms.
	text := gitLogLineRE.ReplaceAllString(doc.scanText(), "")
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
	// A device chosen on a command line: --device cpu.
	for _, c := range cmds {
		if d := strings.ToLower(c.Flags["--device"]); d != "" {
			switch d {
			case "cpu", "cuda", "rocm", "xpu", "tpu", "neuron":
				score[d] += 10
			}
		}
	}
	if m := detectedPlatformRE.FindStringSubmatch(text); m != nil {
		score[strings.ToLower(m[1])] += 10
	}
	for plat, n := range hardwareHits(text, s) {
		score[plat] += hardwareWeight * min(n, 3)
	}
	best, bestScore := "", 0
	for _, p := range []string{"rocm", "cuda", "cpu", "xpu", "tpu", "neuron"} {
		if score[p] > bestScore {
			best, bestScore = p, score[p]
		}
	}
	return best
}

var (
	cpuCoreRE    = regexp.MustCompile(`(?i)\bon cpu \d+`)
	gitLogLineRE = regexp.MustCompile(`(?m)^[0-9a-f]{7,40} .*$`)
)

// hardwareHits counts, per platform, the distinct hardware words of the
// schema's vocabulary that the text names as whole words; a word ending
// in "*" matches any continuation ("RTX*" matches RTX4090). Lines that
// are error messages name requirements ("only supports AMD MI200 GPUs or
// newer"), not the poster's hardware, and are skipped.
func hardwareHits(text string, s *Schema) map[string]int {
	if s == nil || len(s.Vocabulary.Hardware) == 0 {
		return nil
	}
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if !isErrorLine(l) {
			kept = append(kept, l)
		}
	}
	lower := strings.ToLower(strings.Join(kept, "\n"))
	hits := map[string]int{}
	for plat, words := range s.Vocabulary.Hardware {
		for _, w := range words {
			w = strings.ToLower(w)
			prefix := strings.HasSuffix(w, "*")
			w = strings.TrimSuffix(w, "*")
			if w != "" && containsHardwareWord(lower, w, prefix) {
				hits[plat]++
			}
		}
	}
	return hits
}

// containsHardwareWord reports whether w occurs in text starting at a word
// boundary and, unless prefix is set, ending at one. A number before the
// word counts as a boundary ("2xH100", "8x A100").
func containsHardwareWord(text, w string, prefix bool) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		okStart := start == 0 || !isWordByte(text[start-1]) || text[start-1] == 'x' && start >= 2 && text[start-2] >= '0' && text[start-2] <= '9'
		okEnd := prefix || end == len(text) || !isWordByte(text[end])
		if okStart && okEnd {
			return true
		}
		i = start + 1
	}
}

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

// extractModels returns model ids, best evidence first: the model of a
// command line (its model flag or first argument), a model= keyword, a
// model path of another tool, the "model" of an API request body, then
// ids and names written in the text. Text candidates must look like a
// model: an org/name whose name carries a model family word or a size
// ("7B"), or a bare name that starts with a family word and has a number.
func extractModels(doc *document, cmds []Command, s *Schema) []string {
	var out []string
	add := func(m string) {
		m = strings.TrimRight(strings.Trim(m, "'\"`"), ".,;:)")
		if m == "" || contains(out, m) {
			return
		}
		out = append(out, m)
	}
	commandModels(cmds, s, add)
	text := doc.scanText()
	codeModels(text, s, add)
	orgNameModels(text, s, add)
	bareModels(doc, s, add)
	if len(out) > 8 {
		out = out[:8]
	}
	return out
}

// commandModels adds the models command lines name: a program's model
// flag or first argument, and other tools' (lmdeploy, scripts) model
// flags or local model directories.
func commandModels(cmds []Command, s *Schema, add func(string)) {
	for _, c := range cmds {
		p := s.program(c.Program)
		if p == nil {
			continue
		}
		if p.ModelFlag != "" {
			// A Python call may pass a variable (model=MODEL_PATH).
			if v, ok := c.Flags[p.ModelFlag]; ok && v != "" && (!c.api || looksLikeModel(v) || looksLikePath(v) || isModelName(v, s)) {
				add(v)
			}
		}
		if len(c.Args) > 0 && (looksLikeModel(c.Args[0]) || looksLikePath(c.Args[0]) || isModelName(c.Args[0], s)) {
			add(c.Args[0])
		}
	}
	// Other tools (lmdeploy, scripts) name models with a model flag or a
	// local model directory.
	for _, c := range cmds {
		if s.program(c.Program) != nil {
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
	// Hugging Face model URLs.
	for _, m := range hfURLRE.FindAllStringSubmatch(text, 4) {
		add(m[1])
	}
	// An org/name string literal in code: Bonito("BatsResearch/bonito-v1").
	for _, m := range quotedIDRE.FindAllStringSubmatch(text, 8) {
		if id := m[1]; !mimeTypes[strings.ToLower(strings.SplitN(id, "/", 2)[0])] && (modelShaped(id, s) || quotedIDName(id)) {
			add(id)
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
		if notModelOrgs[strings.ToLower(org)] || !hasLetter(name) || isFileName(name) {
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
	prose := strings.Join(proseLines, "\n")
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
				add(strings.TrimRight(name, ".-_"))
			}
		}
	}
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
	hfURLRE        = regexp.MustCompile(`\bhuggingface\.co/(?:models/)?([A-Za-z0-9][\w.-]*/[\w.-]*[A-Za-z][\w.-]*)`)
	quotedIDRE     = regexp.MustCompile(`["']([A-Za-z0-9][\w.-]{1,60}/[\w.-]*[A-Za-z][\w.-]{0,100})["']`)
	versionOnlyRE  = regexp.MustCompile(`^v?\d+(?:\.\d+)*$`)
	// A word that may be a bare model name; isModelName decides.
	bareModelRE = regexp.MustCompile(`(?:^|[\s(\[,;:"'` + "`" + `])([A-Za-z][\w.-]{2,80})`)
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
func quotedIDName(id string) bool {
	org, name, _ := strings.Cut(id, "/")
	return !notModelOrgs[strings.ToLower(org)] && len(name) >= 4 && hasLetter(name) &&
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
// a model's name: it starts with a family word and holds a digit.
func isModelName(name string, s *Schema) bool {
	// Model types and module names use underscores (qwen2_5_vl); model
	// names use dashes and dots.
	if len(name) < 4 || !strings.ContainsAny(name, "0123456789") || archClassRE.MatchString(name) || isFileName(name) ||
		strings.Contains(name, "_") && !strings.ContainsAny(name, "-.") {
		return false
	}
	return familyPrefix(name, s)
}

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

var modelKwargRE = regexp.MustCompile(`\b(?:[a-z]+_)?model(?:_name|_id|_path|_name_or_path)?\s*=\s*['"]([^'"\s]{3,200})['"]|\bpretrained=([^,'"\s]{3,200})`)

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
