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
	{regexp.MustCompile(`\+rocm\d*|\bROCM used to build PyTorch[ \t]*: \d`), "rocm", 10, []string{"rocm"}},
	{regexp.MustCompile(`\+cu\d{2,3}\b|\bCUDA used to build PyTorch[ \t]*: \d`), "cuda", 8, []string{"+cu", "cuda used"}},
	{cpuSuffixRE, "cpu", 10, []string{"cpu"}},
	{regexp.MustCompile(`\+xpu\b|\bIntel(?:\(R\))? (?:Arc|Data Center GPU)|\bXPU\b`), "xpu", 8, []string{"xpu", "intel"}},
	// Intel's Gaudi accelerators, which vLLM runs as the HPU platform
	// (the vllm-gaudi plugin, HabanaAI's fork), not as an Intel GPU:
	// PyTorch's +hpu build, environment reports' "HPU devices" and "HPU
	// driver version", Habana's container runtime and variables, the
	// engine's device_config=hpu (vllm-project/vllm-gaudi#86,
	// HabanaAI/vllm-fork#776, opea-project/GenAIComps#1038,
	// opea-project/Enterprise-RAG#84); HabanaAI's fork's release
	// suffix ("0.5.3.post1+gaudi117", HabanaAI/vllm-fork#203 and #204;
	// "v0.7.2+Gaudi-1.21.0" and "v0.6.4.post2+Gaudi-1.19.2" in launch and
	// build scripts) and the Gaudi bridge's PT_HPU_* variables (its
	// serving scripts and tuning guides, Ray Serve on Gaudi).
	{regexp.MustCompile(`(?i:\+hpu|\+gaudi)|\bHPU (?:devices|driver)\b|\bhabana_frameworks\b|HABANA_VISIBLE_(?:DEVICES|MODULES)|--runtime[= ]habana|\bdevice_config=hpu\b|\bPT_HPU_[A-Z]`), "hpu", 8, []string{"hpu", "habana", "gaudi"}},
	// An environment report made on a Mac: vLLM runs there on its CPU
	// backend (the maintainers label such reports "cpu", vllm#33675;
	// #18362, #28352, #28800). A Mac named in a sentence is not enough:
	// MLX and Metal run there too (vllm-dev B048, vllm-mlx on an M1
	// Ultra, labelled no platform the case format knows).
	{regexp.MustCompile(`(?m)^[ \t]*(?:OS[ \t]*:[ \t]*macOS\b|Python platform[ \t]*:[ \t]*macOS-)`), "cpu", 10, []string{"macos"}},
	{regexp.MustCompile(`(?i)\b(?:tpu v\d|google tpu|\btpu\b)`), "tpu", 6, []string{"tpu"}},
	{regexp.MustCompile(`(?i)\b(?:neuron|inferentia|trainium|inf2\.|trn1\.)`), "neuron", 6, []string{"neuron", "inferentia", "trainium", "inf2.", "trn1."}},
	// Huawei's Ascend NPUs, which vLLM runs through the vllm-ascend
	// platform plugin: its packages, its device tool and variables, its
	// log line and its out-of-memory error, and the Chinese name
	// (vllm-project/vllm-ascend#337, #1875, #1987, #14631; vllm#9469).
	{regexp.MustCompile(`(?i)\b(?:torch[_-]npu|vllm[_-]ascend|npu-smi|ASCEND_RT_VISIBLE_DEVICES|PYTORCH_NPU_ALLOC_CONF|Platform plugin ascend is activated|NPU out of memory)\b|昇腾`), "npu", 8, []string{"npu", "ascend", "昇腾"}},
	{regexp.MustCompile(`(?i)\b(?:HIP error|hipError|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|--device[= ]/dev/kfd)`), "rocm", 6, []string{"hip", "rocr", "/dev/kfd"}},
	{regexp.MustCompile(`(?i)(?:--gpus[= ]|--runtime[= ]nvidia|nvidia\.com/gpu|TORCH_CUDA_ARCH_LIST|CUDA Version|\bNCCL\b|CUDA_VISIBLE_DEVICES|\bcu\d{3}\b|\bcuda\d{2}(?:\.\d+)*\b|nvidia-container)`), "cuda", 4, []string{"--gpus", "--runtime", "nvidia", "torch_cuda", "cuda", "nccl", "cu1"}},
	// An environment report's GPU topology whose GPUs link by NVLink
	// ("GPU0  X  NV12"), which only NVIDIA GPUs have.
	{regexp.MustCompile(`(?m)^GPU0\s+X\s+NV\d+\b`), "cuda", 4, []string{"gpu0"}},
	// The CPU backend's own settings name it too: its variables
	// (`VLLM_CPU_KVCACHE_SPACE=32 VLLM_CPU_OMP_THREADS_BIND="36-47" vllm
	// serve …`, vllm-project/vllm#21706; the CPU installation guide in
	// English and its translations) and a CPU build's target device.
	{regexp.MustCompile(`(?i)\b(?:cpu[- ]only|on (?:the |my |a )?cpu|no gpus?|without (?:a |any )?gpus?|CPU backend|--device[= ]cpu|cpu device|supports? cpu|for cpu|cpu (?:inference|mode|build|version|installation))\b|\bVLLM_CPU_(?:KVCACHE_SPACE|OMP_THREADS_BIND|NUM_OF_RESERVED_CPU)\b|\bVLLM_TARGET_DEVICE=["']?cpu\b`), "cpu", 6, []string{"cpu", "gpu"}},
	{regexp.MustCompile(`(?i)\bcuda\b`), "cuda", 1, []string{"cuda"}},
}

// cpuSuffixRE is PyTorch's CPU build suffix ("2.10.0+cpu").
var cpuSuffixRE = regexp.MustCompile(`\+cpu\b`)

