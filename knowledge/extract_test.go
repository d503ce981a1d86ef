package knowledge

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func vllmSchema(t testing.TB) *Schema {
	t.Helper()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	return p.Schema()
}

func readPostFile(t testing.TB, name string) Post {
	t.Helper()
	for _, p := range testPosts(t) {
		if p.name == name {
			return Post{Body: p.body}
		}
	}
	t.Fatalf("no test case with the post %s", name)
	return Post{}
}

// want lists what extraction must find in a post; empty fields are not
// checked, and "-" means "must be empty".
type want struct {
	program, subcommand string
	flags               map[string]string
	env                 map[string]string
	exception           string
	errorType2          string // a second error that must be present
	numbers             map[string]float64
	versions            map[string]string
	platform            string
	gpu                 string
	gpuMem              float64
	model               string
	topics              []string
	os, python          string
}

func TestExtractPosts(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	tests := []struct {
		file string
		want want
	}{
		{"oom-rocm-offload.md", want{
			program: "vllm", subcommand: "serve",
			flags: map[string]string{"--port": "8085", "--max-num-seqs": "1", "--enable-auto-tool-choice": "",
				"--tool-call-parser": "gemma4", "--chat-template": "~/Downloads/tool_chat_template_gemma4.jinja",
				"--reasoning-parser": "gemma4", "--cpu-offload-gb": "100", "--gpu-memory-utilization": "0.1"},
			exception: "torch.OutOfMemoryError",
			numbers:   map[string]float64{"oom_total_gib": 15.98, "oom_allocated_gib": 15.09},
			versions:  map[string]string{"vllm": "0.24.0+rocm725"},
			platform:  "rocm", gpu: "AMD GPU", gpuMem: 16, model: "google/diffusiongemma-26B-A4B-it",
			topics: []string{"oom", "cpu-offload", "rocm"},
		}},
		{"kv-cache-maxlen.md", want{
			program: "vllm", subcommand: "serve",
			flags:     map[string]string{"--model": "mistralai/Mistral-7B-Instruct-v0.2", "--gpu-memory-utilization": "0.85"},
			exception: "ValueError", numbers: map[string]float64{"max_seq_len": 32768, "kv_tokens": 16816},
			versions: map[string]string{"vllm": "0.4.0.post1", "torch": "2.1.2+cu121"},
			platform: "cuda", gpu: "A10G", model: "mistralai/Mistral-7B-Instruct-v0.2", topics: []string{"kv-cache"},
		}},
		{"nccl-hang.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--tensor-parallel-size": "2"},
			exception: "nccl-timeout", versions: map[string]string{"vllm": "0.8.3", "nccl": "2.21.5"},
			platform: "cuda", gpu: "L40S", model: "Qwen/QwQ-32B-AWQ", topics: []string{"hang", "multi-gpu"},
		}},
		{"docker-shm.md", want{
			program: "vllm", subcommand: "serve",
			flags:     map[string]string{"--model": "meta-llama/Llama-3.1-70B-Instruct", "--tensor-parallel-size": "4"},
			exception: "fatal-python-error", errorType2: "nccl-error",
			versions: map[string]string{"vllm": "0.6.3"}, platform: "cuda", model: "meta-llama/Llama-3.1-70B-Instruct",
			topics: []string{"docker", "shm"},
		}},
		{"tool-choice.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--trust-remote-code": ""},
			exception: "openai.BadRequestError", model: "THUDM/glm-4-9b-chat", topics: []string{"tool-calling"},
		}},
		{"chat-template-gguf.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--tokenizer": "Qwen/Qwen2-7B-Instruct"},
			exception: "ValueError", versions: map[string]string{"transformers": "-"},
			topics: []string{"chat-template", "gguf"},
		}},
		{"awq-v100.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--quantization": "awq"},
			exception: "ValueError", platform: "cuda", gpu: "V100", model: "Qwen/Qwen1.5-32B-Chat-AWQ",
			topics: []string{"awq", "compute-capability"},
		}},
		{"rtx5090.md", want{
			exception: "RuntimeError", versions: map[string]string{"torch": "2.6.0+cu124"},
			platform: "cuda", gpu: "RTX 5090", topics: []string{"blackwell"},
		}},
		{"arch-unsupported.md", want{
			exception: "ValueError", versions: map[string]string{"vllm": "0.6.3.post1"}, python: "3.10",
			topics: []string{"model-support"},
		}},
		{"lora-rank.md", want{exception: "ValueError", model: "meta-llama/Llama-2-7b-hf", topics: []string{"lora"}}},
		{"cpu-only.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--device": "cpu"},
			exception: "RuntimeError", versions: map[string]string{"vllm": "0.7.2"}, platform: "cpu",
			os: "Ubuntu 22.04 LTS", python: "3.11.7", model: "facebook/opt-125m",
		}},
		{"engine-core-wrapper.md", want{
			program: "vllm", subcommand: "serve", exception: "ValueError", errorType2: "RuntimeError",
			versions: map[string]string{"vllm": "0.9.2"}, platform: "cuda", gpu: "RTX 4090",
			model: "meta-llama/Llama-3.1-8B-Instruct", topics: []string{"startup"},
		}},
		{"cooked-oom.html", want{
			program: "vllm", subcommand: "serve",
			flags:     map[string]string{"--tensor-parallel-size": "2", "--max-model-len": "32768"},
			exception: "torch.OutOfMemoryError", numbers: map[string]float64{"oom_total_gib": 79.15},
			versions: map[string]string{"vllm": "0.8.2"}, platform: "cuda", gpu: "A100", gpuMem: 80,
			model: "meta-llama/Llama-3.1-70B-Instruct", topics: []string{"oom", "cuda-graphs"},
		}},
		{"cooked-rocm-radeon.html", want{
			exception: "RuntimeError", versions: map[string]string{"rocm": "6.0"}, platform: "rocm", gpu: "RX 6800",
			topics: []string{"rocm"},
		}},
		{"cooked-tool-parser.html", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--tool-call-parser": "llama3_json"},
			exception: "-", model: "meta-llama/Llama-3.1-8B-Instruct", topics: []string{"tool-calling"},
		}},
		{"structured-output.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--guided-decoding-backend": "xgrammar"},
			versions: map[string]string{"vllm": "0.7.3"}, model: "Qwen/Qwen2.5-VL-7B-Instruct", topics: []string{"structured-output"},
		}},
		{"multi-image.md", want{
			program: "vllm", subcommand: "serve", flags: map[string]string{"--model": "Qwen/Qwen2-VL-7B-Instruct"},
			exception: "openai.BadRequestError", versions: map[string]string{"vllm": "0.6.3.post1"},
			model: "Qwen/Qwen2-VL-7B-Instruct", topics: []string{"multimodal", "docker"},
		}},
		{"go-panic.md", want{exception: "panic"}},
		{"rust-panic.md", want{exception: "rust-panic"}},
		{"command-not-found.md", want{program: "vllm", subcommand: "serve", exception: "command-not-found", model: "facebook/opt-125m"}},
		{"cpp-hip.md", want{
			program: "vllm", subcommand: "serve", env: map[string]string{"HSA_OVERRIDE_GFX_VERSION": "11.0.0"},
			exception: "c10::Error", errorType2: "hip-error", versions: map[string]string{"torch": "2.4.0+rocm6.1"},
			platform: "rocm", gpu: "Radeon RX 7900 XTX", model: "Qwen/Qwen2.5-7B-Instruct",
		}},
		{"chained-causes.md", want{
			exception: "ValueError", errorType2: "KeyError",
			versions: map[string]string{"transformers": "4.46.3", "vllm": "0.7.1"},
		}},
		{"continuation-env.md", want{
			program: "vllm", subcommand: "serve",
			flags: map[string]string{"--tensor-parallel-size": "2", "--max-model-len": "8192", "--enforce-eager": ""},
			env:   map[string]string{"NCCL_P2P_DISABLE": "1", "CUDA_VISIBLE_DEVICES": "0,1"},
			model: "mistralai/Mixtral-8x7B-Instruct-v0.1", topics: []string{"hang", "nccl"},
		}},
		{"announcement.md", want{program: "-", exception: "-"}},
		{"feature-request.md", want{program: "-", exception: "-"}},
		{"unrelated-question.md", want{program: "-", exception: "-", platform: "-"}},
	}
	posts := map[string]string{}
	for _, p := range testPosts(t) {
		posts[p.name] = p.body
	}
	if len(posts) != len(tests) {
		t.Errorf("testdata/cases has %d posts, the table %d: keep them in step", len(posts), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, ok := posts[tt.file]
			if !ok {
				t.Fatalf("no test case with the post %s", tt.file)
			}
			f, err := Extract(Post{Body: body}, s)
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			checkFacts(t, &f, tt.want)
		})
	}
}