// cudaAPIRE is "cuda" as PyTorch's API and vLLM's feature names write it,
// whatever the GPU: torch.cuda.*, .cuda(), a "cuda" device string, CUDA
// graphs.
var cudaAPIRE = regexp.MustCompile(`(?i)\btorch\.cuda\.\w+|\.cuda\(\)|["']cuda(?::\d+)?["']|\bcuda[ _-]?graphs?\b`)

// hardwareWeight is the evidence of one hardware word of the pack's
// vocabulary: between a bare "cuda" (1) and a version suffix (8-10),
// equal to the strongest generic signals, since a GPU's name says which
// platform it runs but a post may name hardware it does not use.
const hardwareWeight = 5

// markerWeight is the evidence of a pack's platform marker, that of the
// build suffixes (+rocm, +cpu) it stands beside.
const markerWeight = 10

// countMarkers counts, up to max, the places where one of markers occurs
// in text at word boundaries.
func countMarkers(text string, markers []string, max int) int {
	n := 0
	for _, m := range markers {
		n += wordHits(text, m, max-n, false, false)
	}
	return n
}

// platformOrder holds the platforms Herald tells apart, in the order a
// tie between two is decided.
var platformOrder = [...]string{"rocm", "cuda", "cpu", "xpu", "hpu", "tpu", "neuron", "npu"}

func extractPlatform(doc *document, versions map[string]string, cmds []Command, s *Schema) string {
	score := map[string]int{}
	// cpuBuild is the evidence of PyTorch's CPU build ("+cpu"), which
	// plugin accelerators run on too (weighed at the end).
	cpuBuild := 0
	// "Is CUDA available: False" in an environment report says the CUDA
	// a PyTorch wheel was built with has no device here (an AWS Neuron
	// or TPU host, a CPU-only box with the default wheel): the build
	// names no platform then.
	// collect_env has aligned its colons since vLLM 0.9 ("Is CUDA
	// available            : False").
	noCUDA := noCUDARE.MatchString(doc.scanText())
	for _, ver := range versions {
		switch {
		case strings.Contains(ver, "+rocm"):
			score["rocm"] += 10
		case strings.Contains(ver, "+cu") && !noCUDA:
			score["cuda"] += 8
		case strings.HasSuffix(ver, "+cpu"):
			score["cpu"] += 10
			cpuBuild += 10
		case strings.Contains(ver, "+xpu"):
			score["xpu"] += 10
		case strings.Contains(ver, "+hpu") || strings.Contains(strings.ToLower(ver), "+gaudi"):
			score["hpu"] += 10
		}
	}
	if _, ok := versions["rocm"]; ok {
		score["rocm"] += 6
	}
	// "SIGSEGV received ... on cpu 140" names a core, not a platform.
	// Pasted git history names other people's platforms.
	text := withoutGitHistory(doc.scanText())
	// What an extension was built for is not what the poster runs.
	text = withoutBuiltFor(text)
	if noCUDA {
		text = cudaBuildRE.ReplaceAllString(text, "")
	}
	// A model id under a hardware maker's organisation
	// ("nvidia/Llama-3.1-Nemotron-70B-Reward-HF", "amd/Llama-3.1-8B-FP8")
	// names who published the weights, not the hardware they run on.
	// NVIDIA's CUDA images (nvidia/cuda:12.4.1-devel) stay.
	text = vendorModelRE.ReplaceAllStringFunc(text, func(id string) string {
		if _, name, _ := strings.Cut(strings.ToLower(id), "/"); strings.HasPrefix(name, "cuda") {
			return id
		}
		return ""
	})
	// An AMD processor is the host's CPU, not a GPU ROCm drives: an
	// EPYC under NVIDIA GPUs (collect_env's "Model name: AMD EPYC 7763
	// 64-Core Processor", DGX A100 hosts), a Ryzen desktop beside a
	// GeForce. A Ryzen AI part is an APU whose Radeon ROCm runs
	// ("AMD Ryzen AI 9 HX PRO 370 w/ Radeon 890M", vllm#28460; Strix
	// Halo's "Ryzen AI Max+ 395").
	text = withoutAMDCPUs(text)
	// An environment report's line that states an absence ("ROCM used
	// to build PyTorch: N/A", "HIP runtime version: N/A") names what the
	// set-up does not have.
	text = absentLineRE.ReplaceAllString(text, "")
	// Nor does the title of its section on GPUs ("CUDA / GPU Info",
	// printed on every machine, vllm#18362 on a Mac).
	text = envSectionTitleRE.ReplaceAllString(text, "")
	if re := s.logs().probeLines; re != nil {
		text = re.ReplaceAllString(text, "")
	}
	// PyTorch names every GPU "cuda", AMD's through ROCm as well
	// (torch.cuda.empty_cache(), .to("cuda"), device="cuda"), and vLLM
	// calls its captured execution graphs CUDA graphs on every GPU
	// platform: neither says whose GPU the post runs on.
	text = cudaAPIRE.ReplaceAllString(text, "")
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
			if s.re == cpuSuffixRE {
				cpuBuild += s.weight * min(n, 3)
			}
		}
	}
	// The pack's own markers: image names and build settings that name a
	// platform as surely as a build suffix does.
	if s != nil {
		for plat, markers := range s.Vocabulary.PlatformMarkers {
			if n := countMarkers(text, markers, 3); n > 0 {
				score[plat] += markerWeight * n
			}
		}
	}
	// A device chosen on a command line: --device cpu.
	for _, c := range cmds {
		if d := strings.ToLower(c.Flags["--device"]); slices.Contains(platformOrder[:], d) {
			score[d] += 10
		}
	}
	if re := s.logs().platform; re != nil {
		if m := re.FindStringSubmatch(text); m != nil && len(m) > 1 {
			score[strings.ToLower(m[1])] += 10
		}
	}
	for plat, n := range hardwareHits(text, s) {
		score[plat] += hardwareWeight * min(n, 3)
	}
	// An accelerator whose PyTorch backend is a plugin runs on PyTorch's
	// CPU build: TPUs (torch_xla and JAX; "PyTorch version : 2.10.0+cpu"
	// on a TPU v5e, vllm-project/tpu-inference#2453, and the TPU
	// requirement torch==2.6.0.dev20241216+cpu, vllm#13479), Neuron and
	// Ascend's NPUs (torch_neuronx, torch_npu). Beside their evidence the
	// CPU build says nothing of the platform.
	if score["tpu"] > 0 || score["neuron"] > 0 || score["npu"] > 0 {
		score["cpu"] -= cpuBuild
	}
	best, bestScore := "", 0
	for _, p := range platformOrder {
		if score[p] > bestScore {
			best, bestScore = p, score[p]
		}
	}
	return best
}