func checkFacts(t *testing.T, f *Facts, w want) {
	t.Helper()
	main := f.MainCommand(nil)
	for i := range f.Commands {
		if f.Commands[i].Program == "vllm" {
			main = &f.Commands[i]
			break
		}
	}
	switch {
	case w.program == "-":
		if len(f.Commands) > 0 {
			t.Errorf("commands = %v, want none", f.Commands)
		}
	case w.program != "":
		if main == nil || main.Program != w.program || main.Subcommand != w.subcommand {
			t.Fatalf("main command = %+v, want %s %s", main, w.program, w.subcommand)
		}
		for k, v := range w.flags {
			if got, ok := main.Flags[k]; !ok || got != v {
				t.Errorf("flag %s = %q (present %v), want %q", k, got, ok, v)
			}
		}
	}
	for k, v := range w.env {
		if f.Env[k] != v {
			t.Errorf("env %s = %q, want %q", k, f.Env[k], v)
		}
	}
	switch {
	case w.exception == "-":
		if len(f.Errors) > 0 {
			t.Errorf("errors = %+v, want none", f.Errors)
		}
	case w.exception != "":
		if len(f.Errors) == 0 || f.Errors[0].Type != w.exception {
			t.Errorf("first error = %+v, want type %s", f.Errors, w.exception)
		} else if !strings.HasPrefix(f.Errors[0].Signature, w.exception) {
			t.Errorf("signature %q does not start with the type", f.Errors[0].Signature)
		}
	}
	if w.errorType2 != "" && !slices.ContainsFunc(f.Errors, func(e ErrorInfo) bool { return e.Type == w.errorType2 }) {
		t.Errorf("errors %+v lack a %s", f.Errors, w.errorType2)
	}
	for k, v := range w.numbers {
		if len(f.Errors) == 0 || f.Errors[0].Numbers[k] != v {
			t.Errorf("number %s = %v, want %v", k, f.Errors[0].Numbers[k], v)
		}
	}
	for k, v := range w.versions {
		got, ok := f.Versions[k]
		if v == "-" {
			if ok {
				t.Errorf("version %s = %q, want none", k, got)
			}
			continue
		}
		if got != v {
			t.Errorf("version %s = %q, want %q", k, got, v)
		}
	}
	switch w.platform {
	case "":
	case "-":
		if f.Platform != "" {
			t.Errorf("platform = %q, want none", f.Platform)
		}
	default:
		if f.Platform != w.platform {
			t.Errorf("platform = %q, want %q", f.Platform, w.platform)
		}
	}
	if w.gpu != "" {
		if len(f.GPUs) == 0 || f.GPUs[0].Name != w.gpu {
			t.Errorf("gpus = %+v, want first %q", f.GPUs, w.gpu)
		} else if w.gpuMem != 0 && f.GPUs[0].MemoryGiB != w.gpuMem {
			t.Errorf("gpu memory = %v, want %v", f.GPUs[0].MemoryGiB, w.gpuMem)
		}
	}
	if w.model != "" && (len(f.Models) == 0 || f.Models[0] != w.model) {
		t.Errorf("models = %v, want first %q", f.Models, w.model)
	}
	for _, tag := range w.topics {
		if !slices.Contains(f.Topics, tag) {
			t.Errorf("topics = %v, want %q among them", f.Topics, tag)
		}
	}
	if w.os != "" && f.OS != w.os {
		t.Errorf("os = %q, want %q", f.OS, w.os)
	}
	if w.python != "" && f.Python != w.python {
		t.Errorf("python = %q, want %q", f.Python, w.python)
	}
}