// absentValue is what an environment report prints for a thing the
// set-up does not have.
const absentValue = `(?:N/A|None|No CUDA|Could not collect|False)`

var (
	// cudaBuildRE is what says which CUDA a PyTorch build was made for.
	cudaBuildRE   = regexp.MustCompile(`(?m)\+cu\d{2,3}\b|^.*CUDA used to build PyTorch.*$`)
	vendorModelRE = regexp.MustCompile(`(?i)\b(?:nvidia|amd|intel)/[A-Za-z][\w.-]*[A-Za-z0-9]\b(?::[\w.-]+)?`)
	// absentLineRE is an environment report's line that states an
	// absence, as collect_env prints it or as a table's row of two cells
	// ("| ROCM used to build PyTorch | N/A |").
	absentLineRE = regexp.MustCompile(`(?m)^(?:[^:\n]{1,60}:[ \t]*` + absentValue + `|[ \t]*\|[^|\n]{1,60}\|[ \t]*` + absentValue + `[ \t]*\|)[ \t]*$`)
	noCUDARE     = regexp.MustCompile(`Is CUDA available[ \t]*[:|][ \t]*False`)
	// envSectionTitleRE is the title collect_env's report gives its
	// section on GPUs, on every machine.
	envSectionTitleRE = regexp.MustCompile(`(?m)^[ \t]*CUDA / GPU Info[ \t]*$`)
	cpuCoreRE         = regexp.MustCompile(`(?i)\bon cpu \d+`)
	// amdCPURE is AMD's name before one of its processor families
	// (withoutAMDCPUs).
	amdCPURE     = regexp.MustCompile(`(?i)\bAMD(?:\(R\))?\s+(?:EPYC|Ryzen|Threadripper|Athlon|Opteron)(?:\(TM\))?(?:\s+AI\b)?`)
	gitLogLineRE = regexp.MustCompile(`(?m)^[0-9a-f]{7,40} .*$`)
	// gitCommitRE is one commit as `git log` and `git show` print it
	// by default: the "commit <hash>" line (the full hash, or an
	// abbreviated one with nothing after it but git's decorations, so
	// that a sentence starting "commit 46f98893 broke …" stays the
	// poster's), its header lines (Author, Date, Merge; any of them may
	// have been cut), then the message indented by four spaces, blank
	// lines between.
	gitCommitRE = regexp.MustCompile(`(?m)^[ \t]*commit (?:[0-9a-f]{40}\b.*|[0-9a-f]{7,39}(?:[ \t]+\([^)\n]*\))?[ \t]*)$(?:\n[ \t]*(?:Author|AuthorDate|Commit|CommitDate|Date|Merge):.*$)*(?:\n[ \t]*$|\n(?:    |\t).*$)*`)
)

// withoutGitHistory drops the git history a post pastes to say which
// build it runs: `git log --oneline` lines ("18551e82 [V1] TPU - Fix
// CI/CD runner (#14974)", vllm-dev C1-014) and commits in git's default
// format ("commit 324960a9… (HEAD -> main)" over the indented "[TPU][CI]
// Update torchxla version in requirement-tpu.txt (#12422)",
// vllm-project/vllm#12438, a CUDA post). The titles of other people's
// changes name the platforms, models and errors those changes were
// about, not the poster's.
func withoutGitHistory(text string) string {
	if strings.Contains(text, "commit ") {
		text = gitCommitRE.ReplaceAllString(text, "")
	}
	return gitLogLineRE.ReplaceAllString(text, "")
}

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
	return wordHits(text, w, 1, prefix, true) > 0
}

var (
	// gpuMemFirstRE is memory written before the word for the card ("a
	// 24 GB GPU", "16gb vram"), on one line: "16gb vram\n\nGPU 0: …" is
	// the memory's own line and the next one's device list.
	gpuMemFirstRE = regexp.MustCompile(`(?i)\b(\d{1,3})[ \t]?(?:GB|GiB|G)[ \t]+((?:AMD|NVIDIA|Nvidia|Intel)?[ \t]?(?:[\w-]+[ \t])?(?:GPU|card|VRAM))\b`)
	// defaultGPUs is the named-GPU pattern of a schema whose vocabulary
	// names no products: the families written as patterns only.
	defaultGPUs = compileGPUs(nil)
)