func TestParseCommandLine(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	tests := []struct {
		desc, line string
		want       []string // Command.String() of each command
	}{
		{"equals and space forms agree", "vllm serve m/x --max-model-len=4096 --dtype half",
			[]string{"vllm serve m/x --dtype=half --max-model-len=4096"}},
		{"underscores normalised", "vllm serve m/x --max_model_len 4096 --Enforce_Eager",
			[]string{"vllm serve m/x --enforce-eager --max-model-len=4096"}},
		{"prompt and quotes", `$ vllm serve "org/model name" --chat-template '{{ messages }}'`,
			[]string{"vllm serve org/model name --chat-template={{ messages }}"}},
		{"zsh prompt", "% vllm serve m/x --port 8000", []string{"vllm serve m/x --port=8000"}},
		{"venv prompt", "(venv) user@box:~$ vllm serve m/x -tp 2", []string{"vllm serve m/x --tensor-parallel-size=2"}},
		{"env prefix", "CUDA_VISIBLE_DEVICES=0 vllm serve m/x", []string{"vllm serve m/x"}},
		{"python -m", "python3 -m vllm.entrypoints.openai.api_server --model m/x --trust-remote-code",
			[]string{"vllm serve --model=m/x --trust-remote-code"}},
		{"negative number value", "vllm serve m/x --seed -1", []string{"vllm serve m/x --seed=-1"}},
		{"boolean before positional", "vllm serve --enforce-eager m/x", []string{"vllm serve m/x --enforce-eager"}},
		{"docker wraps vllm", "docker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:latest --model m/x",
			[]string{"docker run vllm/vllm-openai:latest --gpus=all --ipc=host -p=8000:8000", "vllm serve --model=m/x"}},
		{"pipeline", "vllm serve m/x --port 1 2>&1 | tee log.txt", []string{"vllm serve m/x --port=1"}},
		{"unknown program ignored", "ls -la /tmp", nil},
		{"version query skipped", "vllm --version", nil},
		{"unbalanced quote falls back", `vllm serve m/x --chat-template "broken`, []string{`vllm serve m/x --chat-template="broken`}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var got []string
			for _, c := range parseCommandLine(tt.line, s, false) {
				got = append(got, c.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("parseCommandLine(%q)\n got %q\nwant %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestSignatureMasksMachineDetails(t *testing.T) {
	t.Parallel()
	a := Signature("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 968.00 MiB. GPU 0 has a total capacity of 15.98 GiB")
	b := Signature("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 MiB. GPU 1 has a total capacity of 79.15 GiB")
	if a != b {
		t.Errorf("signatures differ:\n%s\n%s", a, b)
	}
	c := Signature("FileNotFoundError", "No such file: /home/alice/models/x.bin at 0xdeadbeef")
	if strings.Contains(c, "alice") || strings.Contains(c, "deadbeef") {
		t.Errorf("signature leaks path or address: %s", c)
	}
}

func TestExtractTruncatesHugePost(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	body := "vllm serve m/x --max-model-len 4096\n" + strings.Repeat("INFO loading shard\n", 1<<16) +
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n"
	f, err := Extract(Post{Body: body}, s)
	if !errors.Is(err, ErrTruncated) {
		t.Fatalf("err = %v, want ErrTruncated for a %d-byte post", err, len(body))
	}
	if !f.Truncated || len(f.Commands) != 1 || len(f.Errors) != 1 {
		t.Errorf("partial facts lost the head or tail: commands %v errors %v", f.Commands, f.Errors)
	}
}

func TestExtractHostileInput(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	garbage := make([]byte, 1<<20)
	for i := range garbage {
		garbage[i] = byte(i*7919 + i>>3)
	}
	nested := strings.Repeat("<div><span><b>", 200_000) + "<pre><code>RuntimeError: deep</code></pre>"
	for name, body := range map[string]string{
		"binary":         string(garbage),
		"nested html":    nested,
		"long line":      "vllm serve " + strings.Repeat("--a ", 300_000),
		"many fences":    strings.Repeat("```\n", 50_000),
		"backtick soup":  strings.Repeat("`", 200_000),
		"one long token": "--" + strings.Repeat("image-", 150_000),
		"unclosed code":  strings.Repeat("[code]\n", 40_000),
		"nested code":    strings.Repeat("[code]\n", 20_000) + strings.Repeat("[/code]\n", 20_000),
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Extract(Post{Body: body}, s)
			if err != nil && !errors.Is(err, ErrTruncated) {
				t.Fatalf("Extract: %v", err)
			}
			if f.Commands == nil || f.Errors == nil || f.Models == nil || f.GPUs == nil {
				t.Errorf("nil slices in facts: %+v", f)
			}
		})
	}
}

func TestVersionRanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rng, v string
		in     bool
	}{
		{"<0.29.0", "0.24.0+rocm725", true},
		{"<0.29.0", "0.29.0", false},
		{">=0.8.0, <0.9.0", "0.8.5.post1", true},
		{">=0.8.0, <0.9.0", "0.9.0rc1", true}, // a pre-release sorts before its release
		{"==0.6", "0.6.3", true},
		{">=0.6.3, <=0.8.1", "0.8.0rc3.dev31+g61f41218", true},
		{"", "1.0", true},
	}
	for _, tt := range tests {
		r, err := ParseRange(tt.rng)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ParseVersion(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Contains(v); got != tt.in {
			t.Errorf("%q contains %q = %v, want %v", tt.rng, tt.v, got, tt.in)
		}
	}
	if _, err := ParseVersion("latest"); err == nil {
		t.Error(`ParseVersion("latest") succeeded`)
	}
}

func TestScriptRunInASentence(t *testing.T) {
	t.Parallel()
	f, err := Extract(Post{Body: "I installed it and ran bash scripts/run_for_7B_in_Linux_or_WSL.sh, which fails with:\nValueError: boom"}, vllmSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Commands) != 1 || f.Commands[0].String() != "bash scripts/run_for_7B_in_Linux_or_WSL.sh" {
		t.Errorf("commands = %+v", f.Commands)
	}
}

// TestPlatformNeedlesAreSound checks the literal prefilter of every
// platform signal: each match of the signal's regexp, on the test posts and
// on phrases written to hit every alternative, holds one of its needles, so
// skipping the regexp when no needle is present never changes the result.
func TestPlatformNeedlesAreSound(t *testing.T) {
	t.Parallel()
	texts := []string{
		"torch 2.5.1+rocm6.2 from rocm/vllm, ROCM used to build PyTorch: 6.2",
		"torch 2.5.1+cu124, CUDA used to build PyTorch: 12.4",
		"vllm 0.6.3+cpu with VLLM_TARGET_DEVICE=cpu in the vllm-cpu image",
		"torch 2.5+xpu on an Intel(R) Arc A770 and Intel Data Center GPU Max, XPU",
		"torch 2.6.0+hpu_1.21.3, HPU devices: 8x HL-205, HPU driver version: 1.19.1, habana_frameworks, HABANA_VISIBLE_DEVICES=all, docker run --runtime=habana, device_config=hpu",
		"OS                           : macOS 15.4.1 (arm64)\nPython platform              : macOS-15.4.1-arm64-arm-64bit",
		"Google TPU v5e, tpu v4 pods, a TPU",
		"Neuron SDK on Inferentia and Trainium: inf2.xlarge, trn1.32xlarge",
		"torch_npu and torch-npu, vllm-ascend and vllm_ascend, npu-smi, ASCEND_RT_VISIBLE_DEVICES, PYTORCH_NPU_ALLOC_CONF, Platform plugin ascend is activated, NPU out of memory, 昇腾910B3",
		"CPU-only box, running on my CPU with no GPUs, without a GPU, the CPU backend, --device cpu, cpu device, supports CPU, for cpu, CPU inference",
		"CUDA error, cuda",
		"GPU Topology:\n        GPU0    GPU1\nGPU0     X      NV12\nGPU1    NV12     X",
	}
	for _, p := range testPosts(t) {
		texts = append(texts, p.body)
	}
	matched := map[int]bool{}
	for _, text := range texts {
		for i, s := range platformSignals {
			if s.needles == nil {
				continue
			}
			for _, m := range s.re.FindAllString(text, -1) {
				matched[i] = true
				if !containsAny(strings.ToLower(m), s.needles) {
					t.Errorf("signal %d (%s): match %q holds none of %q", i, s.platform, m, s.needles)
				}
			}
		}
	}
	for i, s := range platformSignals {
		if s.needles != nil && !matched[i] {
			t.Errorf("signal %d (%s) matched nothing: add a phrase for it", i, s.platform)
		}
	}
}

// TestMarkdownIsReadInBoundedPieces pins what keeps hostile Markdown
// linear: no piece outside a fence is longer than twice mdPieceMax (a
// piece is cut once it reaches mdPieceMax, and a line is at most that), fenced code
// stays whole, and quote nesting is capped.
func TestMarkdownIsReadInBoundedPieces(t *testing.T) {
	t.Parallel()
	for name, body := range hostileShapes() {
		for _, p := range markdownPieces(capQuoteDepth(body)) {
			if len(p) > 2*mdPieceMax+1 && !strings.HasPrefix(strings.TrimSpace(p), "```") {
				t.Errorf("%s: a piece of %d bytes", name, len(p))
			}
		}
	}
	fenced := "intro\n\n```\n" + strings.Repeat("log line\n", 2000) + "```\n\nafter"
	found := false
	for _, p := range markdownPieces(fenced) {
		if strings.Contains(p, "```\nlog line") && strings.Contains(p, "log line\n```") {
			found = true
		}
	}
	if !found {
		t.Error("a fenced block was cut")
	}
	if got := capQuoteDepth(strings.Repeat(">", 100) + " x\n"); strings.Count(got, ">") != maxQuoteDepth || !strings.HasSuffix(got, " x\n") {
		t.Errorf("capQuoteDepth = %q", got)
	}
}

// TestUnstrong: bold markers around words of a prose line go, as
// rendering takes them; asterisks that are not such markers stay.
func TestUnstrong(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"vllm serve **Qwen/Qwen3-8B** --max-model-len 4096", "vllm serve Qwen/Qwen3-8B --max-model-len 4096"},
		{"**a** **b**, (**c**).", "a b, (c)."},
		{"**two words** in bold", "two words in bold"},
		{"llm = LLM(**engine_args)", "llm = LLM(**engine_args)"},
		{"2**10 tokens and 4096*2", "2**10 tokens and 4096*2"},
		{"line 242, in __init__", "line 242, in __init__"},
		{"** not bold **", "** not bold **"},
		// An option in italics, bold or not, with its value.
		{"vllm serve m --port 8899 **_--max-num-seqs 1_**", "vllm serve m --port 8899 --max-num-seqs 1"},
		{"* **_--name sandbox.local_** names the container", "* --name sandbox.local names the container"},
		{"set _--enforce-eager_.", "set --enforce-eager."},
		{"my_var_-x and _private_ stay", "my_var_-x and _private_ stay"},
	} {
		if got := unstrong(tt.in); got != tt.want {
			t.Errorf("unstrong(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGluedCode: a fence's info string is code when it is more than a
// language hint and its attributes.
func TestGluedCode(t *testing.T) {
	t.Parallel()
	for info, want := range map[string]string{
		"":                        "",
		"python":                  "",
		"c++":                     "",
		"shell-session":           "",
		"{r}":                     "",
		"vllm":                    "", // a word alone is a hint, as Markdown readers take it
		"shell {linenos=true}":    "",
		`text title="log.txt"`:    "",
		"js {1,3-5}":              "",
		"python .numberLines":     "",
		`vllm serve "your model"`: `vllm serve "your model"`,
		"docker run --runtime nvidia --gpus all \\":                    "docker run --runtime nvidia --gpus all \\",
		"(main) root@C.33754465:/$ vllm serve ./workspace --port 8000": "(main) root@C.33754465:/$ vllm serve ./workspace --port 8000",
		"$ python -m vllm.entrypoints.openai.api_server":               "$ python -m vllm.entrypoints.openai.api_server",
		"Traceback (most recent call last):":                           "Traceback (most recent call last):",
		"export CUDA_VISIBLE_DEVICES=0,1":                              "export CUDA_VISIBLE_DEVICES=0,1",
		"INFO 04-21 00:33:45 [loggers.py:87] Engine 000":               "INFO 04-21 00:33:45 [loggers.py:87] Engine 000",
	} {
		if got := gluedCode(info); got != want {
			t.Errorf("gluedCode(%q) = %q, want %q", info, got, want)
		}
	}
}

// TestGluedFenceReadsAsCode: the command typed on a fence's opening
// line is read, in a fence and in a fence a raw HTML block took in.
func TestGluedFenceReadsAsCode(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	for _, body := range []string{
		"I start it with:\n```vllm serve Qwen/Qwen3-8B --max-model-len 8192\nValueError: bad\n```\n",
		"<summary>Log</summary>\n```vllm serve Qwen/Qwen3-8B --max-model-len 8192\nValueError: bad\n```\n",
	} {
		f, _ := Extract(Post{Body: body}, s)
		if len(f.Commands) == 0 || f.Commands[0].Flags["--max-model-len"] != "8192" {
			t.Errorf("%q: commands %+v", body, f.Commands)
		}
	}
}