// compileGPUs returns the pattern of a GPU named in a post: the product
// names of a vocabulary's hardware words (those with a digit and no
// wildcard: A100, H800, P40, L40S), the numbered families (RTX 4090,
// MI300X, RX 7900 XTX or, without its RX, "Radeon 7900 xtx", Intel Arc
// A770 and the workstation Arc Pro B60 and B70, vllm-project/vllm#28770,
// #41663, #48327), with an optional count before ("8x", "4*") or after ("A800 * 8")
// and a memory size after ("80GB", "(16GB)", or "80G" as the many posts
// and guides that write "A100 80G" and "8xA100 80G" do). A GeForce's
// family may be joined to its number by a hyphen ("RTX-4090").
// Submatches: 1 count before, 2 name, 3 memory, 4 count after.
func compileGPUs(hardware map[string][]string) *regexp.Regexp {
	var names []string
	for _, words := range hardware {
		for _, w := range words {
			// gpuProductRE admits letters and digits only, which need no
			// quoting in the pattern.
			if gpuProductRE.MatchString(w) && !slices.Contains(names, w) {
				names = append(names, w)
			}
		}
	}
	// Longest first, so that L40S is not read as L40 nor H200 as H20.
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	products := ""
	if len(names) > 0 {
		// A count may be glued to a product's name, after it ("H20x16",
		// "H100x8*2") or before it ("8H100"): gluedCount takes it off.
		products = `|\d{0,2}(?:NVIDIA\s+)?(?:` + strings.Join(names, "|") + `)(?:s\b|\b|[x×*]\d{1,2}\b)`
	}
	return regexp.MustCompile(`(?i)(?:\b|^)(\d+\s?[x×*]\s?|[1-9]\d |[2-9] )?((?:NVIDIA\s+)?(?:GeForce[\s-]+)?(?:RTX|GTX)[\s-]?(?:A?\d{4}|PRO \d{4})(?:\s?Ti| SUPER|\s?D\b)?` + products +
		`|` + jetsonPat + `|(?:AMD\s+)?(?:Instinct\s+)?MI\d{3}X?|` + radeonPat + `|(?:AMD\s+)?(?:Radeon\s+)?RX\s?\d{4}\s?(?:XTX|XT)?|(?:AMD\s+)?(?:Radeon\s+)?[5-9]\d{3}\s?XTX?\b|Intel Arc (?:Pro\s+)?\w+)(?:[\s-]+(?:SXM\d?|PCIe|NVL|HBM\d?e?)?)*(?:[\s-]*\(?(\d{2,3})\s?G(?:i?B)?\b\)?)?(?:\s?[x×*]\s?(\d{1,2})\b)?`)
}

// radeonPat is an AMD Radeon named without RX: an APU's ("Radeon 8060S",
// Strix Halo's, vllm#36615; "Radeon 890M", vllm#28460), a workstation
// card ("Radeon PRO W7900", "Radeon Pro W7900D", "Radeon PRO V710",
// "Radeon AI PRO R9700") or the Radeon VII, as ROCm's support tables and
// the notes of many projects that run on them name them.
const radeonPat = `(?:AMD\s+)?Radeon\s+(?:PRO\s+)?(?:AI\s+PRO\s+R\d{4}|[WV]\d{3,4}D?|\d{3,4}[MS]|VII)\b`

// jetsonPat is an NVIDIA Jetson module, whose GPU is part of the board:
// "Jetson AGX Orin", "jetson orin agx 64gb", "Jetson Orin Nano", "AGX
// Thor", and collect_env's "GPU 0: Orin (nvgpu)" (vllm#5640, #7575,
// #15169, dusty-nv/jetson-containers#1514, dusty-nv/jetson-inference#1872).
const jetsonPat = `(?:NVIDIA\s+)?Jetson\s+(?:AGX\s+)?(?:Orin|Xavier|Thor)(?:\s+(?:AGX|NX|Nano))?|AGX\s+(?:Orin|Xavier|Thor)|Orin\s+\(nvgpu\)`

// mergeShortNames makes one card of a GPU named short and in full in the
// same post: "MI300X" in the prose and "AMD Instinct MI300X" in the
// environment report (vllm-project/vllm#7951, #16474), "A100" and "NVIDIA
// A100" (#6250), "RTX 5080" and "NVIDIA GeForce RTX 5080" (#19906). The
// short name must be the full one's last words, so "A10" stays apart from
// "A100". The card keeps the full name, at the place either was read
// first, with the count and memory either gave.
func mergeShortNames(gpus []GPU) []GPU {
	words := func(g GPU) []string { return strings.Fields(strings.ToLower(g.Name)) }
	fullOf := make([]int, len(gpus)) // the index of the fuller name of each, or -1
	for i, g := range gpus {
		fullOf[i] = -1
		w := words(g)
		longest := len(w)
		for j, h := range gpus {
			// The fullest name that ends with this one's words, so that
			// "MI300X", "Instinct MI300X" and "AMD Instinct MI300X" are
			// one card under the last.
			if v := words(h); len(v) > longest && len(w) > 0 && slices.Equal(v[len(v)-len(w):], w) {
				fullOf[i], longest = j, len(v)
			}
		}
	}
	out := gpus[:0:0]
	placed := map[int]int{} // index of a full name → its place in out
	for i, g := range gpus {
		full := i
		if fullOf[i] >= 0 {
			full = fullOf[i]
		}
		if k, ok := placed[full]; ok {
			if out[k].Count == 0 {
				out[k].Count = g.Count
			}
			if out[k].MemoryGiB == 0 {
				out[k].MemoryGiB = g.MemoryGiB
			}
			continue
		}
		f := gpus[full]
		if f.Count == 0 {
			f.Count = g.Count
		}
		if f.MemoryGiB == 0 {
			f.MemoryGiB = g.MemoryGiB
		}
		placed[full] = len(out)
		out = append(out, f)
	}
	return out
}

// dropUnnamedTwins removes a GPU read from its memory alone ("45GB
// VRAM", "24 GB GPU") when a named one has the same memory: "NVIDIA L40S
// (45GB VRAM)" is one card, not two. Memory called VRAM is the named
// card's when exactly one named card has none ("an RTX 4090 with 24GB
// VRAM"); "a 12GB GPU" beside an RTX 3090 may be another card and stays.
func dropUnnamedTwins(gpus []GPU) []GPU {
	named := func(g GPU) bool { return !unnamedGPURE.MatchString(g.Name) }
	var bare []int // named GPUs without memory
	for i, g := range gpus {
		if named(g) && g.MemoryGiB == 0 {
			bare = append(bare, i)
		}
	}
	drop := make([]bool, len(gpus))
	for i, g := range gpus {
		if named(g) {
			continue
		}
		drop[i] = slices.ContainsFunc(gpus, func(h GPU) bool { return named(h) && h.MemoryGiB == g.MemoryGiB })
		if !drop[i] && len(bare) == 1 && strings.HasSuffix(strings.ToUpper(g.Name), "VRAM") {
			gpus[bare[0]].MemoryGiB, drop[i] = g.MemoryGiB, true
		}
	}
	out := gpus[:0:0]
	for i, g := range gpus {
		if !drop[i] {
			out = append(out, g)
		}
	}
	return out
}

// gpuPlatform returns the one platform whose hardware the post's GPUs
// are, for a post that names its cards in no words the platform scan
// reads ("my 4080", read as RTX 4080), or "".
func gpuPlatform(gpus []GPU, s *Schema) string {
	names := make([]string, 0, len(gpus))
	for _, g := range gpus {
		names = append(names, g.Name)
	}
	hits := hardwareHits(strings.Join(names, "\n"), s)
	if len(hits) != 1 {
		return ""
	}
	for plat := range hits {
		return plat
	}
	return ""
}

// bareGeForceRE is a GeForce card's model number written without its
// RTX ("my 4080 only has 16gb vram", vllm-project/vllm#16538; "4*4090
// 24g", #15457; "[Bug]: 5090 cannot run …", #23826; "上能部署 … 5090",
// a vllm-dev post). A bare number is often something else (a port, a
// count of tokens), so bareGeForces also wants a word around it that
// says a card is meant.
//
// The 20 series is read too ("2080ti 22G * 4", vllm#3764 and #35854;
// "2080Ti which has 22GB", vllm#2140; two vllm-dev posts), and so is the
// D of China's 4090D. A Ti or D glued to the number is itself a cue, and
// so is a plural, as people count their cards ("2x3090s",
// vllm-project/vllm#17854; "updated for 5090s yet", vllm-dev C1-001).
//
// A count after the number says so too, as Chinese posts and notes
// write their hardware ("使用硬件为4090*2", a FastGPT deployment note;
// "L40/4090*2", a competition's README; "| 4090*2 |" in result tables).
var bareGeForceRE = regexp.MustCompile(`(?i)\b(?:(\d{1,2})\s?[x×*]\s?)?([2345]0[5-9]0)(\s?Ti|D)?(s)?\b(\s*(?:GPUs?|cards?|graphics|显卡|卡))?(?:\s?[x×*]\s?(\d{1,2})\b)?`)

// cardWordsBefore are the words before a bare model number that make it a
// card: a possessive or article ("my 4080", "a 5090"), "on"/"with", counts
// in words, and the vendor's name ("CUDA + NVIDIA 5090",
// NixOS/nixpkgs#406675's title; "tested on NVIDIA 4090 GPU", "Nvidia 4090
// (24G)" in many projects' READMEs).
var cardWordsBefore = map[string]bool{"my": true, "a": true, "an": true, "the": true, "on": true, "with": true,
	"dual": true, "two": true, "four": true, "eight": true, "single": true, "one": true, "our": true, "nvidia": true}

// countWords are the words before a bare model number that count the
// cards ("dual 3090s", "two 4090s"; "2x3090s", vllm#17854, counts in
// digits).
var countWords = map[string]int{"dual": 2, "two": 2, "four": 4, "eight": 8}

// cardSuffixesBefore end the Chinese words before a bare model number
// that make it a card: a measure word for cards (两张4090, 四块4090), the
// word for card itself (双卡4090 in many projects' notes and Chinese
// guides, vllm-project/vllm#15529's title "4卡4090", 单卡4090) and
// "on"/"with" (在 5090 上, 用 4090), which need no space before the number.
var cardSuffixesBefore = slices.Concat(cardMeasureWords, []string{"在", "用"})

// cardMeasureWords are the Chinese words a count of cards stands before:
// the measure words 张 and 块, and 卡 (card).
var cardMeasureWords = []string{"张", "块", "卡"}

// chineseCounts are the numerals that count cards before a measure word
// or 卡 (两张, 四块, 双卡, 单卡).
var chineseCounts = map[string]int{"单": 1, "一": 1, "两": 2, "二": 2, "双": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}

// maxChineseCardCount bounds the digits read as a count before 卡, 张 or
// 块: eight hosts of eight cards is the most a post counts that way
// (posts write "8卡H100", "16卡", "32卡"); a longer run glued there is a
// model number or a price ("5090卡" names the card), not a count.
const maxChineseCardCount = 64

// chineseCount returns the number of cards the end of the Chinese text
// before a bare model number counts ("…4卡", "机器是两张", "双卡"), or 0:
// the digits or the numeral just before the measure word. Chinese writes
// no space between words, so the text may be a whole clause.
func chineseCount(word string) int {
	for _, suffix := range cardMeasureWords {
		n, ok := strings.CutSuffix(word, suffix)
		if !ok || n == "" {
			continue
		}
		digits := len(n)
		for digits > 0 && n[digits-1] >= '0' && n[digits-1] <= '9' {
			digits--
		}
		if digits < len(n) {
			return cardCountDigits(n[digits:])
		}
		r, _ := utf8.DecodeLastRuneInString(n)
		return chineseCounts[string(r)]
	}
	return 0
}

// chineseCountAfterRE is a Chinese count of cards after their name, with
// the card's memory or the word for the machine between: "A6000 4卡
// 48GB" and "A6000机器4卡48GB" (hiyouga/LlamaFactory#7131), "NVIDIA
// GeForce RTX 4090 48g - 8卡" (zai-org/GLM-V#204).
var chineseCountAfterRE = regexp.MustCompile(`^[ \t]*(?:\d{1,3}[ \t]?[gG](?:[bB]|iB)?[ \t]*)?(?:[-–:*x×][ \t]*)?(?:机器|服务器|主机)?[ \t]*(\d{1,2})[ \t]?[卡张块]`)

// chineseCountAfter returns the count chineseCountAfterRE reads at the
// start of rest, the text after a card's name, or 0.
func chineseCountAfter(rest string) int {
	if m := chineseCountAfterRE.FindStringSubmatch(rest); m != nil {
		return cardCountDigits(m[1])
	}
	return 0
}

// cardCountDigits returns the count of cards digits write before or
// after 卡, 张 or 块, or 0 when they are no count (maxChineseCardCount).
func cardCountDigits(digits string) int {
	if n, err := strconv.Atoi(digits); err == nil && n > 0 && n <= maxChineseCardCount {
		return n
	}
	return 0
}

// cardCountRE is the English form of the Chinese count before 卡: "the
// 8-card L20" (vllm-project/vllm#40851), "8-card A100, 4-card A6000, or
// single-card RTX4090" (a project's hardware goals; "an 8-card A100
// server" in many papers' and projects' notes).
var cardCountRE = regexp.MustCompile(`(?i)^(\d{1,2}|single|one|dual|two|four|eight)-cards?$`)

// cardCount returns the count of cards a word like "8-card" states, or 0.
func cardCount(word string) int {
	m := cardCountRE.FindStringSubmatch(word)
	if m == nil {
		return 0
	}
	w := strings.ToLower(m[1])
	if n, err := strconv.Atoi(w); err == nil {
		return n
	}
	if w == "single" || w == "one" {
		return 1
	}
	return countWords[w]
}

// wordBefore returns the word before offset i of text, past the blanks
// between them.
func wordBefore(text string, i int) string {
	return lastWord(strings.TrimRight(text[:i], " \t"))
}

// lastWord returns the word that ends text: what follows its last space,
// bracket or comma (ASCII or full-width).
func lastWord(text string) string {
	i := strings.LastIndexFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("(（,，", r) })
	if i < 0 {
		return text
	}
	_, size := utf8.DecodeRuneInString(text[i:])
	return text[i+size:]
}

// bareGeForces returns the GeForce cards named by model number alone,
// as "RTX N", but for numbers a card already read has in its name ("an
// NVIDIA GeForce RTX 4080 … my 4080" is one card).
func bareGeForces(text string, read []GPU) []GPU {
	var out []GPU
	seen := map[string]bool{}
	for _, ix := range bareGeForceRE.FindAllStringSubmatchIndex(text, 8) {
		start, end := ix[0], ix[1]
		if start > 0 && strings.ContainsRune("-=:./_#", rune(text[start-1])) {
			continue // a flag's value, a port, a path, a version, an id
		}
		if end < len(text) && (text[end] == '.' && end+1 < len(text) && text[end+1] >= '0' && text[end+1] <= '9' || text[end] == '/') {
			continue
		}
		word := wordBefore(text, start)
		// The title is scanText's first line; a number that opens it,
		// after any template tag, is what the post is about.
		titleHead := !strings.Contains(text[:start], "\n") && stripTitleTemplate(text[:start]) == ""
		counted := ix[2] >= 0 || len(word) == 1 && word[0] >= '1' && word[0] <= '9'
		cue := counted || ix[6] >= 0 || ix[8] >= 0 || ix[10] >= 0 || ix[12] >= 0 || titleHead || cardWordsBefore[strings.ToLower(word)] ||
			slices.ContainsFunc(cardSuffixesBefore, func(s string) bool { return strings.HasSuffix(word, s) })
		if !cue {
			continue
		}
		number := text[ix[4]:ix[5]]
		if seen[number] || slices.ContainsFunc(read, func(g GPU) bool { return strings.Contains(g.Name, number) }) {
			continue
		}
		seen[number] = true
		name := canonicalGeForce("RTX " + text[ix[4]:max(ix[5], ix[7])])
		g := GPU{Name: name}
		switch zh := chineseCount(word); {
		case ix[2] >= 0:
			g.Count, _ = strconv.Atoi(text[ix[2]:ix[3]])
		case ix[12] >= 0:
			g.Count, _ = strconv.Atoi(text[ix[12]:ix[13]])
		case counted:
			g.Count = int(word[0] - '0')
		case zh > 0:
			g.Count = zh
		default:
			g.Count = countWords[strings.ToLower(word)]
		}
		out = append(out, g)
	}
	return out
}

// geForceNameRE is a GeForce name as posts write it: "RTX2080ti",
// "rtx 3090Ti", "RTX 4090D".
var geForceNameRE = regexp.MustCompile(`(?i)\b(RTX|GTX)[\s-]?(A?\d{4})(?:\s?(Ti)\b|\s?(D)\b)?`)

// geForceHyphenRE is "GeForce" joined to the family by a hyphen.
var geForceHyphenRE = regexp.MustCompile(`(?i)\bGeForce-`)

// canonicalGeForce writes a GeForce name one way, as NVIDIA does ("RTX
// 2080 Ti", "RTX 4090 D", "GeForce RTX 4090"): the facts must not change
// with the spacing, nor with a hyphen for a space ("RTX-4090", as
// gpustack/gpustack#2097 titles its "RTX-5090D" and posts and guides in
// several languages write it).
func canonicalGeForce(name string) string {
	name = geForceHyphenRE.ReplaceAllString(name, "GeForce ")
	return geForceNameRE.ReplaceAllStringFunc(name, func(m string) string {
		sm := geForceNameRE.FindStringSubmatch(m)
		out := strings.ToUpper(sm[1]) + " " + strings.ToUpper(sm[2])
		switch {
		case sm[3] != "":
			out += " Ti"
		case sm[4] != "":
			out += " D"
		}
		return out
	})
}

// unnamedGPURE is a GPU "name" that names no product: the vendor at most
// and the word for the device or its memory.
var unnamedGPURE = regexp.MustCompile(`(?i)^(?:(?:AMD|NVIDIA|Nvidia|Intel)\s?)?(?:GPU|card|VRAM)$`)

// gpuProductRE is a hardware word that names one product: letters then a
// digit, no wildcard and no spaces ("A100", "MI100"; not "RTX*", "sm_*").
var gpuProductRE = regexp.MustCompile(`^[A-Za-z]{1,3}\d[A-Za-z0-9]*$`)

// extractGPUs finds accelerators with their memory where the post says it.
// The total capacity printed in a CUDA OOM message fills in memory when no
// size was stated.
func extractGPUs(doc *document, errs []ErrorInfo, s *Schema) []GPU {
	gpuNamedRE := defaultGPUs
	if s != nil && s.gpus != nil {
		gpuNamedRE = s.gpus
	}
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
		// "37 GB of VRAM" names the memory, not a product: the word
		// before GPU, card or VRAM is kept only when it is not "of".
		name := strings.TrimSpace(m[2])
		if w, rest, ok := strings.Cut(name, " "); ok && strings.EqualFold(w, "of") {
			name = rest
		}
		key := strings.ToLower(name)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, GPU{Name: name, MemoryGiB: mem})
	}
	for _, ix := range gpuNamedRE.FindAllStringSubmatchIndex(text, 8) {
		m := submatches(text, ix)
		// A bare digit before the name counts the cards ("2 RTX 3090
		// GPUs") unless it ends a version or a decimal ("0.8 H100").
		if m[1] != "" && !strings.ContainsAny(m[1], "xX×*") && ix[2] > 0 && !strings.ContainsRune(" \t\n(", rune(text[ix[2]-1])) {
			m[1] = ""
		}
		if twoDigitsRE.MatchString(m[1]) && !twoDigitCount(text, ix) {
			m[1] = ""
		}
		if hostNamed(text, ix[4], ix[5]) {
			continue
		}
		name := canonicalGeForce(strings.Join(strings.Fields(m[2]), " "))
		name, glued := s.gluedCount(name)
		if n := len(name); n > 1 && name[n-1] == 's' {
			// "8 H100s" counts H100s, but "4 L40s GPUs", "(4xl40s)" and
			// "NVIDIA L40s (48GB VRAM) x 2" name NVIDIA's L40S, as their
			// environment reports say (vllm-dev C1-029, C3-007, C3-033):
			// a name whose "s" spells a product is that product. A
			// product that ends in a letter counts so too: "8 A10Gs"
			// (NVIDIA/TensorRT-LLM#7818; "four A10Gs" on g5.12xlarge in
			// many projects' notes).
			head, last := "", name
			if i := strings.LastIndexByte(name, ' '); i >= 0 {
				head, last = name[:i+1], name[i+1:]
			}
			if digit := name[n-2] >= '0' && name[n-2] <= '9'; digit {
				if p := s.gpuProduct(last); p != "" {
					name = head + p
				} else {
					name = name[:n-1]
				}
			} else if p := s.gpuProduct(last[:len(last)-1]); p != "" {
				name = head + p
			}
		}
		name = strings.TrimSuffix(name, " (nvgpu)") // collect_env's Jetson GPU: "Orin (nvgpu)"
		g := GPU{Name: name}
		if m[3] != "" {
			g.MemoryGiB, _ = strconv.ParseFloat(m[3], 64)
		}
		switch {
		case m[1] != "":
			g.Count, _ = strconv.Atoi(strings.TrimRight(strings.TrimSpace(m[1]), "x×* "))
		case glued > 0:
			g.Count = glued
		case m[4] != "":
			g.Count, _ = strconv.Atoi(m[4])
		default:
			// Counted in words, as bare GeForces are ("four A10Gs",
			// "two H100s"), or in Chinese before the word for card or a
			// measure word ("8卡H100", vllm-project/vllm#40778; "8卡A100"
			// and "两张A100" in many Chinese notes and guides), which
			// Chinese glues to the name.
			word := wordBefore(text, ix[0])
			g.Count = countWords[strings.ToLower(word)]
			if g.Count == 0 {
				g.Count = chineseCount(word)
			}
			if g.Count == 0 {
				g.Count = cardCount(word)
			}
			if g.Count == 0 {
				g.Count = chineseCountAfter(text[ix[1]:])
			}
		}
		key := strings.ToLower(name)
		if seen[key] {
			// Named again ("L40S" in the title, "(4xl40s)" in the
			// body): what the first mention left out, this one may say.
			i := slices.IndexFunc(out, func(o GPU) bool { return strings.EqualFold(o.Name, name) })
			if i >= 0 && out[i].Count == 0 {
				out[i].Count = g.Count
			}
			if i >= 0 && out[i].MemoryGiB == 0 {
				out[i].MemoryGiB = g.MemoryGiB
			}
			continue
		}
		seen[key] = true
		out = append(out, g)
	}
	out = append(out, bareGeForces(text, out)...)
	out = mergeShortNames(dropUnnamedTwins(out))
	countListedGPUs(text, out)
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

// twoDigitCount reports whether a two-digit number before a card's name
// (the match ix) counts the cards: the name must be followed by the
// word for them ("16 H800 GPUs", corpus #18681; "16 H100 GPUs" and
// "64 H100 GPUs" in many papers' and deployment notes), and the number
// must not follow a word whose version it is ("CUDA 12 H100 GPUs"),
// which a one-digit count never does in a post, but a two-digit
// release number often does.
func twoDigitCount(text string, ix []int) bool {
	after := strings.TrimLeft(text[ix[1]:], " ")
	if !cardWordAfterRE.MatchString(after) {
		return false
	}
	return !versionedWords[strings.ToLower(wordBefore(text, ix[2]))]
}

// twoDigitsRE is a two-digit count before a name.
var twoDigitsRE = regexp.MustCompile(`^\d\d $`)

// cardWordAfterRE is the word for the cards after their name.
var cardWordAfterRE = regexp.MustCompile(`(?i)^(?:GPUs?|cards?)\b`)

// versionedWords are the words a release number follows.
var versionedWords = map[string]bool{"cuda": true, "rocm": true, "python": true, "driver": true, "version": true,
	"torch": true, "pytorch": true, "ubuntu": true, "nccl": true, "gcc": true, "vllm": true, "v": true}

// hostNamed reports whether the name at text[start:end] begins with a
// glued count inside a hyphenated word: a host named for its cards
// (NCCL's "8a100-5:154783:154783 [1] NCCL INFO", corpus #6636; a prompt's
// "afkhan@sws-2h100-01:", #6689), which states no hardware of the post.
func hostNamed(text string, start, end int) bool {
	if start < 0 || start >= len(text) || text[start] < '0' || text[start] > '9' {
		return false
	}
	return start > 0 && text[start-1] == '-' || end < len(text) && text[end] == '-'
}

// gluedCountRE is a name with a count glued after it, and
// gluedLeadRE one with a count glued before it.
var (
	gluedCountRE = regexp.MustCompile(`(?i)^(.+?)(?:x|×|\*)(\d{1,2})$`)
	gluedLeadRE  = regexp.MustCompile(`^(\d{1,2})(\D.*)$`)
)

// gluedCount takes a count glued to a product's name off it, as posts
// and titles write a host's cards: after the name ("DeepSeek R1 H20x16
// pp2", vllm-project/vllm#15332; "on H100x8*2 devices", #13121, whose
// "*2" counts hosts and is left) or before it ("two nodes of 8H100", a
// comment on vllm#11539; "run on 8H100" in a training record): "H20x16"
// and "16H20" are 16 H20s. A name whose rest is no product of the
// vocabulary is returned as it is, with no count.
func (s *Schema) gluedCount(name string) (string, int) {
	if m := gluedLeadRE.FindStringSubmatch(name); m != nil {
		// A count after it too ("8H100x2") counts hosts, and is left.
		rest, _ := s.gluedCount(m[2])
		if p := s.gpuProduct(rest); p != "" {
			n, _ := strconv.Atoi(m[1])
			return p, n
		}
		return name, 0
	}
	m := gluedCountRE.FindStringSubmatch(name)
	if m == nil {
		return name, 0
	}
	head, last := "", m[1]
	if i := strings.LastIndexByte(m[1], ' '); i >= 0 {
		head, last = m[1][:i+1], m[1][i+1:]
	}
	p := s.gpuProduct(last)
	if p == "" {
		return name, 0
	}
	n, _ := strconv.Atoi(m[2])
	return head + p, n
}

// gpuProduct returns the vocabulary's spelling of a GPU product named
// word in any case ("l40s" → "L40S"), or "".
func (s *Schema) gpuProduct(word string) string {
	if s == nil {
		return ""
	}
	for _, words := range s.Vocabulary.Hardware {
		for _, w := range words {
			if gpuProductRE.MatchString(w) && strings.EqualFold(w, word) {
				return w
			}
		}
	}
	return ""
}

// listedGPURE is a line of collect_env's "GPU models and configuration":
// one GPU a line ("GPU 0: NVIDIA L40S", vllm-dev C3-007), or the same
// model's indexes together ("GPU 0,1,2: NVIDIA GeForce RTX 2080 Ti",
// C1-031; "GPU 0-3: NVIDIA RTX PRO 6000 Blackwell Server Edition",
// C2-033).
var listedGPURE = regexp.MustCompile(`(?m)^[ \t]*GPU (\d{1,3}(?:(?:-|,[ \t]?)\d{1,3})*): ([^\n]+?)[ \t]*$`)

// countListedGPUs gives each GPU without a count the number an
// environment report lists of it, when that is more than one.
func countListedGPUs(text string, gpus []GPU) {
	if !strings.Contains(text, "GPU ") {
		return
	}
	listed := map[string]int{}
	for _, m := range listedGPURE.FindAllStringSubmatch(text, 64) {
		n := 0
		for _, part := range strings.Split(m[1], ",") {
			lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
			a, _ := strconv.Atoi(lo)
			b, _ := strconv.Atoi(hi)
			if isRange && b > a {
				n += b - a + 1
			} else {
				n++
			}
		}
		listed[strings.ToLower(m[2])] += n
	}
	for i := range gpus {
		if gpus[i].Count != 0 {
			continue
		}
		// The report's full name may go on past the one read
		// ("NVIDIA RTX PRO 6000 Blackwell Server Edition").
		name := strings.ToLower(gpus[i].Name)
		n := 0
		for l, c := range listed {
			if l == name || strings.HasPrefix(l, name+" ") {
				n += c
			}
		}
		if n > 1 {
			gpus[i].Count = n
		}
	}
}

// withoutAMDCPUs returns text without the names of AMD's processors
// other than its Ryzen AI APUs (amdCPURE): "AMD" there names the host's
// CPU, not a GPU ROCm drives.
func withoutAMDCPUs(text string) string {
	return amdCPURE.ReplaceAllStringFunc(text, func(m string) string {
		if strings.HasSuffix(strings.ToLower(m), " ai") {
			return m
		}
		return ""
	})
}
