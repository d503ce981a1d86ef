package knowledge

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestReadingClasses pins one example of each class of input the
// extractors handle; the dev cases and the metamorphic suite measure the
// classes on real posts.
func TestReadingClasses(t *testing.T) {
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	tests := []struct {
		name, title, body string
		// models, errors, commands and gpus, when set, are the models
		// the post must name, its errors ("Type: message"), its command
		// lines (Command.String) and its GPUs, in order; an empty, not
		// nil, list says there are none.
		models, errors, commands []string
		gpus                     []GPU
		// versions, when set, are versions the post must state (others
		// may be read too).
		versions map[string]string
		// platform, when set, is the platform the post must read
		// ("none" for no platform).
		platform string
		check    func(t *testing.T, f Facts)
	}{
		{
			name: "command and error inside one sentence",
			body: "Running vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 131072 gives ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (52000). Try increasing gpu_memory_utilization or decreasing max_model_len when initializing the engine. vllm 0.8.5",
			check: func(t *testing.T, f Facts) {
				c := f.MainCommand(s)
				if c == nil || c.String() != "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len=131072" {
					t.Errorf("command = %v", c)
				}
				if len(f.Errors) == 0 || f.Errors[0].Type != "ValueError" {
					t.Errorf("errors = %+v", f.Errors)
				}
				if f.Versions["vllm"] != "0.8.5" {
					t.Errorf("versions = %v", f.Versions)
				}
			},
		},
		{
			// A command a terminal wrapped inside a word, copied with the
			// wrap's newline (tmux, screen, web consoles): inside an
			// option (vllm-project/vllm#35603, twice) and inside a value
			// (#1215). A client call or a second program on the next line
			// is a command of its own (#17637, #2248, #4412).
			name: "command wrapped by a terminal inside a word",
			body: "```\nvllm serve --model /data/model/Qwen3-VL-Embedding-8B --task embedding --hos\nt 0.0.0.0 --port 8011 --max-model-len 8192 --dtype bfloat16 --gpu-memory-utili\nzation 0.85 --enforce-eager\n```\n\n```\npython -m vllm.entrypoints.openai.api_server --served-model-name gpt-4 --model TheBlok\ne/WizardLM-13B-V1.2-AWQ --quantization awq\n```\n\n```\nvllm serve mistralai/Ministral-8B-Instruct-2410 --max-model-len 4096 --enforce-eager\ncurl -s -X POST http://localhost:8000/v1/completions --data-binary @req.json\n```\n",
			commands: []string{
				"vllm serve --dtype=bfloat16 --enforce-eager --gpu-memory-utilization=0.85 --host=0.0.0.0 --max-model-len=8192 --model=/data/model/Qwen3-VL-Embedding-8B --port=8011 --task=embedding",
				"vllm serve --model=TheBloke/WizardLM-13B-V1.2-AWQ --quantization=awq --served-model-name=gpt-4",
				"vllm serve mistralai/Ministral-8B-Instruct-2410 --enforce-eager --max-model-len=4096",
			},
		},
		{
			// The same wrap under the shell prompt and the environment
			// assignments the terminal showed before the command
			// (vllm-project/vllm#15016, a venv prompt; #16777, a root
			// prompt and CUDA_VISIBLE_DEVICES).
			name: "command wrapped by a terminal after a prompt",
			body: "```\n(venv-llm) azureuser@a100gpu:/home/user/llm/src/benchmark/vllm$ vllm serve google/gemma-3-12b-it --chat-template /home/user/t.jinja --gpu-memory-utiliza\ntion 0.9 --max_model_len 8192\nINFO 03-18 08:50:29 [__init__.py:256] Automatically detected platform cuda.\n```\n\n```shell\nroot@6aa49b1572ea:~/llm/cohere/c4ai-command-a-03-2025# CUDA_VISIBLE_DEVICES=1,2,3  vllm serve /root/llm/cohere/c4ai-command-a-03-2025 -tp=2 --gpu-memory-utilization 0.95 --sw\nap-space 8 --max-num-seqs=1\n```\n",
			commands: []string{
				"vllm serve google/gemma-3-12b-it --chat-template=/home/user/t.jinja --gpu-memory-utilization=0.9 --max-model-len=8192",
				"vllm serve /root/llm/cohere/c4ai-command-a-03-2025 --gpu-memory-utilization=0.95 --max-num-seqs=1 --swap-space=8 --tensor-parallel-size=2",
			},
		},
		{
			// PyTorch's "cuda" names any GPU, AMD's too (torch.cuda.*,
			// .to("cuda"): vllm-project/vllm#615, #1654, #9540, #1265),
			// and vLLM's CUDA graphs run on every GPU platform (#1926,
			// #23184, #16716): neither is a CUDA platform. A stated one
			// still is.
			name: "PyTorch's cuda and CUDA graphs name no platform",
			check: func(t *testing.T, _ Facts) {
				for body, want := range map[string]string{
					"```\ntorch.cuda.empty_cache()\nx = x.to(\"cuda\")\n```\nCUDA graph capturing takes ten minutes.": "",
					"[Bug]: CUDA Graph Capturing time is too long":                                                    "",
					"```\nCUDA_VISIBLE_DEVICES=0 python run.py\ntorch.cuda.empty_cache()\n```":                        "cuda",
				} {
					f, _ := Extract(Post{Body: body}, s)
					if f.Platform != want {
						t.Errorf("%q: platform %q, want %q", body, f.Platform, want)
					}
				}
			},
		},
		{
			// A release named alone in a title is the main package's
			// (vllm-project/vllm#2345, #13394, #15085, #26166); a
			// comparison or a bound is not the poster's (#25318, #7936,
			// #32714), nor a release after another package's name.
			name: "bare release in a title",
			check: func(t *testing.T, _ Facts) {
				checkTitles(t, s, "vllm", map[string]string{
					"memory leak in v0.2.7":    "0.2.7",
					"[Bug]: 0.8.0 ram leakage": "0.8.0",
					// A release as a title's tag (vllm-project/vllm#3155,
					// #21840, #11392).
					"[v0.4.0] Release Tracker":                                      "0.4.0",
					"[Bug]: [v0.10.0][Critical] Tools not invoked with tool_choice": "0.10.0",
					"[Bug]:Lora Adapters doesn't work in version 0.7.2, even so":    "0.7.2",
					"[Performance]: Mistral Small 3.2 throughput v0.10.2":           "0.10.2",
					// Two bare releases compare; with an image's tag the
					// title names the one it runs (TestReadingClasses'
					// "image tag in a title").
					"[Bug]: Running Whisper fails on v0.10.2 (Works Fine on v0.10.1)": "",
					"[Bug]: crashes when the version is higher than 0.5.3.":           "",
					"[Bug]: Sleep is broken since 0.14.0":                             "",
					"[Performance]: Regression between 0.10.2 and 0.12.0":             "",
					"Update release pipeline post PyTorch 2.8.0 update":               "",
					"[Bug]: Claude Code CLI >= 2.1.154 breaks validation":             "",
					"[Bug]: sm_120 support appears to be missing in pre-built whl":    "",
				}, func(f Facts) string { return f.Versions["vllm"] })
			},
		},
		{
			// A keyword argument commented out of a Python call is not set
			// (vllm-project/vllm#26006, #40153; vllm-dev C1-028).
			name: "commented-out keyword arguments",
			body: "```python\nllm = LLM(\n    model=\"Qwen/Qwen2.5-14B-Instruct-1M\",\n    # model=\"Qwen/Qwen2.5-14B-Instruct\",\n    max_num_seqs=1,\n    # enforce_eager=True,  # V100\n)\n```",
			check: func(t *testing.T, f Facts) {
				c := f.MainCommand(s)
				if c == nil || c.Flags["--model"] != "Qwen/Qwen2.5-14B-Instruct-1M" || c.Flags["--max-num-seqs"] != "1" {
					t.Fatalf("main command = %+v", c)
				}
				if _, ok := c.Flags["--enforce-eager"]; ok {
					t.Errorf("--enforce-eager set by a comment: %v", c.Flags)
				}
			},
		},
		{
			// Chinese text runs into a model's name without a space
			// (vllm-project/vllm#16378, #19786).
			name:   "model name after Chinese text",
			title:  "[Doc]: vllm部署Gemma-3-27b问题",
			body:   "使用vllm0.7.3对Qwen2.5VL-7b有时会报错",
			models: []string{"Gemma-3-27b", "Qwen2.5VL-7b"},
		},
		{
			// A size and a variant written after a model's family and
			// generation are part of its name (OpenRLHF/OpenRLHF#336 =
			// vllm-dev C1-010, vllm-project/vllm#15825, #19638, #17739,
			// #13828); an English word after it is not.
			name:   "model size and variant after the name",
			title:  "[Bug]: Gemma 3 27B IT Model Doesn't Read Image",
			body:   "while trying to run Llama-3 70B PPO.\nAlso Jamba 1.6 Large with Tensor Parallelism, and Qwen3 30b a3b awq.\nThe Qwen2.5 it works with is fine.",
			models: []string{"Gemma 3 27B IT", "Llama-3 70B", "Qwen3 30b a3b awq", "Qwen2.5", "Jamba 1.6 Large"},
		},
		{
			// A release's variant written after a space: DeepSeek's
			// "Lite" (vllm-project/vllm#15604; six more corpus posts write
			// DeepSeek-V2-Lite) and "Exp" (#27259), the abbreviation only
			// as a name writes it.
			name:   "variant words Lite and Exp after the name",
			title:  "[Bug]: Failed to run deepseek v2 lite model with tp = 8",
			body:   "The same happens with DeepSeek v3.2 Exp on 8 GPUs, and with qwen3 exp settings.",
			models: []string{"deepseek v2 lite", "qwen3", "DeepSeek v3.2 Exp"},
		},
		{
			// The error a title names comes before another the log printed
			// first (vllm-project/vllm#9624, #9712, #9713).
			name:  "the title's error first",
			title: "[Usage]: ValueError: Model architectures ['LlamaForCausalLM'] are not supported for now.",
			body: "ERROR 10-26 registry.py:267] subprocess.CalledProcessError: Command '['python', '-m', 'vllm.model_executor.models.registry']' returned non-zero exit status 1.\n" +
				"ValueError: Model architectures ['LlamaForCausalLM'] are not supported for now. Supported architectures: dict_keys([...])",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) < 2 || f.Errors[0].Type != "ValueError" || f.Errors[1].Type != "subprocess.CalledProcessError" {
					t.Errorf("errors = %+v", f.Errors)
				}
				if !strings.Contains(f.Errors[0].Message, "Supported architectures") {
					t.Errorf("the body's fuller message should be kept: %q", f.Errors[0].Message)
				}
			},
		},
		{
			// A script run by python names its model with --model, a
			// local path as well as an org/name id (vllm-project/vllm#30629,
			// #31442, #31447).
			name:   "a script's model flag",
			body:   "```\npython benchmarks/kernels/benchmark_moe.py \\\n  --model /path/to/ZhipuAI/GLM-4.6-FP8 \\\n  --tp-size 2 --tune\n```",
			models: []string{"/path/to/ZhipuAI/GLM-4.6-FP8"},
		},
		{
			// The server started, then its benchmark client with more
			// flags (vllm-project/vllm#359, #4412, #17202): the post is
			// about the server.
			name: "server before its benchmark client",
			body: "```\nCUDA_VISIBLE_DEVICES=7 python -m vllm.entrypoints.api_server --model llama-7b-hf/ --port 9009\npython benchmark_serving.py --backend vllm --tokenizer ./llama-7b-hf/ --dataset sharegpt.json --request-rate 200 --host 127.0.0.1 --port 9009\n```",
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.Via == "" || c.Flags["--model"] != "llama-7b-hf/" {
					t.Errorf("main command = %+v, want the api_server", c)
				}
			},
		},
		{
			// A script's or a template's path is no model, whichever rule
			// proposes it (vllm-project/vllm#7160, #16341, #6867).
			name:   "scripts and templates are no models",
			body:   "```\n$ python examples/bug_example.py\n```\n```python\nchat = OpenAIServingChat(chat_template=\"examples/tool_chat_template_llama3.1_json.jinja\")\nllm = LLM(model=\"facebook/opt-125m\")\n```",
			models: []string{"facebook/opt-125m"},
		},
		{
			// What python runs is a script, though an excerpt cut its
			// extension (vllm-project/vllm#2542): python has no model flag.
			name:   "python's first argument is no model",
			body:   "```\npython benchmarks/benchmark_latency --input-len 32\n```",
			models: []string{},
		},
		{
			// A family the title names alone is the model when nothing
			// else names one (vllm-project/vllm#3690, #2542, #14406, #3849;
			// vllm-dev B024), a title's tag too (#22386, #25694, #23934);
			// not inside a longer name. The sizes and variants written
			// after it are part of it, as after any name ("GPT OSS 120B",
			// #22403; "DeepSeek Coder", #4030; "Mistral Small", #16292,
			// #17557, #26166), a quantization's name among them ("Command-R
			// GPTQ", #3849, whose corpus label names Command-R alone); a
			// family with a dash is read spaced too (gpt-oss: #22403,
			// #22515, #22519), the longer family winning at one place.
			name: "a family alone in the title",
			check: func(t *testing.T, _ Facts) {
				checkTitles(t, s, "model", map[string]string{
					"[New Model]: Jamba (MoE Mamba from AI21)":                     "Jamba",
					"[Bug]: pipeline-parallel not working properly with QwQ model": "QwQ",
					"[Bugfix] Added Command-R GPTQ support":                        "Command-R GPTQ",
					"[Bug]: For GPT OSS 120B: Expected 2 output messages":          "GPT OSS 120B",
					"Performance is poor with the DeepSeek Coder Model":            "DeepSeek Coder",
					"[Bug]: Mistral Small fails with tool calls":                   "Mistral Small",
					// Glued, with the "+" of its release (#3829, #3920), and
					// gpt-oss glued (#32895).
					"[Bug]: Can't load CommandR+":                          "CommandR+",
					"[Bug]: new 0.14 upstream gptoss hard error TP=1?":     "gptoss",
					"chat_template problem with mistral":                   "mistral",
					"[gpt-oss] tool parser supports for /chat/completions": "gpt-oss",
					"[Bug]: CPU Backend with GPT-OSS":                      "GPT-OSS",
					"Add Support for Llama-cpp-python Grammar":             "",
					// Not "Llama" from inside the longer name, which is
					// itself the model (its parameter count says so).
					"[Feature]: For Meta-Llama-3.1-70B-Instruct model, no usage info": "Meta-Llama-3.1-70B-Instruct",
				}, func(f Facts) string {
					if len(f.Models) == 0 {
						return ""
					}
					return f.Models[0]
				})
				f, err := Extract(Post{Title: "Fused MOE for Mixtral", Body: "vllm serve mistralai/Mixtral-8x7B-v0.1"}, s)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(f.Models, []string{"mistralai/Mixtral-8x7B-v0.1"}) {
					t.Errorf("a named model wins over the title's family: %q", f.Models)
				}
			},
		},
		{
			// An exception logged as its repr (vllm-project/vllm#11312,
			// #10494, #5501).
			name: "exception logged as its repr",
			body: "ERROR 12-18 22:57:54 engine.py:135] IndexError('Error in model execution (input dumped to /tmp/x.pkl): tuple index out of range')",
			errors: []string{
				"IndexError: Error in model execution (input dumped to /tmp/x.pkl): tuple index out of range",
			},
		},
		{
			// From a warning it comes after the error that stopped
			// something, here the title's (#6269).
			name:  "exception logged as its repr in a warning",
			title: "TypeError: Can't instantiate abstract class NeuronWorker",
			body:  "WARNING 07-09 19:46:51 _custom_ops.py:14] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")\nERROR 12-18 22:57:54 engine.py:135] IndexError('Error in model execution (input dumped to /tmp/x.pkl): tuple index out of range')",
			errors: []string{
				"TypeError: Can't instantiate abstract class NeuronWorker",
				"IndexError: Error in model execution (input dumped to /tmp/x.pkl): tuple index out of range",
				"ModuleNotFoundError: No module named 'vllm._C'",
			},
		},
		{
			// ptxas, the CUDA assembler Triton runs, reports its own
			// errors; its closing "aborted due to errors" only wraps
			// them (vllm-project/vllm#15619's log).
			name: "ptxas errors in an engine log",
			body: "```\nERROR 03-27 12:41:06 [core.py:344] ptxas /tmp/tmp6qa78v4o.ptx, line 657; error   : Modifier '.evict_last' cannot be combined with modifier '.cg'\nERROR 03-27 12:41:06 [core.py:344] ptxas fatal   : Ptx assembly aborted due to errors\nERROR 03-27 12:41:06 [core.py:344] Repro command: /root/lib/python3.12/site-packages/triton/backends/nvidia/bin/ptxas -lineinfo -v --gpu-name=sm_80 /tmp/tmp6qa78v4o.ptx -o /tmp/tmp6qa78v4o.ptx.o\n```",
			errors: []string{
				"ptxas-error: Modifier '.evict_last' cannot be combined with modifier '.cg'",
				"ptxas-error: Ptx assembly aborted due to errors",
			},
		},
		{
			// PyTorch's glog head and torch.compile's frame id before
			// the line (NixOS/nixpkgs#406675, a Blackwell card).
			name: "PyTorch's log head",
			body: "```\n[rank0]:E0701 14:28:21.083000 911603 torch/_inductor/runtime/triton_heuristics.py:539] [0/0] ptxas /tmp/tmpmwke15zw.ptx, line 6; error   : PTX .version 8.4 does not support .target sm_120a\nE0829 03:48:34.301000 1991 torch/_inductor/runtime/triton_heuristics.py:553] [0/1] NameError('_triton_helper_fn_add0 is not defined')\n```",
			errors: []string{
				"NameError: _triton_helper_fn_add0 is not defined",
				"ptxas-error: PTX .version 8.4 does not support .target sm_120a",
			},
		},
		{
			// A Ray Data worker named by its stage, and Ray's note that
			// several workers printed the line (ray-project/ray#53825).
			name: "Ray Data worker prefix and repeat note",
			body: "```\n(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, ip=240.248.0.198) ERROR 08-28 03:22:49 [core.py:634] Traceback (most recent call last):\n(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, ip=240.248.0.198) ERROR 08-28 03:22:49 [core.py:634]   File \"/usr/local/lib/python3.12/site-packages/vllm/v1/engine/core.py\", line 625, in run_engine_core\n(MapWorker(MapBatches(vLLMEngineStageUDF)) pid=589, ip=240.248.0.198) ERROR 08-28 03:22:49 [core.py:634] ValueError: Free memory on device is less than desired GPU memory utilization [repeated 3x across cluster]\n```",
			errors: []string{
				"ValueError: Free memory on device is less than desired GPU memory utilization",
			},
		},
		{
			// A Ray Serve replica named by application and deployment
			// (ray-project/ray#54812's LLM deployment).
			name:   "Ray Serve replica prefix",
			body:   "```\n(ServeReplica:llama3-app:LLMDeploymentllama-3-8B-instruct pid=12249, ip=10.0.155.99) ERROR 07-21 18:04:40 [core.py:515] Traceback (most recent call last):\n(ServeReplica:llama3-app:LLMDeploymentllama-3-8B-instruct pid=12249, ip=10.0.155.99) ERROR 07-21 18:04:40 [core.py:515]   File \"/home/ray/anaconda3/lib/python3.11/site-packages/vllm/v1/engine/core.py\", line 506, in run_engine_core\n(ServeReplica:llama3-app:LLMDeploymentllama-3-8B-instruct pid=12249, ip=10.0.155.99) ERROR 07-21 18:04:40 [core.py:515] OSError: You are trying to access a gated repo.\n```",
			errors: []string{"OSError: You are trying to access a gated repo."},
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || !slices.Contains(f.Errors[0].Packages, "vllm") {
					t.Errorf("errors = %+v, want the traceback's frames read", f.Errors)
				}
			},
		},
		{
			// The Docker daemon refusing to start a container: no GPU
			// runtime (setup notes of many projects), an entrypoint that
			// is no program (LMCache/LMCache#906).
			name: "the Docker daemon's errors",
			body: "```\n$ docker run --gpus all vllm/vllm-openai:latest --model m/x\ndocker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n```\n```\nError response from daemon: OCI runtime create failed: runc create failed: unable to start container process: exec: \"vllm\": executable file not found in $PATH: unknown\n```",
			errors: []string{
				`docker-error: could not select device driver "" with capabilities: [[gpu]]`,
				`docker-error: OCI runtime create failed: runc create failed: unable to start container process: exec: "vllm": executable file not found in $PATH: unknown`,
			},
		},
		{
			// argparse refusing a positional argument, the subcommand:
			// serve left out before the model, a TRL too old for
			// vllm-serve (huggingface/trl#3139).
			name: "a CLI refusing its subcommand",
			body: "```\nvllm: error: argument subparser: invalid choice: 'Qwen/Qwen2.5-7B-Instruct' (choose from chat, complete, serve, bench, collect-env, run-batch)\n```\n`TRL CLI: error: argument command: invalid choice: 'vllm-serve' (choose from 'chat', 'dpo', 'env', 'grpo', 'kto', 'sft')`",
			errors: []string{
				"usage-error: argument subparser: invalid choice",
				"usage-error: argument command: invalid choice",
			},
		},
		{
			// vLLM-Omni's stage head before its log lines
			// (gpustack/gpustack#4363); a traceback through the
			// project's own plugin packages (vllm_omni, vllm_ascend) is
			// the project's failure, not another program's.
			name:   "vLLM-Omni's stage head and the project's plugin frames",
			title:  "vllm-ascend 0.14.1 crashes when deploying an embedding model",
			body:   "```\n[Stage-0] ERROR 01-30 18:03:36 [diffusion_worker.py:344] Traceback (most recent call last):\n[Stage-0] ERROR 01-30 18:03:36 [diffusion_worker.py:344]   File \"/usr/local/python3.11.14/lib/python3.11/site-packages/vllm_omni/diffusion/layers/adalayernorm.py\", line 88, in forward_npu\n[Stage-0] ERROR 01-30 18:03:36 [diffusion_worker.py:344]     output = torch_npu.npu_layer_norm_eval(\n[Stage-0] ERROR 01-30 18:03:36 [diffusion_worker.py:344] RuntimeError: npu_layer_norm_eval failed\n```",
			errors: []string{"RuntimeError: npu_layer_norm_eval failed"},
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || !slices.Contains(f.Errors[0].Packages, "vllm_omni") {
					t.Errorf("errors = %+v, want the traceback's frames read", f.Errors)
				}
				if f.ForeignError {
					t.Error("a traceback through vllm_omni read as another program's failure")
				}
			},
		},
		{
			// The CPU backend's own variables set before the command
			// (vllm-project/vllm#21706; vLLM's CPU installation guide).
			name:     "the CPU backend's variables",
			body:     "Running cmd:\nVLLM_CPU_OMP_THREADS_BIND=\"36-47\" VLLM_USE_V1=1 VLLM_CPU_KVCACHE_SPACE=32 vllm serve ~/Qwen3-Reranker-8B/ --port 8080 --trust-remote-code",
			platform: "cpu",
		},
		{
			// A script run on a prose line of its own with its options is
			// one command; the script's name alone adds no flagless copy
			// of it (vllm-dev C3-027, corpus #6631, a benchmark post).
			name:     "a script run with its options on a prose line",
			body:     "Benchmark script performance:\n\nCUDA_VISIBLE_DEVICES=1 python3 benchmark_throughput.py --dataset sharegpt.json --model /work/llama-2-7b --gpu-memory-utilization 0.95\n\nThe numbers are low.",
			commands: []string{"python3 benchmark_throughput.py --dataset=sharegpt.json --gpu-memory-utilization=0.95 --model=/work/llama-2-7b"},
		},
		{
			// A tool's command that starts the engine, named inside a
			// sentence as the engine's own command is
			// (huggingface/trl#3304).
			name:     "a tool's command inside a sentence",
			body:     "when running: trl vllm-serve --model Qwen/Qwen2.5-72B --tensor_parallel_size 8\n\nGot an error",
			commands: []string{"vllm serve --model=Qwen/Qwen2.5-72B --tensor-parallel-size=8"},
		},
		{
			// Ray's head over a task's traceback names the cause's class;
			// the task's frames and its exception line follow, or the
			// paste ends before it (corpus #649, verl-project/verl#302).
			name: "Ray's task error heads",
			body: "```\nray.exceptions.RayTaskError(AssertionError): ray::RayWorker.execute_method() (pid=2394870, ip=10.1.1.242, actor_id=aee050fd938cd8f3d6997a6401000000, repr=<vllm.engine.ray_utils.RayWorker object at 0x7efe5659a9a0>)\n  File \"/usr/lib/python3/site-packages/vllm/worker/worker.py\", line 67, in init_model\n```\n```\n(main_task pid=1748945) Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::WorkerDict.actor_rollout_generate_sequences() (pid=1751030, ip=10.65.194.91)\n(main_task pid=1748945)   File \"miniconda/envs/verl/lib/python3.10/site-packages/vllm/entrypoints/llm.py\", line 1244, in wake_up\n(main_task pid=1748945) RuntimeError: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:62\n```",
			check: func(t *testing.T, f Facts) {
				var classes []string
				for _, e := range f.Errors {
					if e.Type == "AssertionError" || e.Type == "RuntimeError" {
						classes = append(classes, e.Type)
						if !slices.Contains(e.Packages, "vllm") {
							t.Errorf("%s: packages = %v, want the task's frames read", e.Type, e.Packages)
						}
					}
				}
				if len(classes) != 2 {
					t.Errorf("errors = %+v, want the AssertionError the head names and the task's RuntimeError", f.Errors)
				}
			},
		},
		{
			// Chinese writes no space before the class it names
			// (hiyouga/LlamaFactory#8022's title; "报错RuntimeError: …" in
			// notes of many projects).
			name:  "a class glued to the Chinese words before it",
			title: "使用vllm推理Kimi_vl时提示ValueError: `limit_mm_per_prompt` is only supported for multimodal models.",
			body:  "运行时报错RuntimeError: No CUDA GPUs are available",
			errors: []string{
				"ValueError: `limit_mm_per_prompt` is only supported for multimodal models.",
				"RuntimeError: No CUDA GPUs are available",
			},
		},
		{
			// Xinference's actors put their address before the message
			// (xorbitsai/inference#3054; its users' posts and notes).
			name: "an actor's address before the message",
			body: "```\nValueError: [address=0.0.0.0:43315, pid=822191] You set image=2 (or defaulted to 1) in `--limit-mm-per-prompt`, but passed 3 image items in the same prompt.\n```\n```\nTypeError: [address=0.0.0.0:45641, pid=2189] AsyncEngineArgs.__init__() got an unexpected keyword argument 'swap_space'\n```",
			errors: []string{
				"ValueError: You set image=2 (or defaulted to 1) in `--limit-mm-per-prompt`, but passed 3 image items in the same prompt.",
				"TypeError: AsyncEngineArgs.__init__() got an unexpected keyword argument 'swap_space'",
			},
		},
		{
			// A base image's tag names the release and then the build's
			// flavour (vllm-project/vllm#2047's and #23655's Dockerfiles;
			// PyTorch's images in many projects').
			name:     "image tags with a flavour after the release",
			body:     "```\nFROM nvidia/cuda:12.4.0-devel-ubuntu22.04\nFROM pytorch/pytorch:2.3.1-cuda12.1-cudnn8-devel\n```",
			versions: map[string]string{"cuda": "12.4.0", "torch": "2.3.1"},
		},
		{
			// "Installed" says which of a package's versions, as "latest"
			// does (vllm-project/vllm#5640 on a Jetson board).
			name:     "a qualifier before version is no package",
			body:     "vllm tries to use PyTorch version 2.3.0 in setup.py. However, my currently installed version is 2.1.0a0+41361538.nv23.06, the latest for Jetpack 5.1.2.",
			versions: map[string]string{"torch": "2.3.0"},
			check: func(t *testing.T, f Facts) {
				if v, ok := f.Versions["installed"]; ok {
					t.Errorf("versions read %q for \"installed\"", v)
				}
			},
		},
		{
			// pip's failure before a build starts, asking the package
			// what it needs (vllm-project/vllm#3002 and #7575,
			// dusty-nv/jetson-inference#1872, all on Jetson boards).
			name:   "pip failing to get a build's requirements",
			body:   "when I run pip install vllm:\n```\n  × Getting requirements to build wheel did not run successfully.\n  │ exit code: 1\n  ╰─> [19 lines of output]\n```",
			errors: []string{"pip-error: Getting requirements to build wheel did not run successfully"},
		},
		{
			// Commands a traced script printed as it ran them ("set -x"):
			// vllm-project/vllm#1282's "+ python app.py …", a deployment's
			// "+ python3 -m vllm.entrypoints.openai.api_server …" under
			// its entrypoint's "++ nproc".
			name:     "xtrace's mark before a command",
			body:     "```\n+ python app.py --host 0.0.0.0 --port 5085 --model wasertech/assistant-llama2-7b-chat-awq --quantization awq\nDownloading config.json\n```\n```\n++ nproc\n+ exec python3 -m vllm.entrypoints.openai.api_server --model /home/vllm/model/Qwen1.5-72B-Chat-GPTQ-Int4 --port 8003\n```",
			commands: []string{"python app.py --host=0.0.0.0 --model=wasertech/assistant-llama2-7b-chat-awq --port=5085 --quantization=awq", "vllm serve --model=/home/vllm/model/Qwen1.5-72B-Chat-GPTQ-Int4 --port=8003"},
		},
		{
			// pydantic's error line pasted without the ValidationError
			// head above it (vllm-project/vllm#28857 after each command
			// it tried; a GPTQ write-up), and in a code span
			// (vllm-project/vllm#20253).
			name: "pydantic error line without its head",
			body: "vllm serve gaunernst/gemma-3-27b-it-int4-awq -tp 2 --dtype bfloat16\nValue error, torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16] [type=value_error, input_value=ArgsKwargs((), {'model_co...additional_config': {}}), input_type=ArgsKwargs]\n(APIServer pid=4185) For further information visit https://errors.pydantic.dev/2.11/v/value_erro\n\nCan you support it? `Value error, GGUF model with architecture qwen2vl is not supported yet. [type=value_error, input_value=ArgsKwargs((), {'model': ...}), input_type=ArgsKwargs]`",
			errors: []string{
				"pydantic_core._pydantic_core.ValidationError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16]",
				"pydantic_core._pydantic_core.ValidationError: GGUF model with architecture qwen2vl is not supported yet.",
			},
		},
		{
			// Under its head, each error line is the head's: the
			// first is the message, the rest add no error of their own;
			// a line that only says "Value error," in a sentence, with
			// no trailer, is no pydantic error.
			name:   "pydantic error lines under their head",
			body:   "```\npydantic_core._pydantic_core.ValidationError: 2 validation errors for ModelConfig\n  Value error, first problem [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n    For further information visit https://errors.pydantic.dev/2.11/v/value_error\n  Value error, second problem [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n    For further information visit https://errors.pydantic.dev/2.11/v/value_error\n```\nValue error, as the docs call it, is what I see.",
			errors: []string{"pydantic_core._pydantic_core.ValidationError: first problem"},
		},
		{
			// Letters whose lower case is longer ("İ") before the name
			// must not shift it: the name is cut from the text as written.
			name:   "model named with a space after wide letters",
			title:  "İİİİİİ DeepSeek V3.2 on B200",
			body:   "İİİİ GLM 4.7 fails",
			models: []string{"DeepSeek V3.2", "GLM 4.7"},
		},
		{
			// A model named by family and generation with a space, in
			// a title or a "model:" line: vllm-project/vllm#12256 ("deepseek
			// v3 can not set tensor_parallel_size=32"), #30214 ("DeepSeek
			// V3.2 on B200 fails"), #32436 ("GLM 4.7 Tool Call issue") and
			// vllm-dev C3-034 ("model: deepseek v3.2", a Ray deployment);
			// a lettered generation too ("DeepSeek R1" in #12891, #13778
			// and three more, "Kimi K2" in #33457).
			// A size where the generation would stand names the model
			// too ("mistral 7b"; see "a family and a size in a
			// sentence"); a number that goes on ("qwen 2x") does not.
			name:   "model named by family and generation with a space",
			title:  "[Bug]: DeepSeek V3.2 on B200 fails with CUTLASS_MLA",
			body:   "### my env\nvllm: 0.9.2\nmodel: glm 4.7\nQwen 3 is 2x faster than mistral 7b and qwen 2x; Kimi K2 hangs.",
			models: []string{"DeepSeek V3.2", "glm 4.7", "Qwen 3", "mistral 7b", "Kimi K2"},
		},
		{
			// With VLLM_LOGGING_LEVEL=DEBUG, vLLM logs every platform it
			// tries (vllm-project/vllm#16197 read "tpu" from them); the
			// one it confirms is the post's.
			name:     "platform probe of a debug log",
			body:     "```\nDEBUG 04-07 19:38:47 [__init__.py:34] Checking if TPU platform is available.\nDEBUG 04-07 19:38:47 [__init__.py:44] TPU platform is not available because: No module named 'libtpu'\nDEBUG 04-07 19:38:47 [__init__.py:52] Checking if CUDA platform is available.\nDEBUG 04-07 19:38:47 [__init__.py:72] Confirmed CUDA platform is available.\nDEBUG 04-07 19:38:47 [__init__.py:114] ROCm platform is not available because: No module named 'amdsmi'\n```",
			platform: "cuda",
		},
		{
			name:   "ModelScope model page",
			body:   "因为网络问题从魔塔社区下载：[模型地址](https://modelscope.cn/models/deepseek-ai/DeepSeek-R1-Distill-Qwen-7B/files)，启动报错",
			models: []string{"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B"},
		},
		{
			// supervisord keeps vLLM running in deployment guides and
			// setup scripts: a program section's command= key, its value
			// going on over indented lines (INI), spaced or not.
			name:     "supervisor program section",
			body:     "```ini\n# /etc/supervisor/conf.d/vllm.conf\n[program:vllm]\ncommand=python -m vllm.entrypoints.openai.api_server \n    --model meta-llama/Llama-3.1-70B-Instruct\n    --port 8000\ndirectory=/opt/vllm\nautostart=true\n```",
			commands: []string{"vllm serve --model=meta-llama/Llama-3.1-70B-Instruct --port=8000"},
		},
		{
			name:     "supervisor command spaced",
			body:     "```ini\n[program:vllm_coder]\ncommand = /opt/venv/bin/vllm serve TheBloke/deepseek-coder-33B-instruct-AWQ --quantization awq --port 8000\nautostart=true\n```",
			commands: []string{"vllm serve TheBloke/deepseek-coder-33B-instruct-AWQ --port=8000 --quantization=awq"},
		},
		{
			// A script's spaced assignment is still Python.
			name: "python assignment named command",
			body: "```python\ncommand = f\"vllm serve {MODEL} --port 8001\"\nsubprocess.Popen(command, shell=True)\n```",
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.Flags["--port"] != "8001" {
					t.Errorf("main command = %+v", c)
				}
			},
		},
		{
			// vLLM's start-up logo since 0.11 states the release and the
			// model (eugr/spark-vllm-docker#296; compose logs of a gpt-oss
			// server; a Korean start-up guide).
			name:     "start-up logo",
			body:     "```\n(APIServer pid=1) INFO 06-30 23:14:18 [api_utils.py:339]        █     █     █▄   ▄█\n(APIServer pid=1) INFO 06-30 23:14:18 [api_utils.py:339]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.23.1rc1.dev197+g01192139b.d20260619\n(APIServer pid=1) INFO 06-30 23:14:18 [api_utils.py:339]   █▄█▀ █     █     █     █  model   /models/Qwen3-Coder-Next\n(APIServer pid=1) INFO 06-30 23:14:18 [api_utils.py:339]    ▀▀  ▀▀▀▀▀ ▀▀▀▀▀ ▀     ▀\n```\nthe server never answers",
			versions: map[string]string{"vllm": "0.23.1rc1.dev197+g01192139b.d20260619"},
			models:   []string{"/models/Qwen3-Coder-Next"},
		},
		{
			name:     "start-up logo in a compose log",
			body:     "```\n   vllm-20b-b-1   | (APIServer pid=1) INFO 03-10 15:49:42 [utils.py:302]  ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.17.0\n   vllm-20b-b-1   | (APIServer pid=1) INFO 03-10 15:49:42 [utils.py:302]   █▄█▀ █     █     █     █  model   openai/gpt-oss-20b\n```",
			versions: map[string]string{"vllm": "0.17.0"},
			models:   []string{"openai/gpt-oss-20b"},
		},
		{
			// Apptainer or Singularity running vLLM's image from Docker's
			// registry runs its server with the arguments after it.
			name:     "apptainer run of the image",
			body:     "```bash\nsingularity run --nv -B /scratch docker://vllm/vllm-openai:v0.9.2 --model Qwen/Qwen3-8B --tensor-parallel-size 2 >logs/vllm.log 2>&1 &\n```",
			commands: []string{"singularity run vllm/vllm-openai:v0.9.2", "vllm serve --model=Qwen/Qwen3-8B --tensor-parallel-size=2"},
			versions: map[string]string{"vllm": "0.9.2"},
		},
		{
			// A Compose service's entrypoint runs with its command after
			// it (LMCache/LMCache#906: an image of its own, the
			// entrypoint naming the model, the flags a plain scalar
			// over several lines).
			name:     "compose entrypoint with a plain scalar command",
			body:     "```\n  vllm-lmcache:\n    image: lmcache/vllm-openai:nightly-2025-06-24\n    entrypoint: vllm serve /model/DeepSeek-R1-Distill-Qwen-32B\n    command:\n      --port 8000\n      --tensor-parallel-size 2 \n      --kv-transfer-config '{\"kv_connector\":\"LMCacheConnectorV1\"}'\n```",
			commands: []string{`vllm serve /model/DeepSeek-R1-Distill-Qwen-32B --kv-transfer-config={"kv_connector":"LMCacheConnectorV1"} --port=8000 --tensor-parallel-size=2`},
		},
		{
			// The entrypoint a flow list of plain words, the command a
			// list that starts with the model (the Compose files a
			// Compose-checking project's tests read); the two halves
			// read apart gave a command "vllm 32768".
			name:     "compose entrypoint and command as flow lists",
			body:     "```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.9.2\n    entrypoint: [vllm, serve]\n    command: [Qwen/Qwen3-8B, --served-model-name, qwen, --max-model-len, \"32768\"]\n```",
			commands: []string{"vllm serve Qwen/Qwen3-8B --max-model-len=32768 --served-model-name=qwen"},
			models:   []string{"Qwen/Qwen3-8B"},
		},
		{
			name:     "compose entrypoint list and command string",
			body:     "```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.9.2\n    entrypoint: [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n    command: --model Qwen/Qwen3-8B --max-model-len 32768\n```",
			commands: []string{"vllm serve --max-model-len=32768 --model=Qwen/Qwen3-8B"},
		},
		{
			// A Kubernetes container runs its command with its args
			// after it, as Compose runs entrypoint and command: the
			// module in a flow list over options in a block list (the
			// TPU Deployment of a GKE guide to vLLM; KServe serving
			// runtimes), and both as block lists with the options as
			// "--key=value" (an AWS Neuron Deployment). Read apart, the
			// module was a command with no options and the options a
			// second command.
			name:     "kubernetes command over args",
			body:     "```yaml\napiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: vllm-tpu\n        image: docker.io/vllm/vllm-tpu:latest\n        command: [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n        args:\n        - --host=0.0.0.0\n        - --port=8000\n        - --max-model-len=8192\n        - --model=Qwen/Qwen2-1.5B\n```\nThe pod restarts with the error below.",
			commands: []string{"vllm serve --host=0.0.0.0 --max-model-len=8192 --model=Qwen/Qwen2-1.5B --port=8000"},
			models:   []string{"Qwen/Qwen2-1.5B"},
			platform: "tpu",
		},
		{
			name:     "kubernetes command and args as block lists after a Service",
			body:     "```yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: vllm\n---\napiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: vllm-neuron\n        image: public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:0.13.0\n        command:\n        - python\n        - -m\n        - vllm.entrypoints.openai.api_server\n        args:\n        - --port=8080\n        - --model=/mnt/models/llama\n        - --tensor-parallel-size=2\n        - --max-num-seqs=4\n```",
			commands: []string{"vllm serve --max-num-seqs=4 --model=/mnt/models/llama --port=8080 --tensor-parallel-size=2"},
		},
		{
			// A YAML list item's scalar goes on over the lines indented
			// under it, and a double-quoted one up to its closing quote:
			// vLLM's LeaderWorkerSet guide quotes the leader's script of
			// two commands over two lines after "sh", "-c"; read line by
			// line, the vllm command's last option took the closing quote
			// ("2\"").
			name:     "a shell's script quoted over two lines of a YAML list",
			body:     "```yaml\n          command:\n            - sh\n            - -c\n            - \"bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray_cluster_size=$(LWS_GROUP_SIZE);\n              python3 -m vllm.entrypoints.openai.api_server --port 8080 --model meta-llama/Meta-Llama-3.1-405B-Instruct --tensor-parallel-size 8 --pipeline_parallel_size 2\"\n```",
			commands: []string{"bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray-cluster-size=$(LWS_GROUP_SIZE)", "vllm serve --model=meta-llama/Meta-Llama-3.1-405B-Instruct --pipeline-parallel-size=2 --port=8080 --tensor-parallel-size=8"},
		},
		{
			// A list item an excerpt cut from its key holds a command
			// line, folded over lines as YAML folds a plain scalar
			// (vllm-project/vllm-ascend#2077's LeaderWorkerSet manifest:
			// read line by line, "qwen3_coder --model …" was a command of
			// a program "qwen3_coder").
			name:     "a command line in a plain YAML item over lines",
			body:     "```\n          - bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader\n            --ray_cluster_size=$(LWS_GROUP_SIZE); python3 -m vllm.entrypoints.openai.api_server\n            --port 8080 --tool-call-parser\n            qwen3_coder --model /models/Qwen3-Coder-480B-A35B-Instruct-FP8 --tensor-parallel-size 4\n```",
			commands: []string{"bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray-cluster-size=$(LWS_GROUP_SIZE)", "vllm serve --model=/models/Qwen3-Coder-480B-A35B-Instruct-FP8 --port=8080 --tensor-parallel-size=4 --tool-call-parser=qwen3_coder"},
		},
		{
			// A command that starts inside a quotation after setup steps
			// ends at its closing quote (opea-project/GenAIComps#336, a
			// one-line code span; Chinese deployment notes quote
			// `bash -c "… && vllm serve …"` in sentences).
			name:     "command inside an open quotation",
			body:     "Running the CPU image:\n\n```docker run -it --name vllm_service vllm:cpu /bin/bash -c \"cd / && python3 -m vllm.entrypoints.openai.api_server --model Intel/neural-chat-7b-v3-3 --port 80\"```\n\nfails.",
			commands: []string{"docker run vllm:cpu --name=vllm_service -it", "vllm serve --model=Intel/neural-chat-7b-v3-3 --port=80"},
		},
		{
			// A GeForce's family joined to its number by a hyphen
			// (gpustack/gpustack#2097's title "RTX-5090D"; "单张RTX-4090",
			// "a single-RTX-4090 replication" in other projects' notes) and
			// a memory size in gigabytes written "80G" ("A100 80G",
			// "8xA100 80G" in many Chinese and English guides; "2张3090
			// 24G" in QwenLM/Qwen2.5-Omni#288) name the same cards.
			name: "hyphenated GeForce names and memory in G",
			body: "It fails on my RTX-5090D. The same model serves on a NVIDIA GeForce-RTX-4090 and on 8xA100 80G.",
			gpus: []GPU{{Name: "RTX 5090 D"}, {Name: "NVIDIA GeForce RTX 4090"}, {Name: "A100", MemoryGiB: 80, Count: 8}},
		},
		{
			// A bare GeForce number after the vendor's name is a card
			// (NixOS/nixpkgs#406675's title "CUDA + NVIDIA 5090"; "tested
			// on NVIDIA 4090 GPU" in many projects' READMEs).
			name:  "a GeForce number after NVIDIA",
			title: "vllm: cannot serve models using CUDA + NVIDIA 5090",
			body:  "The server dies at start.",
			gpus:  []GPU{{Name: "RTX 5090"}},
		},
		{
			// A variant before the size, as Qwen names its releases
			// (Qwen3-Coder-30B-A3B-Instruct, Qwen2.5-VL-7B-Instruct)
			// and posts write them with spaces; corpus #16948's title
			// "Llama4 Scout 16E" (Llama-4-Scout-17B-16E) the same way.
			name:   "a variant before the size",
			body:   "Qwen3 Coder 30B A3B is slow, and Qwen2.5 VL 7B crashes with images.",
			models: []string{"Qwen3 Coder 30B A3B", "Qwen2.5 VL 7B"},
		},
		{
			// A variant between the family and the generation, as Mistral
			// names its releases and posts write them (Mistral Small 3.1
			// in many projects' notes; corpus #16292 and #26166 read
			// "Mistral Small" alone before); DeepSeek's "Coder V2". A
			// word that is no variant starts no name ("Mistral is 2x").
			name:   "a variant before the generation",
			body:   "Mistral Small 3.1 loads but Mistral Large 2 runs out of memory; DeepSeek Coder V2 is fine. Mistral is 2x slower.",
			models: []string{"Mistral Small 3.1", "Mistral Large 2", "DeepSeek Coder V2"},
		},
		{
			// A family with its size and no generation, in a sentence:
			// "I'm testing Llama 8B on 4 L40s GPUs" (vllm-dev C3-007),
			// "codellama 70b don't stop generating" (corpus #2686), "[gpt
			// oss 20b]" (corpus #22519's title). Read after the model the
			// post names in full, not before it.
			name:   "a family and a size in a sentence",
			body:   "I serve gpt-oss 20b on one H100 and Mistral 7B on another; both stop after a few requests.",
			models: []string{"gpt-oss 20b", "Mistral 7B"},
		},
		{
			// A sentence that names the class the poster met, with no
			// message and no log ("When starting any demo I get an
			// AssertionError in DisplayOpenGL", a project's FAQ; "When I
			// attempt to submit a form, I get an AssertionError", another
			// project's): the class is the post's error, as a title's is.
			name:   "an exception class the poster met, named in a sentence",
			body:   "The server dies with AssertionError when I set --enable-prefix-caching, and works without it.",
			errors: []string{"AssertionError: "},
		},
		{
			// The same with the verb in the past and the class in bold
			// (vllm-project/vllm#7291: "I was getting
			// **NotImplementedError** error" over screenshots of the log).
			name:   "an exception class met, in bold after a past tense",
			body:   "I ran the gguf inference example and I was getting **NotImplementedError** error.",
			errors: []string{"NotImplementedError: "},
		},
		{
			// A class only talked about is no error of the post's: a
			// feature request says what happens today (vllm-dev B073,
			// "leave it out and you get a ValueError saying …").
			name:   "an exception class talked about, not met",
			title:  "tool_choice should be optional",
			body:   "Leave it out and you get a ValueError saying that tool_choice must be set.",
			errors: []string{},
		},
		{
			// An error asked about inside a sentence ends where the
			// writer's question begins (", any idea how to fix it?", as
			// forum posts of every kind ask after what went wrong).
			name:   "an error followed by the writer's question",
			body:   "After the server starts I get KeyError: 'model.layers.0.mlp.gate_up_proj.weight', any idea how to fix this?",
			errors: []string{"KeyError: 'model.layers.0.mlp.gate_up_proj.weight'"},
		},
		{
			// An error asked about inside a Chinese sentence ends where
			// the writer's question begins ("…，请问怎么解决？", as Chinese
			// posts and comments of many projects ask about what went
			// wrong); read on, the question was part of the message and
			// of its signature.
			name:   "an error inside a Chinese sentence",
			title:  "vllm 0.9.0 运行 glm-4-9b-chat 报错",
			body:   "用 python -m vllm.entrypoints.openai.api_server --model THUDM/glm-4-9b-chat --trust-remote-code 启动后报错 KeyError: 'model.layers.0.mlp.gate_up_proj.weight'，请问怎么解决？",
			errors: []string{"KeyError: 'model.layers.0.mlp.gate_up_proj.weight'"},
		},
		{
			// "L40s" names NVIDIA's L40S, as the posts' environment
			// reports say (vllm-dev C1-029, C3-007, C3-033), while "8
			// H100s" counts H100s; a count given on a second mention
			// (the title's "L40S", the body's "(4xl40s)") is kept.
			name: "L40s is the L40S",
			body: "I test Llama 8B on 4 L40s GPUs.",
			gpus: []GPU{{Name: "L40S", Count: 4}},
		},
		{
			// A product whose name ends in a letter, counted in the
			// plural (NVIDIA/TensorRT-LLM#7818's "8 A10Gs"; "four A10Gs"
			// on a g5.12xlarge in many projects' notes).
			name: "plural of a name that ends in a letter",
			body: "- 8 A10Gs\n- 192 GPU RAM",
			gpus: []GPU{{Name: "A10G", Count: 8}},
		},
		{
			// Cards counted in words, as bare GeForces are ("dual
			// 3090s"): "four A10Gs" on a g5.12xlarge, vllm-dev B038's
			// "two AMD Radeon 7900 xtx cards", corpus #41663's "dual
			// Intel Arc Pro B70".
			name: "named cards counted in words",
			body: "I run it on four A10Gs, and at home on two H100s.",
			gpus: []GPU{{Name: "A10G", Count: 4}, {Name: "H100", Count: 2}},
		},
		{
			// Intel's workstation cards are "Arc Pro" and a model
			// (vllm-project/vllm#28770's B60, #41663's and #48327's
			// "dual Intel Arc Pro B70"), beside the Arc A770.
			name: "Intel Arc Pro cards",
			body: "Hardware: dual Intel Arc Pro B70, and an Intel Arc A770 16GB at home.",
			gpus: []GPU{{Name: "Intel Arc Pro B70", Count: 2}, {Name: "Intel Arc A770", MemoryGiB: 16}},
		},
		{
			name:  "count on a second mention",
			title: "trtllm-serve freezes with TP > 1 on L40S",
			body:  "AWS Instance: g6e.12xlarge (4xl40s), and 8 H100s elsewhere",
			gpus:  []GPU{{Name: "L40S", Count: 4}, {Name: "H100", Count: 8}},
		},
		{
			// collect_env lists each GPU on a line, or one model's
			// indexes together (vllm-dev C3-007, C1-031, C2-033).
			name: "GPUs an environment report lists",
			body: "```text\nGPU models and configuration:\nGPU 0: NVIDIA L40S\nGPU 1: NVIDIA L40S\nGPU 2: NVIDIA L40S\nGPU 3: NVIDIA L40S\n\nNvidia driver version: 550.90.07\n```",
			gpus: []GPU{{Name: "NVIDIA L40S", Count: 4}},
		},
		{
			name: "GPUs listed by their indexes",
			body: "```text\nGPU models and configuration:\nGPU 0-3: NVIDIA RTX PRO 6000 Blackwell Server Edition\nGPU 4,5: NVIDIA GeForce RTX 2080 Ti\n```",
			gpus: []GPU{{Name: "NVIDIA RTX PRO 6000", Count: 4}, {Name: "NVIDIA GeForce RTX 2080 Ti", Count: 2}},
		},
		{
			// An error quoted in a backtick span whose message holds an
			// apostrophe is read whole, once (a KServe post; vllm-dev
			// B075's feature request quotes the same error so).
			name:   "error in a span with an apostrophe",
			body:   "The pod crashes with `ValueError: The model's max seq len (8192) is larger than the maximum number of tokens that can be stored in KV cache (5472).`",
			errors: []string{"ValueError: The model's max seq len (8192) is larger than the maximum number of tokens that can be stored in KV cache (5472)."},
		},
		{
			name:     "open quotation after an apostrophe",
			body:     "I don't know why: I ran docker run -it img /bin/bash -c \"cd / && python3 -m vllm.entrypoints.openai.api_server --model m/x --port 80\" and it fails",
			commands: []string{"docker run img -it", "vllm serve --model=m/x --port=80"},
		},
		{
			// A version in brackets after the name, as write-ups and
			// reports put it (vLLM issues' "using vLLM (v0.16.0) via
			// Docker", corpus #7179's "vllm(v0.5.3)", Chinese notes'
			// full-width "vLLM（0.20.1）"), or after a CJK "is".
			name:     "version in brackets",
			body:     "I am running Voxtral using vLLM (v0.16.0) via Docker on a single RTX 5090 (CUDA 13.1).",
			versions: map[string]string{"vllm": "0.16.0"},
		},
		{
			name:     "version in full-width brackets",
			body:     "在 GB10 上使用 Docker + vLLM（0.20.1）对 Qwen3-30B-A3B-FP8 做基准测试，启动后卡住",
			versions: map[string]string{"vllm": "0.20.1"},
		},
		{
			name:     "version after a Japanese は",
			body:     "vLLMは0.10.2を使っています。起動時にエラーになります。",
			versions: map[string]string{"vllm": "0.10.2"},
		},
		{
			// A model's size in brackets is no beta release.
			name: "size in brackets is no version",
			body: "vLLM（0.5B 太小）收益不值",
			check: func(t *testing.T, f Facts) {
				if v, ok := f.Versions["vllm"]; ok {
					t.Errorf("vllm version %q read from a model size", v)
				}
			},
		},
		{
			// Bold italic around a command's argument in prose, as a
			// lab sheet and a deployment guide write it; rendered, the
			// asterisks are gone.
			name:     "bold italic model in a prose command",
			body:     "รันคำสั่ง  \nvllm serve ***Qwen/Qwen3-4B-Instruct***\n\nตรวจสอบโมเดล",
			commands: []string{"vllm serve Qwen/Qwen3-4B-Instruct"},
		},
		{
			name:     "bold italic part of a path",
			body:     "脚本文件内容如下：\n\npython -m vllm.entrypoints.openai.api_server \\\n--model ***/path/to***/Qwen3-8B \\\n--port 8000",
			commands: []string{"vllm serve --model=/path/to/Qwen3-8B --port=8000"},
		},
		{
			// A bare GeForce number with its count after it, as Chinese
			// notes write their hardware, or counted in words.
			name:     "GeForce counted after its number",
			body:     "使用硬件为4090*2，max-model-len设为18048，输出到一半即停止",
			gpus:     []GPU{{Name: "RTX 4090", Count: 2}},
			platform: "cuda",
		},
		{
			name: "GeForce counted in words",
			body: "On dual 3090s the server hangs at start.",
			gpus: []GPU{{Name: "RTX 3090", Count: 2}},
		},
		{
			// A sentence that starts with the command and goes on in
			// Japanese or Korean ("`./gradlew installDebug` を実行すると…",
			// as Japanese guides write it): its words are no arguments.
			name:     "command then a Japanese sentence",
			body:     "vllm serve Qwen/Qwen3-8B --max-model-len 40960 を実行すると、次のエラーが出ます。",
			commands: []string{"vllm serve Qwen/Qwen3-8B --max-model-len=40960"},
		},
		{
			name:     "command then a Korean sentence",
			body:     "vllm serve Qwen/Qwen3-8B --max-model-len 40960 을 실행하면 다음 에러가 납니다.",
			commands: []string{"vllm serve Qwen/Qwen3-8B --max-model-len=40960"},
		},
		{
			// A folder with a Chinese name is part of the path.
			name:     "path with a Chinese folder in a sentence",
			body:     "运行 vllm serve /data/模型/qwen --port 8000 后报错",
			commands: []string{"vllm serve /data/模型/qwen --port=8000"},
		},
		{
			// Korean and Japanese name the version in their own words.
			name:     "version labelled in Korean",
			body:     "실험 환경\n```\n하드웨어: Tesla T4\nvLLM 버전: 0.14.0\n```\nvLLM 버전은 0.14.0입니다",
			versions: map[string]string{"vllm": "0.14.0"},
		},
		{
			name:     "version labelled in Japanese",
			body:     "```\n  vLLM バージョン:   0.10.1\n  PyTorch バージョン: 2.7.1+rocm6.3\n```\ntorchのバージョンは2.7.1です",
			versions: map[string]string{"vllm": "0.10.1", "torch": "2.7.1+rocm6.3"},
		},
		{
			// Environment set out as a Markdown table of two cells a row;
			// a row comparing two setups states neither.
			name:     "environment table",
			body:     "| Item | Value |\n|---|---|\n| vLLM version | 0.19.1 (`vllm/vllm-openai:v0.19.1`) |\n| PyTorch version | **2.10.0+cu130** |\n| Python version | 3.12.7 \\| packaged by Anaconda, Inc. \\| (main) |\n| transformers | 4.57.1 | 4.56.0 |\n\nthe server stops answering after an hour",
			versions: map[string]string{"vllm": "0.19.1", "torch": "2.10.0+cu130", "python": "3.12.7"},
			check: func(t *testing.T, f Facts) {
				if v, ok := f.Versions["transformers"]; ok {
					t.Errorf("read a compared row as transformers %s", v)
				}
			},
		},
		{
			// A word saying which version is not a package.
			name: "which version, not which package",
			body: "vllm latest version 0.10.1.1 and the current release: 0.9.2 behave the same\n\nvllm serve m --port 1",
			check: func(t *testing.T, f Facts) {
				for _, w := range []string{"latest", "current"} {
					if v, ok := f.Versions[w]; ok {
						t.Errorf("read %q as a package at %q", w, v)
					}
				}
			},
		},
		{
			// HabanaAI's fork names its Gaudi build in the release
			// ("0.5.3.post1+gaudi117", HabanaAI/vllm-fork#203), and
			// Gaudi's launch scripts set the bridge's PT_HPU_* variables
			// with no other platform word.
			name:     "Gaudi build of the fork",
			title:    "[Usage]: tensor-parallel-size=2 is very slow",
			body:     "### Your current environment\n```\nvllm  0.5.3.post1+gaudi117\n```\nwith --tensor-parallel-size 2 decoding at batch 56 takes very long",
			versions: map[string]string{"vllm": "0.5.3.post1+gaudi117"},
			platform: "hpu",
		},
		{
			name:     "Gaudi bridge variables",
			body:     "```bash\nPT_HPU_ENABLE_LAZY_COLLECTIVES=true PT_HPU_LAZY_MODE=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2\n```\nthroughput drops after a few minutes",
			platform: "hpu",
		},
		{
			// The fork's later tags ("+Gaudi-1.21.0") set the word apart,
			// so the pack's hardware word reads them: kept as they are.
			name:     "Gaudi release tag in a launch script",
			body:     "```bash\nVLLM_TAG=${VLLM_TAG:-v0.7.2+Gaudi-1.21.0}\ndocker run -it --rm registry.local/llm/vllm:$VLLM_TAG vllm serve Qwen/Qwen2.5-7B-Instruct\n```\nthe server exits on start",
			platform: "hpu",
		},
		{
			// Python's own options before -m: vllm-project/vllm#188
			// ("python -u -m vllm.entrypoints.openai.api_server") and
			// #4443 ("python -O -u -m …").
			name: "interpreter options before python -m",
			body: "```\nCUDA_VISIBLE_DEVICES=1 python -O -u -X dev -W ignore -m vllm.entrypoints.openai.api_server --port=8001 --model=/models/m1\n```",
			check: func(t *testing.T, f Facts) {
				c := f.MainCommand(s)
				if c == nil || c.Program != "vllm" || c.Flags["--model"] != "/models/m1" || c.Flags["--port"] != "8001" {
					t.Errorf("main command = %+v", c)
				}
			},
		},
		{
			// A toolkit's version in the title, in the forms a sentence
			// states it in: vllm-project/vllm#49778 ("fails for ROCm 7.14
			// on gfx950"), #8736 ("vllm-openai cuda 11.8 docker image"),
			// #2047 ("cuda11.8 for v0.2.4"); "vLLM ROCm v0.18.0" (#43029)
			// is vLLM's version for ROCm, not ROCm's.
			name:  "toolkit version in a title",
			title: "[Bug]: gpt-oss-120b fails for ROCm 7.14 on gfx950, unlike vLLM ROCm v0.18.0",
			body:  "It crashes at startup.",
			check: func(t *testing.T, f Facts) {
				if f.Versions["rocm"] != "7.14" || len(f.Versions) != 1 {
					t.Errorf("versions = %v, want rocm 7.14 alone", f.Versions)
				}
			},
		},
		{
			// A backslash that carries an install or an export into the
			// program's run: vllm-project/vllm#22519 ("uv pip install
			// --pre vllm==0.10.1+gptoss \\" then "vllm serve …") and
			// #23684 ("export HF_HUB_OFFLINE=1 \\" then "vllm serve …").
			// A package list that goes on is still one install.
			name: "continuation after an install or an export",
			body: "```\nuv pip install --pre vllm==0.10.1+gptoss \\\nvllm serve openai/gpt-oss-20b\nexport HF_HUB_OFFLINE=1 \\\n  vllm serve \"Qwen/Qwen3.5-4B\" --port 8020\npip install vllm \\\n  transformers\n```",
			check: func(t *testing.T, f Facts) {
				var runs []string
				for _, c := range f.Commands {
					runs = append(runs, c.String())
				}
				want := []string{"uv pip install vllm==0.10.1+gptoss --pre", "vllm serve openai/gpt-oss-20b", "vllm serve Qwen/Qwen3.5-4B --port=8020", "pip install vllm transformers"}
				if !slices.Equal(runs, want) {
					t.Errorf("commands = %q, want %q", runs, want)
				}
			},
		},
		{
			// An AWS Neuron host with PyTorch's default CUDA wheel:
			// collect_env says the build's CUDA has no device there
			// (vllm-project/vllm#6269, #6635, #12443 were read as CUDA),
			// and its "N/A" lines name what the host lacks (#6269 then
			// read as ROCm from "ROCM used to build PyTorch: N/A"; #16494
			// and #16588 as Neuron from "Neuron SDK Version: N/A").
			name:     "environment report of a host without the build's CUDA",
			title:    "[Bug]: vllm doesn't work with AWS neuron",
			body:     "```\nPyTorch version: 2.1.2+cu121\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\nIs CUDA available: False\nCUDA_MODULE_LOADING set to: N/A\ncuDNN version: No CUDA\nHIP runtime version: N/A\nNeuron SDK Version: N/A\n```",
			platform: "neuron",
		},
		{
			// collect_env states torch's build twice: "PyTorch version:
			// 2.6.0+cu124" and then pip's "[pip3] torch==2.6.0"
			// (vllm-project/vllm#16948, #4577). The build's local label
			// stays, whichever statement comes first.
			name:     "one release stated with and without its local label",
			body:     "```\nPyTorch version: 2.6.0+cu124\nCUDA used to build PyTorch: 12.4\n[pip3] torch==2.6.0\n[pip3] triton==3.2.0\n```\n\n```\n[pip3] vllm==0.8.4\nvLLM Version: 0.8.4+cu126\n```",
			versions: map[string]string{"torch": "2.6.0+cu124", "vllm": "0.8.4+cu126"},
		},
		{
			// An image's tag in a title is read as in a body's listing:
			// "running vllm-openai:v0.7.3 with …" (vllm-project/vllm#16307),
			// "… with vllm/vllm-openai:v0.10.2 (Works Fine on v0.10.1)"
			// (#25318); of two, the first (#27251).
			name: "image tag in a title",
			check: func(t *testing.T, _ Facts) {
				checkTitles(t, s, "vllm", map[string]string{
					"[Usage]: running vllm-openai:v0.7.3 with an cuda-error":                                    "0.7.3",
					"[Bug]: Running Whisper with vllm/vllm-openai:v0.10.2 (Works Fine on v0.10.1)":              "0.10.2",
					"[Bug]: Deploying with docker vllm/vllm-openai:v0.10.2 and vllm/vllm-openai:v0.11.0 failed": "0.10.2",
				}, func(f Facts) string { return f.Versions["vllm"] })
			},
		},
		{
			name:     "environment report with only absent platforms",
			body:     "```\nROCM used to build PyTorch: N/A\nHIP runtime version: N/A\nNeuron SDK Version: N/A\n```",
			platform: "none",
		},
		{
			// vLLM's model runner logs the model it loads
			// (vllm-project/vllm#13143, #13936, #27409); an id the poster
			// wrote comes first, a bare name in the title after it.
			name:  "model the log says it loads",
			title: "[New Model]: Phi-4 Multimodal Instruct",
			body:  "```\nINFO 02-27 01:39:00 model_runner.py:1110] Starting to load model /models/Phi-4-multimodal-instruct...\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Models) == 0 || f.Models[0] != "/models/Phi-4-multimodal-instruct" {
					t.Errorf("models = %q, want the loaded path first", f.Models)
				}
			},
		},
		{
			// Items commented out of a Compose list are not set, and
			// do not end the list: vllm-project/vllm#11402 (a flow list's
			// `#"--max-num-seqs", "256",`) and #16841 (a block list's
			// "# - --max_num_batched_tokens", which lost the flags after it).
			name: "commented-out items of argument lists",
			body: "```yaml\nservices:\n  a:\n    image: vllm/vllm-openai:v0.6.5\n    entrypoint: [\n      \"vllm\", \"serve\", \"m/x\",\n      #\"--max-num-seqs\", \"256\",\n      \"--port\", \"8000\" # the port\n    ]\n  b:\n    image: vllm/vllm-openai:latest\n    command:\n      - --model\n      - m/y\n      # - --max_num_batched_tokens\n      # - \"2048\"\n      - --gpu-memory-utilization\n      - \"0.9\"\n```",
			check: func(t *testing.T, f Facts) {
				var runs []string
				for _, c := range f.Commands {
					runs = append(runs, c.String())
				}
				want := []string{"vllm serve m/x --port=8000", "vllm serve --gpu-memory-utilization=0.9 --model=m/y"}
				if !slices.Equal(runs, want) {
					t.Errorf("commands = %q, want %q", runs, want)
				}
			},
		},
		{
			// A top-level directory in the program's model position is
			// where a container mounts the model: vllm-project/vllm#15332
			// ("vllm serve /model"), #7074 ("vllm serve /models").
			name: "model mounted at a top-level directory",
			body: "```\nvllm serve /model --tensor-parallel-size 8 --served-model-name DeepSeek-R1\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Models) == 0 || f.Models[0] != "/model" {
					t.Errorf("models = %q, want /model first", f.Models)
				}
			},
		},
		{
			// vLLM's engine logs its version on its first line at
			// start-up (ten corpus issues, vllm-project/vllm#7176 and
			// #3644 among them).
			name:     "version in the engine's first log line",
			body:     "```\nINFO 08-05 16:49:48 llm_engine.py:174] Initializing an LLM engine (v0.5.4) with config: model='meta-llama/Meta-Llama-3-8B-Instruct', device_config=cuda\n```",
			versions: map[string]string{"vllm": "0.5.4"},
		},
		{
			// NVIDIA's NGC registry tags containers by year and month:
			// nvcr.io/nvidia/vllm:26.04-py3 carries vLLM 0.19.0 (DGX
			// Spark guides and launch scripts of many projects), so the
			// tag is no vLLM version; one the post states still is.
			name:     "a monthly container release is no version",
			body:     "```\ndocker run --gpus all nvcr.io/nvidia/vllm:25.12.post1-py3 vllm serve m/a --port 8000\ndocker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3 python x.py --a b\n```\nThe image says vLLM 0.11.1 in its banner.",
			versions: map[string]string{"vllm": "0.11.1"},
		},
		{
			// NVLink in an environment report's GPU topology
			// (vllm-project/vllm#16588, #46464) is NVIDIA hardware; a model
			// published under a hardware maker's organisation
			// (nvidia/Llama-3.1-Nemotron-70B-Reward-HF in #8967,
			// nvidia/DeepSeek-R1-0528-FP4-v2 in #28270) is not.
			name:     "NVLink topology",
			body:     "```\nGPU Topology:\n        GPU0    GPU1    CPU Affinity\nGPU0     X      NV12    64-127\nGPU1    NV12     X      64-127\n```",
			platform: "cuda",
		},
		{
			// git's default log format pasted to say which build a post
			// runs (vllm-project/vllm#12438): the titles of other
			// people's commits name their platforms, not the poster's,
			// as `git log --oneline` lines do (vllm-dev C1-014). The
			// second commit keeps its Author and Date lines; a ROCm
			// post's own words still count after the log.
			name:     "git history in its default format",
			body:     "My last commit is as follows:\n```\ncommit 324960a95c00112ce6b9b858d9311da1597cfb8b (HEAD -> main, upstream/main)\n    [TPU][CI] Update torchxla version in requirement-tpu.txt (#12422)\n\ncommit 0f4a3c2b1d (tag: v0.7.0)\nAuthor: Someone <a@b.c>\nDate:   Sun Jan 26 10:00:00 2025 +0800\n\n    [Neuron] Fix the NxD inference path\n```\nIt fails right after I rebased.",
			platform: "none",
		},
		{
			// An error's message states what the program requires, not
			// what the poster runs, however it is quoted: the server's
			// JSON error body (microsoft/agent-lightning#57), its Python
			// form (QwenLM/Qwen3-Omni#105), after an HTTP status
			// (ByteDance-Seed/Seed-X-7B#7), in a title after the class
			// (vllm-project/vllm#39279). The poster's own versions on the
			// same lines are still read.
			name: "a version inside a quoted error message",
			check: func(t *testing.T, _ Facts) {
				for _, p := range []Post{
					{Title: "Transformers issue when invoking the model via curl", Body: "Got output in terminal\n{\"object\":\"error\",\"message\":\"As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one. None\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}"},
					{Title: "tool call fails", Body: "Respond\n```\n{'error': {'message': 'As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one. None', 'type': 'BadRequestError', 'param': None, 'code': 400}}\n```"},
					{Title: "vllm error requires chat template", Body: "chat api error:\n```\n400 As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one. None\n```"},
					{Title: "[Bug]: vllm.entrypoints.chat_utils.ChatTemplateResolutionError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not defi", Body: "using vllm 0.19.0"},
					// The title cut inside the message the body quotes whole.
					{Title: "[Bug]: vllm.entrypoints.chat_utils.ChatTemplateResolutionError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not defi", Body: "using vllm 0.19.0\n\nrequest error:\nvllm.entrypoints.chat_utils.ChatTemplateResolutionError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one."},
				} {
					f, err := Extract(p, s)
					if err != nil {
						t.Fatal(err)
					}
					if v, ok := f.Versions["transformers"]; ok {
						t.Errorf("%q: transformers %q read from the error's message", p.Title, v)
					}
				}
				f, err := Extract(Post{Title: "t", Body: "I run transformers 4.57.1 and get: {\"object\":\"error\",\"message\":\"As of transformers v4.44, default chat template is no longer allowed\"}"}, s)
				if err != nil {
					t.Fatal(err)
				}
				if got := f.Versions["transformers"]; got != "4.57.1" {
					t.Errorf("the poster's version beside the error: transformers %q, want 4.57.1", got)
				}
			},
		},
		{
			// A sentence that starts with a short hash is the poster's.
			name:     "a commit named in a sentence",
			body:     "commit 46f98893 broke startup on ROCm; before it worked.",
			platform: "rocm",
		},
		{
			name:     "git history then the poster's platform",
			body:     "```\ncommit 324960a95c00112ce6b9b858d9311da1597cfb8b\n    [TPU][CI] Update torchxla version in requirement-tpu.txt (#12422)\n```\nI run it on an MI300X with ROCm 6.3.",
			platform: "rocm",
		},
		{
			name:     "model under a hardware maker's organisation",
			body:     "model = LLM(model='nvidia/Llama-3.1-Nemotron-70B-Reward-HF', task='embed')\nAnd amd/Llama-3.1-8B-Instruct-FP8-KV too.",
			platform: "none",
		},
		{
			// A program's own image with its tag after a space:
			// vllm-project/vllm#16197 ("on vllm-openai v0.8.3"), #13375
			// ("using vllm-openai v0.7.2 docker containers"); a listing's
			// "vllm/vllm-openai   latest" is no version.
			name:     "image tag after a space",
			title:    "[Bug]: Not able to deploy Llama-4-Scout on vllm-openai v0.8.3",
			body:     "```\nvllm/vllm-openai   latest      4d3b60090244   2 weeks ago   21.2GB\n```",
			versions: map[string]string{"vllm": "0.8.3"},
		},
		{
			// Jupyter and IPython print the class at the head of the
			// traceback and frames as "File path:line, in f(...)".
			name: "IPython traceback",
			body: "In a notebook:\n```\n---------------------------------------------------------------------------\nTypeError                                 Traceback (most recent call last)\nCell In[3], line 4\n----> 4 llm = LLM(model=\"m/x\")\n\nFile ~/venv/lib/python3.10/site-packages/vllm/entrypoints/llm.py:93, in LLM.__init__(self, model)\n---> 93 self.llm_engine = LLMEngine.from_engine_args(engine_args)\n\nTypeError: __init__() got an unexpected keyword argument 'quantization'\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) != 1 || f.Errors[0].Type != "TypeError" || f.Errors[0].Message == "" || !slices.Contains(f.Errors[0].Packages, "vllm") {
					t.Errorf("errors = %+v, want one TypeError with its message, from vllm's frames", f.Errors)
				}
			},
		},
		{
			name: "IPython traceback cut before its last line",
			body: "```\nValueError                                Traceback (most recent call last)\n~/venv/lib/python3.9/site-packages/vllm/model_executor/model_loader.py in _get_model_architecture(config)\n---> 27     raise ValueError(\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) != 1 || f.Errors[0].Type != "ValueError" || !slices.Contains(f.Errors[0].Packages, "vllm") {
					t.Errorf("errors = %+v, want the head's ValueError, from vllm's frames", f.Errors)
				}
			},
		},
		{
			name:  "template-prefixed title",
			title: "[Bug]: ValueError: No available memory for the cache blocks",
			body:  "It fails on start.",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || f.Errors[0].Type != "ValueError" {
					t.Errorf("errors = %+v", f.Errors)
				}
			},
		},
		{
			name: "API error body as a Python dict",
			body: "I get `Error code: 400 - {'object': 'error', 'message': '\"auto\" tool choice requires --enable-auto-tool-choice', 'type': 'BadRequestError', 'code': 400}`",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || f.Errors[0].Type != "BadRequestError" || f.Errors[0].Message == "" {
					t.Errorf("errors = %+v", f.Errors)
				}
			},
		},
		{
			name: "class inferred from a template, on HIP",
			body: "The log ends with\n\nERROR 05-12 10:00:00 [core.py:1] HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 15.98 GiB of which 1.00 GiB is free",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || f.Errors[0].Type != "torch.OutOfMemoryError" || !f.Errors[0].Inferred {
					t.Errorf("errors = %+v", f.Errors)
				}
			},
		},
		{
			// A known message quoted inside a sentence ends at its
			// closing quote, not with the sentence (vllm#41695, the
			// C3-038 dev post).
			name:   "quoted message inside a sentence",
			body:   "I will either get a OOM or a \"No available memory for the cache blocks.\" no matter how much I lower the gpu memory",
			errors: []string{"ValueError: No available memory for the cache blocks."},
		},
		{
			// Python's values are no pins: a keyword argument in a
			// traceback (vllm#4070), an engine's argument dump (#23867),
			// an assignment (#18755); nor is pip's list of what an index
			// offers (#13479) or where a version was read (#36450).
			name: "keyword arguments and version sources are no packages",
			body: "    self._grammar = self._grammar.result(timeout=0.0001)\nNamespace(request_rate=inf, burstiness=1.0, seed=0)\nfactor = 4.0\nERROR: Could not find a version that satisfies the requirement torch==2.6.0 (from versions: 1.11.0, 1.12.0)\nObserved engine version from logs: v0.16.1rc1\nconda install cudatoolkit=11.8.0\nvllm==0.8.5",
			check: func(t *testing.T, f Facts) {
				// The requirement pip could not meet is the version the
				// poster asked for, and is read as stated.
				want := map[string]string{"cudatoolkit": "11.8.0", "torch": "2.6.0", "vllm": "0.8.5"}
				if !maps.Equal(f.Versions, want) {
					t.Errorf("versions = %v, want %v", f.Versions, want)
				}
			},
		},
		{
			// xFormers' complaint names the versions it was built for
			// beside the installed ones (vllm#2865 on ROCm; open-mmlab/
			// PIA#30 and facebookresearch/xformers#982 on CPU wheels):
			// the installed ones are the poster's, and so is their
			// platform.
			name:     "an extension's built-for versions are not the poster's",
			body:     "docker build -f Dockerfile.rocm -t vllm-rocm . fails on an AMD Instinct MI300X\n18.57 WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n18.57     PyTorch 2.1.1+cu121 with CUDA 1201 (you have 2.1.1+git011de5c)\n18.57     Python  3.9.18 (you have 3.9.17)",
			versions: map[string]string{"torch": "2.1.1+git011de5c", "python": "3.9.17"},
			check: func(t *testing.T, f Facts) {
				if f.Platform != "rocm" {
					t.Errorf("platform = %q, want rocm", f.Platform)
				}
				g, err := Extract(Post{Body: "python -m xformers.info\nWARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.2.0+cpu)\n    Python  3.11.7 (you have 3.11.0)"}, s)
				if err != nil {
					t.Fatal(err)
				}
				if g.Versions["torch"] != "2.2.0+cpu" || g.Platform != "cpu" {
					t.Errorf("CPU wheel: versions = %v, platform = %q, want torch 2.2.0+cpu on cpu", g.Versions, g.Platform)
				}
			},
		},
		{
			// Prompts with more than one environment (conda's base
			// under a venv, vllm#18567), Red Hat's and toolbox's
			// bracketed prompt (vllm#1784, kyuz0/amd-strix-halo-vllm-
			// toolboxes#24) and oh-my-zsh's after an environment
			// (vllm#7176).
			name: "shell prompts with environments and brackets",
			body: "```\n(vllm) (base) root@gpu-0:~/vllm# vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size=2\n```\n\n```\n(songdh) [root@localhost server_llm]# vllm serve Qwen/Qwen2-1.5B-Instruct --port 8000\n```\n\n```\n⬢ [user@toolbx strix]$ vllm serve Qwen/Qwen3-14B-AWQ --max-num-seqs 1\n```\n\n```\n(vllm-mirror) ➜  examples git:(main) ✗ python offline_inference.py\n```",
			commands: []string{
				"vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size=2",
				"vllm serve Qwen/Qwen2-1.5B-Instruct --port=8000",
				"vllm serve Qwen/Qwen3-14B-AWQ --max-num-seqs=1",
				"python offline_inference.py",
			},
		},
		{
			// Setup steps chained before the program: a directory, a
			// profile, an environment, an exported or a plain variable
			// (vllm#6228; deployment scripts and bug reports of many
			// projects). The exported one is the program's environment.
			name: "setup steps chained before the command",
			body: "```\ncd /srv/app && source .venv/bin/activate && vllm serve Qwen/Qwen2-1.5B-Instruct --port 8000\n```\n\n```\nexport VLLM_USE_MODELSCOPE=true && vllm serve Qwen/Qwen3-8B --max-model-len 32768\n```\n\n```\nNAME='Llama-3-70B-Instruct' && python -m vllm.entrypoints.openai.api_server --served-model-name $NAME --model /models/llama --tensor-parallel-size 8\n```\n\n```\nGPU_COUNT=$(nvidia-smi --list-gpus | wc -l) && vllm serve /app/model --tensor-parallel-size $GPU_COUNT\n```",
			check: func(t *testing.T, f Facts) {
				var got []string
				for _, c := range f.Commands {
					got = append(got, c.Program+" "+c.Subcommand)
				}
				if len(got) != 4 || slices.ContainsFunc(got, func(g string) bool { return g != "vllm serve" }) {
					t.Fatalf("commands = %q, want four vllm serve", got)
				}
				if f.Commands[1].Env["VLLM_USE_MODELSCOPE"] != "true" {
					t.Errorf("env = %v, want the exported variable", f.Commands[1].Env)
				}
				if f.Commands[2].Flags["--tensor-parallel-size"] != "8" || f.Commands[3].Flags["--tensor-parallel-size"] != "$GPU_COUNT" {
					t.Errorf("flags = %v, %v", f.Commands[2].Flags, f.Commands[3].Flags)
				}
			},
		},
		{
			// A shell given its script: a container started with
			// "bash -c" (deployment scripts of several projects), and
			// vLLM's Kubernetes guide's command ["/bin/sh", "-c"] with
			// the script as the one item of args.
			name: "a shell's script is the command",
			body: "```\ndocker run --gpus all nvcr.io/nvidia/pytorch:24.07-py3 /bin/bash -c \"pip install vllm && vllm serve NousResearch/Hermes-2-Pro-Llama-3-8B --max-model-len 8192\"\n```\n\n```yaml\ncontainers:\n- name: vllm\n  image: vllm/vllm-openai:v0.8.5\n  command: [\"/bin/sh\", \"-c\"]\n  args: [\"vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --tensor-parallel-size 2\"]\n```",
			commands: []string{
				"docker run nvcr.io/nvidia/pytorch:24.07-py3 --gpus=all",
				"pip install vllm",
				"vllm serve NousResearch/Hermes-2-Pro-Llama-3-8B --max-model-len=8192",
				"vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len=8192 --tensor-parallel-size=2",
			},
		},
		{
			// A Jetson module's GPU is its board: named in prose, and
			// as collect_env prints it (vllm#7575, #15169, dusty-nv/
			// jetson-containers#1514), one card when named both ways.
			name:     "Jetson modules are GPUs",
			body:     "I want to install vllm in Jetson AGX Orin.\n\nGPU models and configuration: GPU 0: Orin (nvgpu)\nNvidia driver version: 540.4.0",
			gpus:     []GPU{{Name: "Jetson AGX Orin"}},
			platform: "cuda",
		},
		{
			// Docker Compose prints each log line after its service's
			// name and a bar (vllm#24297, #23259, opea-project/
			// GenAIExamples#2068): a service named vllm runs nothing.
			name:     "Compose log lines are no commands",
			body:     "```\nvllm  | (APIServer pid=7) Traceback (most recent call last):\nvllm  | (APIServer pid=7)   File \"/opt/venv/bin/vllm\", line 33, in <module>\nvllm-service  | INFO 06-16 09:47:59 [__init__.py:239] Automatically detected platform cpu.\n```",
			commands: []string{},
		},
		{
			// A log as a viewer printed it is read as the log it is:
			// behind Docker Compose's service and bar (vllm#24297,
			// #20025), journalctl's time, host and unit (community-
			// scripts/ProxmoxVED#2047, vllm#12474), an RFC 3339 time
			// (kubectl logs --timestamps), fenced or not; a shell
			// pipeline's bar is no Compose prefix.
			name: "log viewer prefixes",
			check: func(t *testing.T, f Facts) {
				const tb = "Traceback (most recent call last):\n  File \"/opt/venv/bin/vllm\", line 33, in <module>\nKeyError: 'x'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"/opt/venv/bin/vllm\", line 33, in <module>\nValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be stored in KV cache (3584)."
				for _, prefix := range []string{"vllm-1  | ", "Aug 19 18:34:30 vllm vllm[8707]: ", "2025-03-03T22:56:06.173456789Z "} {
					var b strings.Builder
					for _, l := range strings.Split(tb, "\n") {
						b.WriteString(prefix + l + "\n")
					}
					for _, body := range []string{"```\n" + b.String() + "```", b.String()} {
						g, err := Extract(Post{Body: body}, s)
						if err != nil {
							t.Fatal(err)
						}
						if len(g.Errors) == 0 || g.Errors[0].Type != "ValueError" {
							t.Errorf("%q: errors = %+v, want the ValueError first", prefix, g.Errors)
						}
					}
				}
				for _, block := range []string{"ls | grep vllm\nls | wc -l", "vllm  | one line"} {
					if got := withoutViewerPrefix(block); got != block {
						t.Errorf("withoutViewerPrefix(%q) = %q, want it unchanged", block, got)
					}
				}
			},
		},
		{
			// A log copied with its terminal's colour codes, in caret
			// notation (vllm#24072, #3849) and syslog's octal (#20855).
			name:   "terminal colour codes",
			body:   "```\n^[[1;36m(VllmWorker TP5 pid=42616)^[[0;0m INFO 09-01 15:06:46 [gpu_model_runner.py:1986] Model loading took 56.3173 GiB\n#033[1;36m(VllmWorkerProcess pid=382)#033[0;0m ERROR 07-15 08:09:04 [multiproc_worker_utils.py:239] ValueError: No available memory for the cache blocks.#015\n```",
			errors: []string{"ValueError: No available memory for the cache blocks."},
		},
		{
			// A rich-text editor escapes every underscore when it
			// writes Markdown (ProseMirror's serializer, under
			// Discourse's rich editor; tui.editor): the sentence says
			// what the rendered post shows, and a code span keeps its
			// own.
			name:     "underscores escaped by a rich-text editor",
			body:     "I run vllm serve /data/Qwen2\\_5\\_7B --max\\_model\\_len 8192, and the `\\_` stays in code.",
			commands: []string{"vllm serve /data/Qwen2_5_7B --max-model-len=8192"},
			check: func(t *testing.T, f Facts) {
				if got := unescapeMarkdown(`a\_b \[x\] ` + "`c\\_d`" + ` e\_f C:\Users`); got != `a_b [x] `+"`c\\_d`"+` e_f C:\Users` {
					t.Errorf("unescapeMarkdown = %q", got)
				}
			},
		},
		{
			name:     "full-width colon and prose version",
			body:     "vLLM 版本：0.7.3\n\nThe machine runs vllm with transformers==4.52.4.",
			versions: map[string]string{"vllm": "0.7.3", "transformers": "4.52.4"},
		},
		{
			// An access-log line as uvicorn prints it behind a proxy
			// (vllm-project/vllm#13252, which is not in the corpus): the
			// address after the log level is no version, nor is pip's
			// notice of a new release one of an "available" package
			// (vllm-project/vllm#2309).
			name: "log level before an address",
			body: "INFO:172.16.18.69:52036- \"POST /v1/chat/completions HTTP/1.1\" 500 Internal Server Error\nWARNING:root:1.2.3 is deprecated\n\nvllm==0.7.2\n[notice] A new release of pip is available: 23.1.2 -> 23.3.2",
			check: func(t *testing.T, f Facts) {
				if len(f.Versions) != 1 || f.Versions["vllm"] != "0.7.2" {
					t.Errorf("versions = %v", f.Versions)
				}
			},
		},
		{
			// GPU names are the pack's hardware words, with a count before
			// or after them as environment notes write it ("GPU：A800 * 8"
			// in vllm-project/vllm#13252, "4*L40S", "Tesla T4 (16GB) x 2"
			// in LMCache/LMCache#238); a Radeon without its "RX" (a vllm-dev
			// post; "7900 XT" in ROCm/legacy-rocm-build#4386); a bare digit
			// as the count ("2 RTX 3090 GPUs", Graph-COM/SubgraphRAG#19).
			name: "GPUs the pack names, with counts",
			body: "GPU: A800 * 8\n\nThe other box has 4*L40S and a P40; the A1000 board is not used.\n- GPU: Tesla T4 (16GB) x 2\n\nSince 2024 XT cards were sold too; mine is an AMD Radeon 7900 xtx.\nFor reference, I am using 2 RTX 3090 GPUs (CUDA 12 H100s elsewhere).",
			gpus: []GPU{{Name: "A800", Count: 8}, {Name: "L40S", Count: 4}, {Name: "P40"}, {Name: "T4", MemoryGiB: 16, Count: 2}, {Name: "AMD Radeon 7900 xtx"}, {Name: "RTX 3090", Count: 2}, {Name: "H100"}},
		},
		{
			// A sentence that names the program before it runs it (the
			// excerpt of vllm-project/vllm#15457 the search tool holds;
			// the program-named-before-in-prose perturbation changed 3
			// corpus issues before): the command is where the program
			// is run with a subcommand or an option, not where the
			// sentence names it.
			name: "program named before the command in a sentence",
			body: "My vllm version is 0.7.2，Can run successfully：vllm serve DeepSeek-R1-32B-FULL --port 11435 --tensor-parallel-size 4\n\nWith vllm installed, python3 -m vllm.entrypoints.api_server --model TheBloke/CodeLlama-7B-Python-AWQ --quantization awq fails.",
			check: func(t *testing.T, f Facts) {
				var got []string
				for _, c := range f.Commands {
					got = append(got, c.String())
				}
				want := []string{"vllm serve DeepSeek-R1-32B-FULL --port=11435 --tensor-parallel-size=4",
					"vllm serve --model=TheBloke/CodeLlama-7B-Python-AWQ --quantization=awq"}
				if !slices.Equal(got, want) {
					t.Errorf("commands = %q, want %q", got, want)
				}
			},
		},
		{
			// An image no pack knows runs its own entrypoint: its
			// arguments make no command whose program is an option
			// (vllm-project/vllm#18390; corpus #17609 and #20743 read
			// one before).
			name: "docker run of an unknown image with options after it",
			body: "```\nsudo docker run --runtime nvidia --gpus all --shm-size=64g -p 8000:8000 substratusai/vllm-gh200:v0.8.3 --model meta-llama/Llama-3.1-405B-Instruct-FP8 --cpu-offload-gb 450\n```",
			check: func(t *testing.T, f Facts) {
				for _, c := range f.Commands {
					if isFlagWord(c.Program) {
						t.Errorf("command %q has an option for its program", c.String())
					}
				}
				if len(f.Commands) != 1 || f.Commands[0].Program != "docker" {
					t.Errorf("commands = %v, want the docker run alone", f.Commands)
				}
			},
		},
		{
			// A version asked of Python, as install guides say to check
			// it and bug reports paste it (pytorch/pytorch#137695), is a
			// tool's own statement, as `vllm --version` and its output are
			// (the forum post B001).
			// Asked at a prompt too, as a terminal pastes it.
			name:     "version printed by python -c",
			body:     "```\npython -c \"import torch; print(torch.__version__)\"\n2.6.0.dev20241008+rocm6.2\n\npython -c 'import vllm; print(vllm.__version__)'\n0.6.3.dev156+g07c11cf4\n```\nWith vllm 0.5.0 it worked.\n\n```\n(venv) me@box:~/w$ python -c \"import transformers; print(transformers.__version__)\"\n4.46.1\n```",
			versions: map[string]string{"vllm": "0.6.3.dev156+g07c11cf4", "torch": "2.6.0.dev20241008+rocm6.2", "transformers": "4.46.1"},
		},
		{
			// The same question typed in a Python session, its answer
			// printed below it: at the REPL's prompt (vllm#669, with
			// torch.version.cuda), as a script's line
			// (pytorch/pytorch#85332) or in IPython, quoted. A line of
			// code below the question is no answer.
			name:     "version printed in a Python session",
			body:     "```\n>>> import torch\n>>> print(torch.__version__)\n2.0.1+cu118\n>>> torch.version.cuda\n'11.8'\n```\n\nprint(transformers.__version__)\n4.46.1\n\n```\nIn [3]: vllm.__version__\nOut[3]: '0.6.3.post1'\n```\n\n```python\nprint(numpy.__version__)\nx = 1.26\n```",
			versions: map[string]string{"torch": "2.0.1+cu118", "cuda": "11.8", "transformers": "4.46.1", "vllm": "0.6.3.post1"},
			check: func(t *testing.T, f Facts) {
				if v, ok := f.Versions["numpy"]; ok {
					t.Errorf("numpy = %q: a line of code read as an answer", v)
				}
			},
		},
		{
			// A Chinese sentence glues a package's name to the words
			// before it and says "is" its own way
			// (studio-dots-ai/dots.ocr#260, zai-org/GLM-V#223); "from
			// 0.7.0 on" states no installed version (corpus #15597).
			name:     "versions in Chinese sentences",
			body:     "在尝试用VLLM版本v0.10.0的时候报错\n\ntorch版本是2.6.0，从0.7.0开始版本部署Qwen2_vl服务存在问题",
			versions: map[string]string{"vllm": "0.10.0", "torch": "2.6.0"},
			check: func(t *testing.T, f Facts) {
				for name, v := range f.Versions {
					if v == "0.7.0" {
						t.Errorf("%s = %s: the release a change started from read as installed", name, v)
					}
				}
			},
		},
		{
			// An English sentence may say "is" between a package and
			// its version ("My vllm is 0.8.2.", vllm-project/vllm#15871;
			// "My current vllm is 0.6.5.", Tomorrowdawn/top_nsigma#2).
			name:     "package is version in a sentence",
			body:     "Loading fails on a 3090 box. My current vllm is 0.7.1 and torch is 2.5.1, so which release does this repo expect?",
			versions: map[string]string{"vllm": "0.7.1", "torch": "2.5.1"},
		},
		{
			// An image's tag may name the releases of what it carries,
			// part by part: AMD's vLLM images (ROCm's guides and many
			// projects' scripts run rocm/vllm:rocm6.3.1_vllm_0.8.5_…)
			// and GPUStack's runners (gpustack/gpustack#3835); a date or
			// a channel is no release.
			name:     "releases named in an image's tag",
			body:     "```\ndocker run -it --device=/dev/kfd rocm/vllm:rocm6.4.1_vllm_0.10.1_20250909 vllm serve m/a\n```\n\nThe runner image is gpustack/runner:cuda12.9-vllm0.11.2 on the other host; rocm/vllm-dev:nightly_main_20250101 fails too.",
			versions: map[string]string{"vllm": "0.10.1", "rocm": "6.4.1"},
		},
		{
			// A launcher's log prints the command it runs as a bracketed
			// list (GPUStack's "With image: …, arguments: [vllm serve …]",
			// gpustack/gpustack#3707 and #3835); the command ends at the
			// closing bracket, and a JSON list inside it nests.
			name:     "command in a log's bracketed list",
			body:     "2025-12-04 21:57:22 - gpustack.worker.backends.vllm - INFO - With image: vllm/vllm-openai:v0.12.0, arguments: [vllm serve /models/m-fp8 --max-model-len 8192 --stop '[\"x\"]' --port 40044], env: HOME",
			commands: []string{`vllm serve /models/m-fp8 --max-model-len=8192 --port=40044 --stop=["x"]`},
		},
		{
			// Hugging Face's launcher runs a module as python -m does:
			// lm-eval's multi-GPU form (EleutherAI/lm-evaluation-harness
			// #2028, pasted between backticks on lines of their own, as
			// vllm#17792 closes its error; evaluation scripts of many
			// projects), under uv's launcher too.
			name: "module run by accelerate launch",
			body: "`\nexport CUDA_VISIBLE_DEVICES=\"0,1\"\naccelerate launch -m lm_eval --model vllm \\\n    --model_args pretrained=\"org/m-9b\",dtype=bfloat16 \\\n    --tasks mmlu \\\n    --batch_size 2 \\\n`\n\n```\nuv run accelerate launch -m lm_eval --model vllm --model_args pretrained=org/n,tensor_parallel_size=2 --tasks gsm8k\n```",
			commands: []string{
				"lm_eval --batch-size=2 --model=vllm --model-args=pretrained=org/m-9b,dtype=bfloat16 --tasks=mmlu",
				"vllm --dtype=bfloat16 --model=org/m-9b",
				"lm_eval --model=vllm --model-args=pretrained=org/n,tensor_parallel_size=2 --tasks=gsm8k",
				"vllm --model=org/n --tensor-parallel-size=2",
			},
		},
		{
			// "AMD" before one of AMD's processor families names the
			// host's CPU (collect_env's "Model name: AMD EPYC 75F3 32-Core
			// Processor" on NVIDIA hosts, vllm#9664, #17972), not a GPU
			// ROCm drives; a Ryzen AI APU's Radeon is one
			// (vllm#28460's "AMD Ryzen AI 9 HX PRO 370 w/ Radeon 890M").
			name: "AMD processors are CPUs",
			check: func(t *testing.T, _ Facts) {
				for _, c := range []struct{ title, body, want string }{
					{"Server hangs after a few requests", "Host: AMD EPYC 7R13 Processor, 8 CPUs; GPU: one L4.", "cuda"},
					{"Slow prefill", "My box is an AMD Ryzen 9 7950X with an RTX 4090.", "cuda"},
					{"rocm crash AMD Ryzen AI 9 HX PRO 370 w/ Radeon 890M", "Crashes at start.", "rocm"},
				} {
					f, _ := Extract(Post{Title: c.title, Body: c.body}, s)
					if f.Platform != c.want || c.want == "cuda" && slices.Contains(f.Topics, "rocm") {
						t.Errorf("platform %q, topics %v, want %s for %q", f.Platform, f.Topics, c.want, c.body)
					}
				}
			},
		},
		{
			// AMD's Radeons named without RX: APUs (Strix Halo's Radeon
			// 8060S, vllm#36615; the Radeon 890M of vllm#28460, on a
			// Ryzen AI part, which is ROCm's as Strix Halo is),
			// workstation cards and the Radeon VII.
			name:     "Radeon GPUs without RX",
			title:    "crash on Radeon 8060S (gfx1151)",
			body:     "Same on my Ryzen AI 9 HX 370 laptop (Radeon 890M), a Radeon Pro W7900 48GB and a Radeon VII; 2x AMD Radeon AI PRO R9700 work.",
			gpus:     []GPU{{Name: "Radeon 8060S"}, {Name: "Radeon 890M"}, {Name: "Radeon Pro W7900", MemoryGiB: 48}, {Name: "Radeon VII"}, {Name: "AMD Radeon AI PRO R9700", Count: 2}},
			platform: "rocm",
		},
		{
			// Strix Halo named by its code name or its Ryzen AI part.
			name:     "Strix Halo is ROCm's",
			title:    "vLLM on Strix Halo: engine core dies",
			body:     "Ryzen AI Max+ 395 with 128 GB, vllm 0.11.0",
			platform: "rocm",
		},
		{
			// A container's entrypoint chosen on the command line runs
			// the arguments after the image: a shell's script ("-c",
			// "-lc"), even one that starts with a command no program
			// names (zai-org/Open-AutoGLM#133), python3's module (corpus
			// #6692), or an interactive shell, which runs no server
			// (vllm-dev C3-005).
			name: "container entrypoint chosen on the command line",
			body: "```\ndocker run --gpus all --entrypoint /bin/bash vllm/vllm-openai:v0.12.0 -c \"rm -rf /dev/shm/x && pip install -U transformers --pre && python3 -m vllm.entrypoints.openai.api_server --model /model --max-model-len 4096\"\ndocker run --gpus all --entrypoint python3 vllm/vllm-openai:v0.5.2 -m vllm.entrypoints.openai.api_server --model m/a --port 5509\ndocker run -it --rm --entrypoint bash vllm/vllm-openai:latest\n```",
			commands: []string{
				"docker run vllm/vllm-openai:v0.12.0 --entrypoint=/bin/bash --gpus=all",
				"pip install transformers --pre -U",
				"vllm serve --max-model-len=4096 --model=/model",
				"docker run vllm/vllm-openai:v0.5.2 --entrypoint=python3 --gpus=all",
				"vllm serve --model=m/a --port=5509",
				"docker run vllm/vllm-openai:latest --entrypoint=bash --rm -it",
			},
		},
		{
			// A title pins the release with one "=" as conda does
			// (vllm-project/vllm#3764); a title that compares two releases
			// of the package does not say which the poster runs (corpus
			// vllm#7240), however the one is written.
			name: "release pinned in a title with one equals sign",
			check: func(t *testing.T, _ Facts) {
				checkTitles(t, s, "vllm", map[string]string{
					"[Bug]: 2080ti 22G * 4, vllm=0.4.0 startup error":                                      "0.4.0",
					"vllm 0.4.0 with torch 2.1.2 fails":                                                    "0.4.0",
					"The new version (v0.5.4) cannot load the model, but the old version (vllm=0.5.3) can": "",
					"The new version (v0.5.4) cannot load the model, but vllm==0.5.3.post1 can":            "",
				}, func(f Facts) string { return f.Versions["vllm"] })
			},
		},
		{
			// The images vLLM's installation guides tag their Dockerfiles
			// with run the server's arguments (the CPU guide's vllm-cpu-env;
			// vllm-project/vllm#20743's vllm-xpu-env; the Gaudi guide's
			// vllm-hpu-env, HabanaAI/vllm-fork#1948).
			name: "the images vLLM's guides build",
			body: "```\ndocker run -it --network=host --device /dev/dri vllm-xpu-env --model \"THUDM/GLM-4.1V-9B-Thinking\" --max-model-len 8192\n```",
			commands: []string{
				"docker run vllm-xpu-env --device=/dev/dri --network=host -it",
				"vllm serve --max-model-len=8192 --model=THUDM/GLM-4.1V-9B-Thinking",
			},
		},
		{
			// A reply that @mentions the bot quotes the post it asks about
			// with Discourse's [quote] BBCode; the closing tag right under
			// a command ends it, as Discourse ends the paragraph (corpus
			// #308 and #677 quoted so: "[/quote]" was read as an option's
			// value and as an image). A command set as inline code ends at
			// its closing backtick after a quoted value (#541's line).
			name:     "a quoted post and a command in inline code",
			body:     "[quote=\"alice, post:1, topic:123\"]\ndocker run vllm/vllm-openai:v0.5.2 --m\n[/quote]\n\nRun `vllm serve m/a --override-generation-config '{\"top_k\": 5}'` then it works.",
			commands: []string{"docker run vllm/vllm-openai:v0.5.2", "vllm serve --m", `vllm serve m/a --override-generation-config={"top_k": 5}`},
		},
		{
			// A variable that holds the server's extra options, as .env
			// files and deployment guides keep them (syv-ai/
			// qwen38-27b-rtx3090#19's EXTRA_ARGS; VLLM_EXTRA_ARGS in many
			// projects' .env files): the options are set, though no
			// command the post shows expands it. One that starts with the
			// model flag is the server's command (vllm-dev B008).
			name: "a variable holding the server's options",
			body: "fixed by adding to the .env\n```\nEXTRA_ARGS='--enable-auto-tool-choice --tool-call-parser hermes'\n```\n",
			check: func(t *testing.T, f Facts) {
				if len(f.Commands) != 0 {
					t.Errorf("commands = %v", f.Commands)
				}
				want := map[string]string{"--enable-auto-tool-choice": "", "--tool-call-parser": "hermes"}
				if !maps.Equal(f.MentionedFlags, want) {
					t.Errorf("mentioned flags = %v, want %v", f.MentionedFlags, want)
				}
			},
		},
		{
			// pip's switches take no value, so the package after them is
			// what it installs: the installation template's "pip install
			// -vvv vllm" (vllm-dev C2-021, corpus #3827 and six more), -U
			// (#9515), uv's --pre (#22519).
			name:     "pip's switches before the package",
			body:     "```sh\npip install -vvv vllm\npip install -U --no-cache-dir vllm\nuv pip install --pre vllm==0.10.1+gptoss\npip install -r requirements.txt\n```",
			commands: []string{"pip install vllm -vvv", "pip install vllm --no-cache-dir -U", "uv pip install vllm==0.10.1+gptoss --pre", "pip install -r=requirements.txt"},
		},
		{
			// A full stop ends a sentence, not the word before it: a
			// version's local label (agentica-project/verl-pipeline#3), a
			// command's last value, a variable's value, an image's tag.
			name:     "full stops after the last word",
			body:     "I'm currently using vllm==0.7.3.dev164+g54ed913f.\n\nexport MODEL_PATH=/data/Qwen2.5-32B-Instruct.\n\nI ran python3 -m vllm.entrypoints.openai.api_server --model $MODEL_PATH --cpu-offload-gb 30. It has no effect.\n\nThe container is nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc2.",
			versions: map[string]string{"vllm": "0.7.3.dev164+g54ed913f", "tensorrt-llm": "1.2.0rc2"},
			models:   []string{"/data/Qwen2.5-32B-Instruct"},
			commands: []string{"vllm serve --cpu-offload-gb=30 --model=/data/Qwen2.5-32B-Instruct"},
		},
		{
			// An option of docker run or podman run followed by another
			// option takes no value, whether it is one docker's pages list
			// or not: switches grouped ("-itd", vllm-project/vllm#17609)
			// and podman's own (--replace, #34573's comment).
			name: "a container runtime's switches",
			body: "```\ndocker run -itd --gpus \"device=4,5,6,7\" --shm-size 32g vllm/vllm-openai:v0.8.5 --model m/a\npodman run -d --replace --name vllm --ipc=host docker.io/vllm/vllm-openai-rocm:v0.20.0 --config /app/config.yaml\n```",
			commands: []string{
				"docker run vllm/vllm-openai:v0.8.5 --gpus=device=4,5,6,7 --shm-size=32g -itd",
				"vllm serve --model=m/a",
				"podman run docker.io/vllm/vllm-openai-rocm:v0.20.0 --ipc=host --name=vllm --replace -d",
				"vllm serve --config=/app/config.yaml",
			},
		},
		{
			// Launch scripts keep the server's flags in a quoted variable,
			// over several lines or grown line by line, and expand it into
			// the command (corpus vllm-project/vllm#13143; cluster scripts
			// of many projects). Double quotes in a value reach the
			// program; single quotes around JSON are read as meant.
			name: "flags kept in a shell variable the command expands",
			body: "```bash\nM=m/unused\nVLLM_ARGS=\"--limit-mm-per-prompt image=2 \\\n--max-model-len 16384\n--mm_processor_kwargs {\\\"max_pixels\\\":1000000} \\\n--model Qwen/Qwen2.5-VL-7B-Instruct\"\nCUDA_VISIBLE_DEVICES=0 python3 -m vllm.entrypoints.openai.api_server ${VLLM_ARGS} --port 8000\n```\n\n```bash\nMODEL=Qwen/Qwen3-8B\nARGS=\"\"\nARGS=\"$ARGS --tensor-parallel-size 2\"\nARGS=\"$ARGS --limit-mm-per-prompt '{\\\"video\\\": 0}'\"\nvllm serve $MODEL $ARGS\n```",
			// $MODEL is its own variable, not $M followed by "ODEL".
			commands: []string{
				`vllm serve --limit-mm-per-prompt=image=2 --max-model-len=16384 --mm-processor-kwargs={"max_pixels":1000000} --model=Qwen/Qwen2.5-VL-7B-Instruct --port=8000`,
				`vllm serve Qwen/Qwen3-8B --limit-mm-per-prompt={"video": 0} --tensor-parallel-size=2`,
			},
		},
		{
			// kubectl describe pod prints a container's command and
			// arguments one element a line under "Command:" and "Args:"
			// (vllm-project/aibrix#1054, vllm-project/production-stack#454
			// and, inside k9s's frame, vllm-project/vllm#18163): with a
			// Command its Args follow it; alone they are the image's
			// entrypoint's; a shell's script printed over several lines
			// is one script. A docstring's "Args:" lists no command.
			name: "command and arguments kubectl describe prints",
			body: "```\nContainers:\n  vllm-openai:\n    Image:         vllm/vllm-openai:v0.7.1\n    Image ID:      docker-pullable://vllm/vllm-openai@sha256:9cd6\n    Command:\n      python3\n      -m\n      vllm.entrypoints.openai.api_server\n      --port\n      8000\n    Args:\n      --model\n      deepseek-ai/DeepSeek-R1-Distill-Llama-8B\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n  other:\n    Image:         vllm/vllm-openai:v0.8.5\n    Args:\n      --model\n      m/b\n      --max-model-len\n      8192\n  script:\n    Image:         vllm/vllm-openai:v0.9.0\n    Command:\n      /bin/sh\n      -c\n    Args:\n      pip install -U transformers\n      vllm serve m/c --port 8000\n```\n\n```python\ndef f(x):\n    \"\"\"Adds.\n\n    Args:\n        x: the --model path\n    \"\"\"\n```",
			commands: []string{
				"vllm serve --model=deepseek-ai/DeepSeek-R1-Distill-Llama-8B --port=8000",
				"vllm serve --max-model-len=8192 --model=m/b",
				"pip install transformers -U",
				"vllm serve m/c --port=8000",
			},
		},
		{
			// The same description copied from k9s's pane, framed by its
			// bars and padded to its width (vllm-project/vllm#18163): the
			// frame is no part of the lines. A table's bars, which only
			// some lines carry, stay.
			name:     "a terminal UI's frame around a description",
			body:     "```\n│     Image:         vllm/vllm-openai:v0.8.5                      │\n│     Args:                                                       │\n│       --model                                                   │\n│       meta-llama/Llama-3.1-8B-Instruct                          │\n│       --max-model-len                                           │\n│       32768                                                     │\n│     State:          Running                                     │\n```",
			commands: []string{"vllm serve --max-model-len=32768 --model=meta-llama/Llama-3.1-8B-Instruct"},
			versions: map[string]string{"vllm": "0.8.5"},
		},
		{
			// YAML folds a plain scalar's lines into one string, so
			// Compose files write the image's arguments one a line under
			// a bare "command:" (vllm-project/vllm#3416; Compose files
			// for vllm/vllm-openai in several projects' guides), or go on
			// under "command: --model x"; a comment ends a line. A bare
			// key over a list is still a list.
			name: "Compose command as a plain scalar over lines",
			body: "```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai:latest\n    shm_size: '10.24gb'\n    command:\n      --model /Qwen1.5-14B-Chat-GPTQ-Int4\n      --tensor-parallel-size 2 # one per GPU\n      # --max-num-seqs 64\n      --enforce-eager\n    ports:\n      - \"8007:8007\"\n  other:\n    image: vllm/vllm-openai:v0.9.0\n    command: --model m/b\n      --max-model-len 8192\n    restart: always\n  listed:\n    image: vllm/vllm-openai:v0.9.0\n    command:\n      - --model\n      - m/c\n```",
			commands: []string{
				"vllm serve --enforce-eager --model=/Qwen1.5-14B-Chat-GPTQ-Int4 --tensor-parallel-size=2",
				"vllm serve --max-model-len=8192 --model=m/b",
				"vllm serve --model=m/c",
			},
		},
		{
			// Tools that reserve a GPU, enter a container or a pod, or
			// set up a Ray cluster run the command after a lone "--"
			// (canhazgpu's `chg run`, in its README and vLLM issues;
			// distrobox; vLLM's multi-node guide's `ray symmetric-run`;
			// `kubectl exec`); uv's `uvx` runs the tool a package
			// installs (launcher and SLURM scripts of many projects). A
			// pack program's own "--" stays its own.
			name: "a command run after a launcher's --, and uvx",
			body: "```bash\nchg run --gpus 2 -- vllm serve a/b -tp 2\nkubectl exec -it vllm-0 -- python3 -m vllm.entrypoints.openai.api_server --model c/d --port 8000\nray symmetric-run --address 10.0.0.1:6379 --min-nodes 2 -- vllm serve e/f --pipeline-parallel-size 2\nuvx --from vllm==0.10.1 vllm serve g/h --max-model-len 8192\nvllm serve i/j --port 1 -- k\n```",
			commands: []string{
				"vllm serve a/b --tensor-parallel-size=2",
				"vllm serve --model=c/d --port=8000",
				"vllm serve e/f --pipeline-parallel-size=2",
				"vllm serve g/h --max-model-len=8192",
				"vllm serve i/j k --port=1",
			},
		},
		{
			// A Python string built from adjacent literals inside
			// parentheses, one a line, then run by a shell (corpus #13669's
			// `command = (` … `)` then subprocess.Popen(command,
			// shell=True); SERVER_CMD, BASE and *_SERVER_COMMAND constants
			// of benchmark and training scripts found with the search
			// tool): the literals are one string.
			name: "a Python command string over adjacent literals",
			body: "```python\nM = \"a/b\"\ncommand = (\n    f\"nohup vllm serve {M} --dtype auto \"  # the model\n    \"--tensor-parallel-size 2 \"\n    '> log.txt 2>&1 &'\n)\nsubprocess.Popen(command, shell=True)\nNOT_ONE = (\n    \"vllm serve c/d --port 1\",\n)\n```",
			commands: []string{
				"vllm serve a/b --dtype=auto --tensor-parallel-size=2",
			},
		},
		{
			// An option's single-quoted JSON value written over lines, as
			// configs are pasted (vllm-ascend#5361's --speculative-config)
			// and requests sent (corpus #21148's and #4747's curl
			// --data-raw '{ … }'): the quote runs on to the line that
			// closes it, and a backslash after it goes on as before.
			name: "an option's quoted JSON value over lines",
			body: "```\nvllm serve a/b \\\n  --max-model-len 2048 \\\n  --speculative-config '{\n    \"method\": \"eagle3\",\n    \"num_speculative_tokens\": 2\n  }' \\\n  --port 8001\ncurl --request POST localhost:8001/v1/completions --header 'Content-Type: application/json' --data '{\n  \"model\": \"a/b\"\n}'\nprint('{')\n```",
			commands: []string{
				"vllm serve a/b --max-model-len=2048 --port=8001 --speculative-config={ \"method\": \"eagle3\", \"num_speculative_tokens\": 2 }",
				"curl localhost:8001/v1/completions --data={ \"model\": \"a/b\" } --header=Content-Type: application/json --request=POST",
			},
		},
		{
			// Scripts start the server from a Python list whose items
			// are names as often as strings (Modal's vLLM example and the
			// apps built on it, corpus vllm#15788; launchers of RL and
			// evaluation projects): a name is the constant the script gave
			// it, or stays as written, so each flag keeps its value; what
			// later lines add to the list is part of it; a splat and a
			// string an excerpt cut off are left out.
			name: "a command built as a Python list of names and strings",
			body: "```python\nMODEL = \"a/b\"\nN_GPU = 2\ncmd = [\n    \"vllm\",\n    \"serve\",\n    MODEL,  # the model\n    \"--served-model-name\", f\"{MODEL}-x\",\n    \"--port\", str(PORT),\n    *EXTRA,\n]\ncmd += [\"--tensor-parallel-size\", str(N_GPU)]\ncmd.extend([\"--max-model-len\", \"8192\"])\ncmd.append(\"--enforce-eager\")\nsubprocess.Popen(cmd)\n```\n\n```python\nsubprocess.run([\"vllm\", \"serve\", \"c/d\", \"--lora-modules\", \"x=/p\", \"y=/q/vision-lo\n```",
			commands: []string{
				"vllm serve a/b --enforce-eager --max-model-len=8192 --port=PORT --served-model-name=a/b-x --tensor-parallel-size=2",
				"vllm serve c/d --lora-modules=x=/p",
			},
		},
		{
			// TRL's generation server for GRPO training starts vLLM's
			// engine with vllm serve's options (TRL's docs and its
			// vllm_serve script, open-r1's README and translations, GRPO
			// launch scripts of several projects): a pack's tool.
			name: "another program's command that runs the server with its options",
			body: "```bash\nCUDA_VISIBLE_DEVICES=0 trl vllm-serve --model a/b --tensor_parallel_size 2 --gpu_memory_utilization 0.5\n```\n\nThen `trl vllm-serve --model c/d --enforce-eager`, and trl sft --model e/f --lr 1 is training.",
			commands: []string{
				"vllm serve --gpu-memory-utilization=0.5 --model=a/b --tensor-parallel-size=2",
				"vllm serve --enforce-eager --model=c/d",
			},
		},
		{
			// A command in a code span ends at the span's closing
			// backtick whatever punctuation the sentence puts after it:
			// "Same command with `… --tensor-parallel-size 2`:" (guides),
			// "(an example: `vllm serve m --max-model-len 8192`)" (model
			// notes). A colon or a bracket was read into the last value.
			name: "a command span followed by a colon or a bracket",
			body: "Started with `vllm serve a/b --max-model-len 4096`: it fails.\n\nThe card says to use it (`vllm serve c/d --dtype float16`) and so did I.",
			commands: []string{
				"vllm serve a/b --max-model-len=4096",
				"vllm serve c/d --dtype=float16",
			},
		},
		{
			// vllm serve reads its settings from a YAML file of long
			// option names (`--config`; vLLM's serve-args docs, deployment
			// guides in Chinese and Korean, vLLM's CPU recipes): a post
			// that pastes the file ran with those settings. The command
			// line wins; false, null and nested settings set nothing; a
			// block that is not a flat mapping is no config file.
			name: "the settings of a config file the command reads",
			body: "Started with `vllm serve --config config.yaml --max-model-len 4096`:\n\n```yaml\n# config.yaml\nmodel: a/b\nhost: \"0.0.0.0\"\nmax-model-len: 65536\ngpu_memory_utilization: 0.9\nenforce-eager: true\nenable-prefix-caching: false\nserved-model-name: ~\ncompilation-config:\n  level: 3\n```\n\nand on the other box `vllm serve c/d --config other.yaml` with\n\n```yaml\nmodel: e/f\ntensor-parallel-size: 2\n```\n\n```yaml\nservices:\n  vllm:\n    image: x\n```",
			commands: []string{
				"vllm serve --config=config.yaml --enforce-eager --gpu-memory-utilization=0.9 --host=0.0.0.0 --max-model-len=4096 --model=a/b",
				"vllm serve c/d --config=other.yaml --tensor-parallel-size=2",
			},
		},
		{
			// A registry mirror serves Docker Hub's image under its own
			// host, the image's path behind it (install scripts and
			// guides pulling docker.m.daocloud.io/vllm/vllm-openai or
			// docker.1panel.live/vllm/vllm-openai; vllm#27251 runs
			// swr.cn-north-4.myhuaweicloud.com/ddn-k8s/docker.io/vllm/vllm-openai):
			// its arguments are the entrypoint's as the image's own are.
			// Another account's image of the same name is not.
			name: "the serving image pulled through a registry mirror",
			body: "`docker run -d   --gpus all   -p 8000:8000   swr.cn-north-4.myhuaweicloud.com/ddn-k8s/docker.io/vllm/vllm-openai:v0.10.2   --model a/b   --max-model-len 50000`\n\n```\ndocker run --gpus all docker.m.daocloud.io/vllm/vllm-openai:latest --model c/d\ndocker run --gpus all localhost:5000/vllm/vllm-openai c/e -tp 2\ndocker run --gpus all someone/vllm-openai --model f/g\n```",
			commands: []string{
				"docker run swr.cn-north-4.myhuaweicloud.com/ddn-k8s/docker.io/vllm/vllm-openai:v0.10.2 --gpus=all -d -p=8000:8000",
				"vllm serve --max-model-len=50000 --model=a/b",
				"docker run docker.m.daocloud.io/vllm/vllm-openai:latest --gpus=all",
				"vllm serve --model=c/d",
				"docker run localhost:5000/vllm/vllm-openai --gpus=all",
				"vllm serve c/e --tensor-parallel-size=2",
				"docker run someone/vllm-openai --gpus=all",
			},
		},
		{
			// production-stack's Helm chart runs `vllm serve <modelURL>`
			// for each model entry of its values file, with the flags its
			// template writes for the entry's keys and its vllmConfig's,
			// then extraArgs (production-stack#407, #512; the chart's
			// tutorials; vLLM's production-stack guide): a pack's chart.
			// The extraArgs list is no command of its own.
			name: "a Helm chart's values file runs its program",
			body: "```yaml\nservingEngineSpec:\n  modelSpec:\n  - name: \"llama3\"\n    repository: \"vllm/vllm-openai\"\n    modelURL: \"meta-llama/Llama-3.1-8B-Instruct\"\n\n    requestGPU: 2\n    vllmConfig:\n      enableChunkedPrefill: false\n      enablePrefixCaching: true\n      maxModelLen: 16384 # long prompts\n      tensorParallelSize: 2\n      extraArgs: [\"--disable-log-requests\", \"--gpu-memory-utilization\", \"0.8\"]\n  - name: \"mistral\"\n    modelURL: mistralai/Mistral-7B-Instruct-v0.2\n    enableTool: true\n    toolCallParser: \"mistral\"\n    vllmConfig:\n      extraArgs:\n        - \"--max-num-seqs\"\n        - \"8\"\nrouterSpec:\n  repository: \"lmcache/lmstack-router\"\n```",
			commands: []string{
				"vllm serve meta-llama/Llama-3.1-8B-Instruct --disable-log-requests --enable-prefix-caching --gpu-memory-utilization=0.8 --max-model-len=16384 --tensor-parallel-size=2",
				"vllm serve mistralai/Mistral-7B-Instruct-v0.2 --enable-auto-tool-choice --max-num-seqs=8 --tool-call-parser=mistral",
			},
		},
		{
			// Evaluation and benchmark scripts gather the engine's
			// settings in a dict and unpack it into the call (`llm =
			// LLM(**llm_kwargs)`, scripts of many projects): the dict's
			// entries, and the keys set one by one below it, are the
			// call's keyword arguments; the call's own win.
			name: "engine settings unpacked from a dict",
			body: "```python\nMODEL = \"Qwen/Qwen3-8B\"\nllm_kwargs = {\n    \"model\": MODEL,\n    \"tensor_parallel_size\": 2,  # two GPUs\n    \"max_model_len\": 4096,\n}\nllm_kwargs[\"enforce_eager\"] = True\nllm = LLM(**llm_kwargs, max_model_len=8192)\nengine_args = dict(model=\"a/b\", gpu_memory_utilization=0.8)\nother = LLM(**engine_args)\n```",
			commands: []string{
				"vllm serve --enforce-eager --max-model-len=8192 --model=Qwen/Qwen3-8B --tensor-parallel-size=2",
				"vllm serve --gpu-memory-utilization=0.8 --model=a/b",
			},
		},
		{
			// Ray Serve LLM passes engine settings in its LLMConfig's
			// engine_kwargs (ray-project/ray#53907, #64466; Ray's guides):
			// they are the engine's flags, as LLM()'s keywords are.
			name:     "Ray Serve LLM engine settings",
			body:     "```python\nllm_config = LLMConfig(\n    model_loading_config=dict(model_id=\"qwen\", model_source=\"/models/Qwen2.5-0.5B-Instruct\"),\n    engine_kwargs=dict(\n        tensor_parallel_size=2,\n        max_model_len=8192,\n    ),\n)\n```",
			commands: []string{"vllm serve --max-model-len=8192 --tensor-parallel-size=2"},
			// The model is the config's model_source, a local path here.
			models: []string{"/models/Qwen2.5-0.5B-Instruct"},
		},
		{
			// A CUDA release glued to "cuda" in an image's tag names a
			// CUDA build, as "+cu128" does: GPUStack's runner images
			// (gpustack/gpustack#3835) and PyTorch's (Dockerfiles of many
			// projects, found with the search tool).
			name:     "CUDA release in an image tag",
			body:     "gpustack.worker.backends.vllm - INFO - With image: gpustack/runner:cuda12.9-vllm0.11.2, arguments: [vllm serve /models/gpt-oss-120b --max-model-len 8192]",
			platform: "cuda",
		},
		{
			name:     "CUDA release in PyTorch's image tag",
			body:     "```\nFROM pytorch/pytorch:2.3.1-cuda12.1-cudnn8-devel\nRUN pip install vllm\n```\nThe server exits at start.",
			platform: "cuda",
		},
		{
			// Ray Serve's application config gives them in YAML, with
			// the model in model_loading_config's model_source (Ray's
			// prefill/decode guides, KubeRay serveConfigV2 examples);
			// a mapping's value is no flag, false sets nothing.
			name:     "Ray Serve engine settings in YAML",
			body:     "```yaml\napplications:\n- args:\n    llm_configs:\n      - model_loading_config:\n          model_id: qwen\n          model_source: /models/Qwen2.5-0.5B-Instruct\n        engine_kwargs:\n          tensor_parallel_size: 2\n          enable_prefix_caching: true\n          enforce_eager: false\n          kv_transfer_config: {kv_connector: NixlConnector}\n```",
			commands: []string{"vllm serve --enable-prefix-caching --model=/models/Qwen2.5-0.5B-Instruct --tensor-parallel-size=2"},
			models:   []string{"/models/Qwen2.5-0.5B-Instruct"},
		},
		{
			// Ray Data's processor config gives them as a dict literal
			// (ray-project/ray#54263, vllm-project/vllm#22843).
			name:     "Ray Data engine settings as a dict literal",
			body:     "```python\nconfig = vLLMEngineProcessorConfig(\n    model_source=\"unsloth/Llama-3.1-8B-Instruct\",\n    engine_kwargs={\n        \"enable_chunked_prefill\": True,\n        \"max_num_batched_tokens\": 4096,\n        \"max_model_len\": 16384,\n        # \"enforce_eager\": True,\n    },\n    concurrency=1,\n)\n```",
			commands: []string{"vllm serve --enable-chunked-prefill --max-model-len=16384 --max-num-batched-tokens=4096"},
		},
		{
			// The platform plugins and their PyTorch backends are
			// packages whose releases an NPU post states (vllm#8054's
			// "torch_npu 版本2.3.1", vllm-ascend#337's pip list), under one
			// name however it is spelled.
			name:     "platform plugin releases",
			body:     "昇腾910B3\n\nvllm                0.7.3+empty\nvllm_ascend          0.1.dev1+g233246d\n\ntorch_npu 版本2.3.1",
			versions: map[string]string{"vllm": "0.7.3+empty", "vllm-ascend": "0.1.dev1+g233246d", "torch-npu": "2.3.1"},
		},
		{
			// An accelerator named with a dash ("npu-910b",
			// vllm-ascend#167; "Ascend-910B" in Ascend's guides) is no
			// model, though "910B" has a parameter count's shape; a
			// model named so still is one.
			name:   "accelerator named like a model",
			title:  "[Usage]: npu-910b 多卡推理可以，但多机部署报错",
			body:   "Same on an Ascend-910B cluster with Qwen2.5-72B-Instruct.",
			models: []string{"Qwen2.5-72B-Instruct"},
		},
		{
			// TPUs, Neuron and Ascend's NPUs run on PyTorch's CPU build:
			// beside their evidence "+cpu" names no platform
			// (vllm-project/tpu-inference#2453's report on a TPU v5e,
			// corpus #13479's TPU requirements); alone it still does.
			name: "CPU build on a plugin accelerator",
			check: func(t *testing.T, _ Facts) {
				for _, c := range []struct{ title, body, want string }{
					{"Cannot run Gemma on TPU v5e", "PyTorch version              : 2.10.0+cpu\nIs debug build               : False", "tpu"},
					{"vLLM on TPU is broken with XLA errors", "ERROR: Could not find a version that satisfies the requirement torch==2.6.0.dev20241216+cpu", "tpu"},
					{"Slow on my laptop", "PyTorch version: 2.6.0+cpu", "cpu"},
				} {
					if f, _ := Extract(Post{Title: c.title, Body: c.body}, s); f.Platform != c.want {
						t.Errorf("platform %q, want %s for %q", f.Platform, c.want, c.title)
					}
				}
			},
		},
		{
			// A Helm chart's release is the deployment's
			// (vllm-project/production-stack#407's "Helm Chart Version:
			// 0.1.2"), not a package's.
			name:     "Helm chart version",
			body:     "Helm Chart Version: 0.1.2\nvLLM version: 0.8.5",
			versions: map[string]string{"vllm": "0.8.5"},
			check: func(t *testing.T, f Facts) {
				if v, ok := f.Versions["chart"]; ok {
					t.Errorf("chart = %s: a Helm chart's release read as a package's", v)
				}
			},
		},
		{
			// A command written in a Chinese sentence ends where the
			// sentence's text is glued to its last word
			// (QwenLM/Qwen3-VL#348; vllm#4597's docker run, whose
			// --gpu-memory-utilization was read as "0.9" and the rest of
			// the sentence), as a link does (reading 51).
			name:     "command glued to CJK text",
			body:     "我用python -m vllm.entrypoints.openai.api_server --served-model-name qwen-vl --model /data/Qwen2-VL启动服务的时候报错了：",
			commands: []string{"vllm serve --model=/data/Qwen2-VL --served-model-name=qwen-vl"},
		},
		{
			// A screenshot is a picture, not the post's words: its default
			// alt text ("image") made every post with one about
			// multimodal models (QwenLM/Qwen3#915's "![image](https://
			// github.com/user-attachments/…)"; Discourse uploads write
			// "![image|690x388](upload://…)"), where the cooked post,
			// which shows the picture, had no such word.
			name: "screenshots embedded in prose",
			body: "Running vllm serve m --max-model-len 4096 fails, see the screenshot: ![image|690x388](upload://aBcD123.png)\n\n![image](https://github.com/user-attachments/assets/19082279-8735) <img width=\"600\" alt=\"image\" src=\"https://example.org/a.png\">\n\nWhat should I do?",
			check: func(t *testing.T, f Facts) {
				if slices.Contains(f.Topics, "multimodal") {
					t.Errorf("topics = %v: a screenshot's alt text read as the post's words", f.Topics)
				}
				if len(f.Commands) != 1 || f.Commands[0].String() != "vllm serve m --max-model-len=4096" {
					t.Errorf("commands = %v", f.Commands)
				}
			},
		},
		{
			// A template's bracketed examples are not the poster's facts:
			// GitHub's default bug report ("Version [e.g. 22]") and the
			// templates written after it (vllm-project/llm-compressor#1550:
			// "ML framework version(s) [e.g. torch 2.3.1]: 2.4.0").
			name: "template placeholders",
			body: "**Environment**\n1. OS [e.g. Ubuntu 20.04]:\n2. Python version [e.g. 3.7]:3.10\n3. LLM Compressor version or commit hash [e.g. 0.1.0, `f7245c8`]: 0.5.2.dev101+g8b2c612f\n4. ML framework version(s) [e.g. torch 2.3.1]: 2.4.0\n5. Other Python package versions [e.g. vLLM, compressed-tensors, numpy, ONNX]: vllm==0.6.3",
			check: func(t *testing.T, f Facts) {
				if want := map[string]string{"vllm": "0.6.3", "python": "3.10"}; !maps.Equal(f.Versions, want) {
					t.Errorf("versions = %v, want %v", f.Versions, want)
				}
			},
		},
		{
			// A model named with its parameter count, whatever its family
			// (vllm-project/vllm#7299 "For Meta-Llama-3.1-70B-Instruct
			// model", #22424 "Voxtral-Small-24B-2507", #31697
			// "HY-MT1.5-1.8B", #223 "fastchat-t5-3b-v1.0"; #6689 serves
			// "Meta-Llama-3___1-405B-Instruct-AWQ-INT4").
			name: "a parameter count makes a name a model's",
			body: "For Meta-Llama-3.1-70B-Instruct model, no usage info is included.\n\nAlso tried HY-MT1.5-1.8B and an A100-80GB, with vllm 0.5.3.",
			check: func(t *testing.T, f Facts) {
				if want := []string{"Meta-Llama-3.1-70B-Instruct", "HY-MT1.5-1.8B"}; !slices.Equal(f.Models, want) {
					t.Errorf("models = %v, want %v", f.Models, want)
				}
			},
		},
		{
			// A command's options pasted without its program, in a code
			// block of their own (vllm-project/vllm#18343's EPLB flags,
			// #22885's tool-calling flags with their backslashes): named,
			// as a code span's flags are, not set by a command.
			name: "a code block of flags alone",
			body: "Start it with\n```\n--enable-eplb\n--num-redundant-experts 32\n```\nand\n```\n--enable-auto-tool-choice \\\n--tool-call-parser hermes \\\n```",
			check: func(t *testing.T, f Facts) {
				want := map[string]string{"--enable-eplb": "", "--num-redundant-experts": "32", "--enable-auto-tool-choice": "", "--tool-call-parser": "hermes"}
				if !maps.Equal(f.MentionedFlags, want) || len(f.Commands) != 0 {
					t.Errorf("mentioned flags %v, commands %v; want %v and no command", f.MentionedFlags, f.Commands, want)
				}
			},
		},
		{
			// A Compose or Kubernetes file's options pasted without the
			// key that held them: as YAML items (vllm-project/vllm#26239's
			// reasoning parser), as quoted strings one a line, one of them
			// left unquoted and the last cut by the excerpt (#17540). They
			// are named, as a block of bare flags is.
			name: "an argument list without its key",
			body: "```\n  - \"--tool-call-parser\"\n  - \"hermes\"\n  - \"--max-model-len=8192\"\n```\nand\n```\n    '--tensor-parallel-size=2'\n    '--enable-prefix-caching'\n    --max-num-seqs 64\n    '--kv-cache-dt\n```",
			check: func(t *testing.T, f Facts) {
				want := map[string]string{"--tool-call-parser": "hermes", "--max-model-len": "8192", "--tensor-parallel-size": "2", "--enable-prefix-caching": "", "--max-num-seqs": "64"}
				if !maps.Equal(f.MentionedFlags, want) || len(f.Commands) != 0 {
					t.Errorf("mentioned flags %v, commands %v; want %v and no command", f.MentionedFlags, f.Commands, want)
				}
			},
		},
		{
			// A model or path written after the options it follows, in a
			// sentence or after a label (vllm-dev B001 runs "vllm serve
			// --port 8085 google/…-it --max-num-seqs 1 …"; C2-014's bold
			// split a path from its last part: "--model /llm/models/
			// **Qwen3-Reranker-8B** --served-model-name …"): a word of code
			// that options follow is an argument, and the options after it
			// are the command's. A word of the sentence ends the command.
			name: "an argument after options in prose",
			body: "Launch command: vllm serve --port 8085 org/some-model-7B --max-num-seqs 1 --enforce-eager\n\n" +
				"Then I ran vllm serve --model /models/ **Other-Model-8B** --dtype=float16 --block-size 64 on the node.\n\n" +
				"I tried vllm serve --max-model-len 4096 but --enforce-eager did not help.\n\n" +
				// The bold's asterisks as a rich-text editor escapes them.
				"Also vllm serve --model /models/ \\*\\*Third-Model-8B\\*\\* --port 9000 --dtype=half here.",
			check: func(t *testing.T, f Facts) {
				got := commandPrints(f)
				want := []string{
					"[org/some-model-7B] map[--enforce-eager: --max-num-seqs:1 --port:8085]",
					"[Other-Model-8B] map[--block-size:64 --dtype:float16 --model:/models/]",
					"[] map[--max-model-len:4096]",
					"[Third-Model-8B] map[--dtype:half --model:/models/ --port:9000]",
				}
				if !slices.Equal(got, want) {
					t.Errorf("commands %q; want %q", got, want)
				}
			},
		},
		{
			// A script's variable given one quoted word, as launch scripts
			// write a model's path (`MODEL_NAME="/models/…"` then `vllm
			// serve $MODEL_NAME`, MiniMax-AI/MiniMax-M2.5#30; `vllm serve
			// "$MODEL_PATH"` in many projects' scripts): the command runs
			// the value, and an exported setting's value is read without
			// its quotes, as the shell reads it.
			name: "a quoted word in a shell variable",
			body: "```bash\nexport MODEL_NAME=\"/models/Some-Model-8B\"\nexport VLLM_USE_V1=\"0\"\nTP='4'\nvllm serve \"$MODEL_NAME\" --tensor-parallel-size $TP\n```",
			check: func(t *testing.T, f Facts) {
				want := []string{"[/models/Some-Model-8B] map[--tensor-parallel-size:4]"}
				if got := commandPrints(f); !slices.Equal(got, want) {
					t.Errorf("commands %q; want %q", got, want)
				}
				if f.Env["VLLM_USE_V1"] != "0" {
					t.Errorf("env %v, want VLLM_USE_V1=0", f.Env)
				}
			},
		},
		{
			// A key's list is the key's, even when its first element
			// shares the key's line (vllm-dev C3-007's `args: [ "--model",
			// …`) or a comment splits it (corpus #16841's commented-out
			// items): read as the command it is, not named again. A list of
			// one element (a diff's "-  --kv-transfer-config …", #24498) or
			// of packages is no argument list.
			name: "lists under a key or of one element",
			body: "```\nimage: vllm/vllm-openai:v0.9.0\nargs: [ \"--model\", \"org/m\",\n        \"--max-model-len\", \"4096\",\n        \"--enforce-eager\"]\n```\n```\ncmd = [\n    \"--port\",\n    \"8000\",\n]\n```\n```\n-  --kv-transfer-config '{\"a\": 1}'\n+  --kv-transfer-config '{\"a\": 2}'\n```\n```\n- \"torch\"\n- \"vllm\"\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.MentionedFlags) != 0 {
					t.Errorf("mentioned flags %v, want none", f.MentionedFlags)
				}
				if len(f.Commands) != 1 || f.Commands[0].Flags["--max-model-len"] != "4096" {
					t.Errorf("commands %v, want the args list's", f.Commands)
				}
			},
		},
		{
			// A JSON exec form whose CMD the post left out still starts
			// with its program (vllm-project/vllm#3090, twice, with
			// backslashes after its lines); a placeholder in angle brackets
			// where the model goes names no model.
			name: "an exec form without its instruction",
			body: "```\n[\"python\", \"-m\", \"vllm.entrypoints.openai.api_server\", \\\n\"--port=8080\", \\\n\"--model=<local_path>\",\n]\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Commands) != 1 || f.Commands[0].Program != "vllm" || f.Commands[0].Flags["--port"] != "8080" {
					t.Fatalf("commands %v, want the list's vLLM server", f.Commands)
				}
				if len(f.Models) != 0 {
					t.Errorf("models %v, want none (a placeholder)", f.Models)
				}
			},
		},
		{
			// The engine's dump of its configuration names every setting,
			// most of them unset ("chat_template=None, quantization=None,
			// enforce_eager=False": vllm-dev B064; corpus #4087, #5566,
			// #16791 and eleven more read topics off it): an unset
			// setting names a feature the poster does not use. A set one
			// still counts.
			name: "unset settings in a configuration dump",
			body: "INFO 07-07 20:12:44 llm_engine.py:72] Initializing an LLM engine with config: model='m', chat_template=None, quantization=awq, tool_call_parser=None, 'reasoning_parser': None, enable_chunked_prefill=False",
			check: func(t *testing.T, f Facts) {
				if slices.Contains(f.Topics, "chat-template") || slices.Contains(f.Topics, "tool-calling") || slices.Contains(f.Topics, "reasoning") {
					t.Errorf("topics = %v: unset settings read as the post's", f.Topics)
				}
				if !slices.Contains(f.Topics, "quantization") {
					t.Errorf("topics = %v, want quantization (set to awq)", f.Topics)
				}
			},
		},
		{
			// A command quoted inside a sentence ends at its closing
			// quote, glued to its last argument or not, and a JSON value
			// in single quotes inside it is part of it (zai-org/GLM-V#8;
			// vllm-dev B066 quotes with spaces inside the quotes): the
			// rest of the sentence is no argument, and no half of the
			// command is a second one.
			name: "command quoted in a sentence",
			body: "i run vllm serve like this \"vllm serve THUDM/GLM-4.1V-9B-Thinking --limit-mm-per-prompt '{\"image\":32}' --allowed-local-media-path /\" but i got TypeError: bad thing\n\n" +
				"Then I launched \"vllm serve m --port 8000\" and then got an error.",
			check: func(t *testing.T, f Facts) {
				got := commandPrints(f)
				want := []string{`[THUDM/GLM-4.1V-9B-Thinking] map[--allowed-local-media-path:/ --limit-mm-per-prompt:{"image":32}]`, `[m] map[--port:8000]`}
				if !slices.Equal(got, want) {
					t.Errorf("commands %q; want %q", got, want)
				}
			},
		},
		{
			// A paste marked with one backtick instead of a fence, left
			// open (vllm#23176: the prompt and the server's log; #13258,
			// #3849) or closed after its last line (#8967): the prompt
			// still starts its line, and the closed span's lines are not
			// glued into one command with the log as its arguments.
			name:     "paste between single backticks",
			body:     "`(vllm2) me@box:~/vllm$ vllm serve \"google/gemma-3-270m\"\nINFO 08-19 13:12:30 [__init__.py:241] Automatically detected platform cuda.\n(APIServer pid=11) INFO 08-19 13:12:33 [api_server.py:1805] vLLM API server version 0.10.1\n\nand\n\n`vllm serve Qwen/Qwen3-8B --max-model-len 4096\n(APIServer pid=12) INFO 08-19 13:12:33 [api_server.py:1805] vLLM API server version 0.10.1\nValueError: bad length`",
			commands: []string{"vllm serve google/gemma-3-270m", "vllm serve Qwen/Qwen3-8B --max-model-len=4096"},
			errors:   []string{"ValueError: bad length"},
			versions: map[string]string{"vllm": "0.10.1"},
		},
		{
			// Example code keeps the call it does not run as a comment
			// beside the one it does (ROCm/legacy-rocm-build#3246), or
			// only the commented one survives a cut (vllm#1910, labelled
			// with no command): a commented-out call runs nothing.
			name: "Python call commented out",
			body: "from vllm import LLM, SamplingParams\n\n# Create an LLM.\nllm = LLM(model=\"facebook/opt-125m\")\n#llm = LLM(model=\"mistralai/Mistral-7B-Instruct-v0.3\")\n\n" +
				"```python\n    # engine = LLM(model='m', tensor_parallel_size=2)\nx = \"#\"; other = LLM(model=\"Qwen/Qwen2-7B\")\n```\n",
			check: func(t *testing.T, f Facts) {
				var models []string
				for _, c := range f.Commands {
					models = append(models, c.Flags["--model"])
				}
				if !slices.Equal(models, []string{"facebook/opt-125m", "Qwen/Qwen2-7B"}) {
					t.Errorf("commands run models %v; want the two calls not commented out", models)
				}
			},
		},
		{
			// Titles repeat the body's error cut at a length, sometimes
			// losing a letter at the front when copied (vllm-dev B005,
			// C3-011, C3-020; corpus vllm#3147, #9515; vllm#16343's
			// "orch.OutOfMemoryError"): one error, the body's whole copy,
			// with the numbers only it has.
			name:  "title repeating the body's error cut short",
			title: "[Bug]: orch.OutOfMemoryError: CUDA out of memory. Tried to allocate 350.00 MiB. GPU 0 has a total capacity of 23.68 GiB of which 212.81",
			body:  "```\nINFO 04-09 05:39:44 [api_server.py:1034] vLLM API server version 0.8.3\nRuntimeError: Engine core initialization failed.\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 350.00 MiB. GPU 0 has a total capacity of 23.68 GiB of which 212.81 MiB is free.\n```",
			check: func(t *testing.T, f Facts) {
				var oom []ErrorInfo
				for _, e := range f.Errors {
					if strings.HasSuffix(e.Type, "OutOfMemoryError") {
						oom = append(oom, e)
					}
				}
				if len(oom) != 1 || oom[0].Type != "torch.OutOfMemoryError" || !strings.HasSuffix(oom[0].Message, "MiB is free.") || oom[0].Numbers["oom_free_gib"] == 0 {
					t.Errorf("errors = %+v; want the body's whole OOM once", f.Errors)
				}
				if f.Errors[0].Type != "torch.OutOfMemoryError" {
					t.Errorf("first error %s; want the one the title names", f.Errors[0].Type)
				}
			},
		},
		{
			// A title that says the body's error and then when or where
			// it happened (arcee-ai/mergekit#524, vllm-project/vllm#19077):
			// one error, the body's, first.
			name:   "title repeating the body's error and saying when",
			title:  "[Bug]: CUDA error: unknown error when running vllm serve on WSL2 Ubuntu22.04",
			body:   "```\nINFO 06-03 19:07:24 api_server.py:835] vLLM API server version 0.7.0\nRuntimeError: CUDA error: unknown error\nCUDA kernel errors might be asynchronously reported at some other API call.\n```\n\nThe lm_eval run stops with NameError: name 'torch' is not defined",
			errors: []string{"RuntimeError: CUDA error: unknown error", "NameError: name 'torch' is not defined"},
		},
		{
			name:   "title repeating the body's error and saying where",
			title:  "NameError: name 'model_name' is not defined when using vllm in lm_eval",
			body:   "```\nTraceback (most recent call last):\n  File \"/x/lm_eval/models/vllm_causallms.py\", line 12, in f\n    return model_name\nNameError: name 'model_name' is not defined\n```",
			errors: []string{"NameError: name 'model_name' is not defined"},
		},
		{
			// A body's message that turns up later in the title's sentence
			// is not the title's error.
			name:   "title naming its own error that contains the body's message",
			title:  "TypeError: the loader found an invalid dtype value in config",
			body:   "```\nValueError: an invalid dtype value\n```",
			errors: []string{"TypeError: the loader found an invalid dtype value in config", "ValueError: an invalid dtype value"},
		},
		{
			// The shell's report of a SIGKILL, the kernel's OOM killer's
			// while a model loads: alone on a line, glued to the progress
			// bar it cut (deepseek-ai/DeepSeek-VL2#90), a script's job
			// report (vectorch-ai/ScaleLLM#38). A sentence that says
			// "killed" is the poster's, not the shell's.
			name:   "the shell's report of a killed process",
			body:   "```\nLoading checkpoint shards:  75%|███████ | 3/4 [00:08<00:02,  2.83s/it]Killed\n```\n\n```\n./entrypoint.sh: line 28:     7 Killed                  /app/bin/server $ARGS\n```\n\nThe worker was killed by something.",
			errors: []string{"signal: Killed"},
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "host-memory") {
					t.Errorf("topics = %q, want host-memory", f.Topics)
				}
			},
		},
		{
			// LiteLLM routes to a vLLM server by the prefix hosted_vllm/
			// (BerriAI/litellm#7744; LiteLLM's documented proxy configs):
			// the model is what follows it, in a config, a call or a
			// sentence.
			name:   "model behind LiteLLM's provider prefix",
			body:   "```yaml\nmodel_list:\n  - model_name: coder\n    litellm_params:\n      model: hosted_vllm/Qwen/Qwen3-Coder-30B-A3B-Instruct\n      api_base: http://gpu-01:8000/v1\n```\n\n```python\nsetup = {'model': 'hosted_vllm/q/Llama-3.3-70B', 'api_base': 'http://h:8080/v1/'}\n```\n\nThe other route, hosted_vllm/qwen3-8b, answers 404.",
			models: []string{"q/Llama-3.3-70B", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3-8b"},
		},
		{
			name:  "title naming another error than the body's first",
			title: "ValueError: Model architectures ['FooForCausalLM'] are not supported for now",
			body:  "```\nsubprocess.CalledProcessError: Command returned non-zero exit status 1.\nValueError: Model architectures ['FooForCausalLM'] are not supported for now. Supported architectures: ['LlamaForCausalLM']\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) != 2 || f.Errors[0].Type != "ValueError" || !strings.Contains(f.Errors[0].Message, "Supported architectures") {
					t.Errorf("errors = %+v; want the body's ValueError first, then the CalledProcessError", f.Errors)
				}
			},
		},
		{
			// Before 0.9 the dump lists every setting, set or not, and
			// some at their defaults name a feature: the backend for
			// structured output ("guided_decoding_backend='outlines'"),
			// the GPU memory share (0.9). Corpus #4087, #4650, #4996,
			// #5566, #5828 and #14887 and vllm-dev B064 were tagged
			// structured-output by their dumps alone. A value other than
			// the default is the poster's, and a feature named in prose
			// still counts.
			name: "defaults in a configuration dump",
			body: "INFO 07-12 19:04:13 api_server.py:207] args: Namespace(host='0.0.0.0', port=3521, model='m', gpu_memory_utilization=0.9, cpu_offload_gb=0, guided_decoding_backend='outlines', tokenizer_pool_type='ray', quantization=None)\n" +
				"INFO 07-12 19:04:14 llm_engine.py:169] Initializing an LLM engine (v0.7.3) with config: model='m', decoding_config=DecodingConfig(guided_decoding_backend='xgrammar'), seed=0",
			check: func(t *testing.T, f Facts) {
				for _, tag := range []string{"structured-output", "memory", "cpu-offload", "ray"} {
					if slices.Contains(f.Topics, tag) {
						t.Errorf("topics = %v: a default setting read as the post's %s", f.Topics, tag)
					}
				}
			},
		},
		{
			name: "a setting the dump prints at another value than its default",
			body: "INFO 07-12 19:04:13 api_server.py:207] args: Namespace(host='0.0.0.0', port=3521, model='m', gpu_memory_utilization=0.5, guided_decoding_backend='lm-format-enforcer', quantization=None)\n" +
				"Requests with response_format json_schema return garbage.",
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "structured-output") || !slices.Contains(f.Topics, "memory") {
					t.Errorf("topics = %v, want structured-output and memory (set away from the defaults)", f.Topics)
				}
			},
		},
		{
			// "Image" in a post about containers is the container's
			// (vllm-dev B012, B016, C1-026, C3-005, C3-017, C3-020;
			// vllm#5366's "Docker image starts …"); a picture is still
			// one when the post is about pictures (B068).
			name:  "container image is not a picture",
			title: "Docker image starts the api_server but does not listen",
			body:  "We run the official docker image vllm/vllm-openai:v0.8.5.\nImage tag: v0.8.5",
			check: func(t *testing.T, f Facts) {
				if slices.Contains(f.Topics, "multimodal") {
					t.Errorf("topics = %v: a container image read as a picture", f.Topics)
				}
				if !slices.Contains(f.Topics, "docker") {
					t.Errorf("topics = %v, want docker", f.Topics)
				}
			},
		},
		{
			name:  "pictures in a post not about containers",
			title: "Model fails when given more than 1 image",
			body:  "vllm serve m/x --max-model-len 4096\nThe request carries two images.",
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "multimodal") {
					t.Errorf("topics = %v, want multimodal", f.Topics)
				}
			},
		},
		{
			// The stated goal runs to the end of its sentence, past the
			// dots of versions, model names and hosts (vllm-dev C2-018's
			// "GLM-4.7-Flash", C3-020's modelscope.cn link, vllm#18163's
			// "vllm `0.8.5`").
			name: "intent past the dots of names",
			body: "I'm deploying GLM-4.7-Flash on vLLM 0.16.0 with tool calling turned on. But it fails.",
			check: func(t *testing.T, f Facts) {
				if want := "I'm deploying GLM-4.7-Flash on vLLM 0.16.0 with tool calling turned on"; f.Intent != want {
					t.Errorf("intent = %q, want %q", f.Intent, want)
				}
			},
		},
		{
			// A package glued to its version, in titles and Chinese posts
			// (vllm#10116 "vllm0.6.3.post1 … on wsl", #4140 "WSL2中
			// vllm0.4.0 无法启动", #13252 "Using VLLM0.7.2 server"), or
			// named as a wheel; not inside a path or a longer name.
			name:  "package glued to its version",
			title: "[Bug]: win10 WSL2中vllm0.4.0 无法启动",
			body:  "Installed from torch-2.3.1 wheels; see /opt/vllm0.9.9/bin and libvllm1.2.3.",
			check: func(t *testing.T, f Facts) {
				if want := map[string]string{"vllm": "0.4.0", "torch": "2.3.1"}; !maps.Equal(f.Versions, want) {
					t.Errorf("versions = %v, want %v", f.Versions, want)
				}
			},
		},
		{
			// pip's own failures (vllm#799, #1391, #13518): a build
			// failure is one error however pip words it; an exception in
			// the build's log comes before it.
			name: "pip build failure",
			body: "```\n  error: subprocess-exited-with-error\n\n  × Building wheel for vllm (pyproject.toml) did not run successfully.\n  │ exit code: 1\n  ╰─> [138 lines of output]\n      running bdist_wheel\n      OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\nERROR: Failed building wheel for vllm\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) != 2 || f.Errors[0].Type != "OSError" || f.Errors[1].Type != "pip-error" || f.Errors[1].Message != "Failed building wheel for vllm" {
					t.Errorf("errors = %+v, want the OSError, then one pip build failure", f.Errors)
				}
				if !slices.Contains(f.Topics, "installation") {
					t.Errorf("topics = %v, want installation", f.Topics)
				}
			},
		},
		{
			name: "pip resolution failure",
			body: "ERROR: Could not find a version that satisfies the requirement vllm==0.9.9 (from versions: none)\nERROR: No matching distribution found for vllm==0.9.9",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || f.Errors[0].Type != "pip-error" {
					t.Errorf("errors = %+v, want a pip error", f.Errors)
				}
			},
		},
		{
			// Raw HTML in a Markdown post is read as HTML: GitHub's
			// issue form puts the command in a <summary> (vllm#19077),
			// after prose that a Markdown reader keeps as prose.
			name: "command in an HTML summary inside Markdown",
			body: "Then I executed 'vllm serve' (see below).\n\n<details>\n<summary>The output of run <code>vllm serve /root/m/QwQ-32B/ --tensor-parallel-size 2 --max-model-len 1024</code></summary>\n\nlog\n</details>",
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.String() != "vllm serve /root/m/QwQ-32B/ --max-model-len=1024 --tensor-parallel-size=2" {
					t.Errorf("command = %v", c)
				}
			},
		},
		{
			// env runs the command after its assignments, which are the
			// command's environment, as launcher scripts write it
			// ("exec env VLLM_LOGGING_LEVEL=INFO .venv_vllm/bin/python -m
			// vllm.entrypoints.openai.api_server …"); assignments before
			// a wrapper are kept too ("CUDA_VISIBLE_DEVICES=0,1 nohup
			// vllm serve …").
			name: "env and other wrappers with assignments",
			body: "```bash\nexec env VLLM_LOGGING_LEVEL=INFO .venv_vllm/bin/python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-1.5B-Instruct --dtype auto\nCUDA_VISIBLE_DEVICES=0,1 nohup vllm serve Qwen/Qwen3-8B -tp 2 &\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Commands) != 2 || f.Commands[0].Env["VLLM_LOGGING_LEVEL"] != "INFO" || f.Commands[1].Env["CUDA_VISIBLE_DEVICES"] != "0,1" {
					t.Errorf("commands = %+v, want two with their environments", f.Commands)
				}
				if c := f.MainCommand(s); c == nil || c.String() != "vllm serve --dtype=auto --model=Qwen/Qwen2.5-1.5B-Instruct" {
					t.Errorf("command = %v", c)
				}
			},
		},
		{
			// A systemd unit runs vLLM as a service: ExecStart= is the
			// command, Environment= its settings (deployment guides and
			// install scripts of many projects write one).
			name: "systemd unit",
			body: "```ini\n[Service]\nEnvironment=\"VLLM_ATTENTION_BACKEND=FLASHINFER\"\nExecStart=/usr/local/bin/vllm serve Qwen/Qwen3-4B-Instruct-2507-FP8 \\\n  --max-model-len 131072 \\\n  --gpu-memory-utilization 0.95\nRestart=on-failure\n```",
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.String() != "vllm serve Qwen/Qwen3-4B-Instruct-2507-FP8 --gpu-memory-utilization=0.95 --max-model-len=131072" {
					t.Errorf("command = %v", c)
				}
				if f.Env["VLLM_ATTENTION_BACKEND"] != "FLASHINFER" {
					t.Errorf("env = %v", f.Env)
				}
			},
		},
		{
			// An installed program's path is not a model directory:
			// docker exec running a venv's python (docker/model-runner
			// #1018), a frame's site-packages.
			name: "program paths are not models",
			body: "```\n> docker exec docker-model-runner /opt/vllm-env/bin/python -c \"import torch; print(torch.__version__)\"\n2.11.0+cpu\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Models) != 0 {
					t.Errorf("models = %v, want none", f.Models)
				}
			},
		},
		{
			// A Compose command written as one string, on its line or as
			// a folded block, is the image's entrypoint arguments
			// ("command: --model Qwen/Qwen2-VL-7B-Instruct" and "command:
			// --model=zai-org/GLM-5-FP8" under vllm/vllm-openai in two
			// projects' Compose files); under an image no pack knows it
			// is that image's (text-embeddings-inference's --model-id).
			name: "Compose command as a string",
			body: "```yaml\nservices:\n  tei:\n    image: ghcr.io/huggingface/text-embeddings-inference:latest\n    command: --model-id BAAI/bge-m3 --port 8000\n  vllm:\n    image: vllm/vllm-openai:nightly\n    command: >\n      --model=zai-org/GLM-5-FP8\n      --tensor-parallel-size 8\n```",
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.String() != "vllm serve --model=zai-org/GLM-5-FP8 --tensor-parallel-size=8" {
					t.Errorf("command = %v", c)
				}
				for _, c := range f.Commands {
					if _, ok := c.Flags["--model-id"]; ok {
						t.Errorf("command %v: another image's arguments read as vLLM's", c)
					}
				}
			},
		},
		{
			// vLLM's server logs the arguments it was started with
			// ("non-default args: {…}", since 0.9); a posted log is often
			// all a post shows of its command (corpus #18567, #20025,
			// #23321, #31936, vllm-dev C1-026 from a ROCm user). They are
			// the post's flags; the positional model, None and False, and
			// nested settings are not.
			name: "the engine's logged arguments",
			body: "```\nINFO 08-25 14:50:36 [cli_args.py:325] non-default args: {'model_tag': 'm/x', 'host': '0.0.0.0', 'model': '/w/llama3_8B', 'max_model_len': 16384, 'served_model_name': ['moe'], 'compilation_config': {'level': 3, 'sizes': [1, 2]}, 'tensor_parallel_size': 4, 'enable_prefix_caching': False, 'chat_template': None, 'trust_remote_code': True, 'gpu_memory_utilization': 0.95}\n```",
			check: func(t *testing.T, f Facts) {
				want := map[string]string{"--host": "0.0.0.0", "--model": "/w/llama3_8B", "--max-model-len": "16384", "--served-model-name": "moe",
					"--tensor-parallel-size": "4", "--trust-remote-code": "", "--gpu-memory-utilization": "0.95"}
				if !maps.Equal(f.MentionedFlags, want) {
					t.Errorf("mentioned flags = %v, want %v", f.MentionedFlags, want)
				}
			},
		},
		{
			// lm-evaluation-harness starts vLLM's engine with `--model
			// vllm` and passes it its arguments as one key=value list
			// (vllm#18565 on ROCm, the harness's issues #1734 and #2904,
			// the docs' quantization pages): the list is a vLLM command's
			// flags, its model key the model, a shell variable no model;
			// the harness's command stays as written. Another harness model
			// (`--model hf`) runs no vLLM.
			name:   "evaluation harness running vLLM",
			body:   "```\nHIP_VISIBLE_DEVICES=4 lm_eval --model vllm --model_args pretrained=tiiuae/Falcon-H1-0.5B-Instruct,tensor_parallel_size=2,trust_remote_code=True,enforce_eager=False --tasks gsm8k --batch_size auto\n```\n\n```\npython -m lm_eval --model vllm --model_args pretrained=$MODEL,data_parallel_size=4 --tasks humaneval\nlm_eval --model hf --model_args pretrained=gpt2 --tasks arc_easy\n```",
			models: []string{"tiiuae/Falcon-H1-0.5B-Instruct", "gpt2"},
			commands: []string{"lm_eval --batch-size=auto --model=vllm --model-args=pretrained=tiiuae/Falcon-H1-0.5B-Instruct,tensor_parallel_size=2,trust_remote_code=True,enforce_eager=False --tasks=gsm8k", "vllm --model=tiiuae/Falcon-H1-0.5B-Instruct --tensor-parallel-size=2 --trust-remote-code",
				"lm_eval --model=vllm --model-args=pretrained=$MODEL,data_parallel_size=4 --tasks=humaneval", "vllm --data-parallel-size=4 --model=$MODEL", "lm_eval --model=hf --model-args=pretrained=gpt2 --tasks=arc_easy"},
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.Program != "lm_eval" || c.Flags["--model"] != "vllm" {
					t.Errorf("main command = %+v, want lm_eval's, as the post ran it", c)
				}
				if v, ok := f.Flag("--tensor-parallel-size"); !ok || v != "2" {
					t.Errorf("--tensor-parallel-size = %q, %v; want 2 from the harness's list", v, ok)
				}
				if f.Env["HIP_VISIBLE_DEVICES"] != "4" {
					t.Errorf("env = %v", f.Env)
				}
			},
		},
		{
			// A traceback the rich library drew in a box is a traceback:
			// its frames name their packages (llm-foundry's in
			// VinAIResearch/PhoGPT#28, a box with "╭"; a plain terminal's
			// "┌" box with a Windows path wrapped at the edge, as a
			// speaker-labelling script's and text-generation-webui's
			// show), and the exception after the box takes them.
			name: "rich traceback in a box",
			body: "```\n╭──────── Traceback (most recent call last) ────────╮\n│ /home/u/.venv/lib/python3.10/site-packages/llmfoundry/models/mpt/modeling_mpt.py:50 in │\n│ forward                                            │\n│    49 │   │   x = self.ln(x)                       │\n│ ❱  50 │   │   n = self.ffn(m)                      │\n│ /usr/lib/python3/dist-packages/torch/nn/modules/module.py:1511 in _wrapped_call_impl │\n╰────────────────────────────────────────────────────╯\nOutOfMemoryError: CUDA out of memory. Tried to allocate 3.94 GiB.\n```\n\n```\n┌───── Traceback (most recent call last) ─────┐\n│ C:\\Users\\me\\envs\\a\\Lib\\site-packages\\pyannote\\audio\\pipel │\n│ ines\\speaker.py:76 in main                     │\n│    75 │   segments = pipeline(audio)             │\n└─────────────────────────────────────────────┘\nValueError: too many values to unpack (expected 2)\n```",
			check: func(t *testing.T, f Facts) {
				packages := map[string][]string{}
				for _, e := range f.Errors {
					packages[e.Type] = e.Packages
				}
				if len(f.Errors) != 2 || !slices.Equal(packages["OutOfMemoryError"], []string{"llmfoundry", "torch"}) ||
					!slices.Equal(packages["ValueError"], []string{"pyannote"}) {
					t.Errorf("errors = %+v, want the OOM with llmfoundry's and torch's frames and the ValueError with pyannote's", f.Errors)
				}
			},
		},
		{
			// A traceback's head glued to the end of another line is
			// still its head: after a progress bar's last redraw
			// (AITextGenerator#10), a logger's prefix (ParlAI#4452's
			// "rank:  3 | … CRITICAL | Traceback …") or vLLM's worker
			// message announcing it (corpus #7800: "Exception in worker
			// …: NCCL error: …, Traceback …"), whose message no longer
			// runs on into the head.
			name: "traceback head glued to a line",
			body: "```\nIteration:  20% 989/5070 [00:13<08:41,  7.83it/s]Traceback (most recent call last):\n  File \"/usr/local/lib/python3.7/dist-packages/torch/tensor.py\", line 198, in backward\n    torch.autograd.backward(self)\nRuntimeError: CUDA out of memory. Tried to allocate 194.00 MiB\n(VllmWorkerProcess pid=232) ERROR 08-23 08:25:25 multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while processing method init_device: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), Traceback (most recent call last):\n(VllmWorkerProcess pid=232) ERROR 08-23 08:25:25 multiproc_worker_utils.py:226]   File \"/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py\", line 132, in init_device\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || f.Errors[0].Type != "RuntimeError" || !slices.Equal(f.Errors[0].Packages, []string{"torch"}) {
					t.Errorf("errors = %+v, want the RuntimeError with torch's frames first", f.Errors)
				}
				for _, e := range f.Errors {
					if e.Kind == "nccl-error" && strings.Contains(e.Message, "Traceback") && e.Type == "nccl-error" {
						t.Errorf("the NCCL message runs on into the traceback's head: %+v", e)
					}
				}
			},
		},
		{
			// An ellipsis stands for the arguments a writer left out
			// ("vllm serve ... --enforce-eager" in a debugging guide's
			// bisect steps, "vllm serve ... --worker-extension-cls \\" in
			// an RL framework's usage notes, "--model MODELNAME ..." in
			// vllm#5102): it is no argument and no flag's value.
			name:     "an ellipsis is no argument",
			body:     "```bash\nvllm serve ... --enforce-eager\npython -m vllm.entrypoints.openai.api_server --model MODELNAME ... --max-model-len 4096\nvllm serve Qwen/Qwen2-7B-Instruct --tensor-parallel-size … --port 8000\n```",
			commands: []string{"vllm serve --enforce-eager", "vllm serve --max-model-len=4096 --model=MODELNAME", "vllm serve Qwen/Qwen2-7B-Instruct --port=8000 --tensor-parallel-size"},
		},
		{
			// A folded Compose command is one command: its "--model x"
			// line, read again as a line of bare engine arguments, was a
			// second command holding only the model, and under another
			// image (llama.cpp's server, beside a vLLM service in one RAG
			// deploy script's Compose file) a vLLM command that never
			// runs. Compose files of many projects start a folded
			// command with --model (a VLM server's, an open model
			// gateway's, an air-gapped gpt-oss deployment's).
			name: "folded Compose command read once",
			body: "```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.6.4\n    command: >\n      --model /models/gemma-4-26b-it-GGUF/gemma-4-26b-it-Q4_K_M.gguf\n      --port 8000\n      --max-model-len 65536\n    restart: unless-stopped\n  vllm-cpu:\n    image: ghcr.io/ggerganov/llama.cpp:server\n    command: >\n      --model /models/gemma-4-26b-it-GGUF/gemma-4-26b-it-Q4_K_M.gguf\n      --ctx-size 65536\n      --n-gpu-layers 0\n```\n\n```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: >\n      --model Qwen/Qwen2.5-VL-7B-Instruct-AWQ\n      --quantization awq\n    runtime: nvidia\n```",
			commands: []string{
				"vllm serve --max-model-len=65536 --model=/models/gemma-4-26b-it-GGUF/gemma-4-26b-it-Q4_K_M.gguf --port=8000",
				"vllm serve --model=Qwen/Qwen2.5-VL-7B-Instruct-AWQ --quantization=awq",
			},
		},
		{
			// The OpenAI-compatible server's error object, relayed by a
			// client that cut its "type" off (mike-nott/mcp-assist#21:
			// Home Assistant's "vllm API error 400: {"object":"error",
			// "message":…"), is an api-error with its message; with its
			// "type" it is that class (corpus #4667, #15016).
			name: "API error object without its type",
			body: `An unexpected error occurred while talking to vLLM. The error was: vllm API error 400: {"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-ch. Check the logs".`,
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) != 1 || f.Errors[0].Type != "api-error" || !strings.HasPrefix(f.Errors[0].Message, `"auto" tool choice requires`) {
					t.Errorf("errors = %+v, want one api-error with the message", f.Errors)
				}
			},
		},
		{
			name: "API error object with its type",
			body: `openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'Prompt cannot be empty', 'type': 'BadRequestError', 'param': None, 'code': 400}`,
			check: func(t *testing.T, f Facts) {
				if slices.ContainsFunc(f.Errors, func(e ErrorInfo) bool { return e.Type == "api-error" }) {
					t.Errorf("errors = %+v: the typed body read twice", f.Errors)
				}
			},
		},
		{
			// Shell themes end their prompts in a glyph: starship's and
			// pure's "❯" ("<repo_root> main ❯ bash …", vllm-dev C1-024;
			// "✦ ❯ vllm serve …" and "❯ vllm serve …" in two projects'
			// notes), oh-my-zsh's "➜  dir git:(main) ✗", "λ".
			name: "themed shell prompts",
			body: "```\n✦ ❯ vllm serve Qwen/Qwen2.5-1.5B-Instruct --gpu-memory-utilization 0.3\n➜  vllm git:(main) ✗ vllm serve m/y --port 1\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Commands) != 2 || f.Commands[0].String() != "vllm serve Qwen/Qwen2.5-1.5B-Instruct --gpu-memory-utilization=0.3" || f.Commands[1].String() != "vllm serve m/y --port=1" {
					t.Errorf("commands = %v", f.Commands)
				}
			},
		},
		{
			// A placeholder in angle brackets is a word, not a shell
			// redirection that swallows the options after it ("vllm serve
			// <model> --host 0.0.0.0 --port 8000" in guides; "vllm serve
			// <模型名称> --tensor-parallel-size 1"; "bash
			// <repo_root>/vllm_infer/run_vllm_server.sh", vllm-dev
			// C1-024, in prose too). A directory named like the program
			// ("vendored `vllm/`") and the program named alone run nothing.
			name: "placeholders in angle brackets",
			body: "Repo: HunyuanImage-3.0 with vendored `vllm/`.\n\n```bash\nvllm serve <model> --host 0.0.0.0 --port 8000\n```\n\nThen I ran bash <repo_root>/vllm_infer/run_vllm_server.sh and it failed.",
			check: func(t *testing.T, f Facts) {
				if c := f.MainCommand(s); c == nil || c.String() != "vllm serve <model> --host=0.0.0.0 --port=8000" {
					t.Errorf("command = %v", c)
				}
				if !slices.ContainsFunc(f.Commands, func(c Command) bool { return c.String() == "bash <repo_root>/vllm_infer/run_vllm_server.sh" }) {
					t.Errorf("commands = %v, want the script run too", f.Commands)
				}
				if slices.ContainsFunc(f.Commands, func(c Command) bool { return c.Program == "vllm" && c.Subcommand == "" && len(c.Flags) == 0 }) {
					t.Errorf("commands = %v: a directory read as the program", f.Commands)
				}
			},
		},
		{
			// An error quoted in a sentence ends at its closing quote
			// (vllm-dev B016, a vLLM forum post: "keeps giving me
			// `RuntimeError: FlashAttention only supports AMD MI200 GPUs
			// or newer.` and I don't see why"; vllm#19077: "Then, \"CUDA
			// error: unknown error\" is thrown before loading module").
			name:   "error quoted in a sentence",
			body:   "My RX 6800 keeps giving me `RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.` and I don't see why.\nThen \"KeyError: 'model.layers.0.mlp'\" when loading.\nThen, \"CUDA error: unknown error\" is thrown before loading module.",
			errors: []string{"RuntimeError: FlashAttention only supports AMD MI200 GPUs or newer.", "KeyError: 'model.layers.0.mlp'", "cuda-error: unknown error"},
		},
		{
			// A parallel size of 1 is one GPU: posts paste the flag with
			// its default (vllm-dev C1-015, C1-039, C2-004; vllm#5366's
			// --tensor-parallel-size=1).
			name: "parallel size of one",
			body: "vllm serve m/x --tensor-parallel-size 1 --pipeline-parallel-size 1\nvllm serve m/y -tp 2",
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "multi-gpu") {
					t.Errorf("topics = %v, want multi-gpu from the second command's -tp 2", f.Topics)
				}
			},
		},
		{
			name: "parallel size of one alone",
			body: "vllm serve m/x --tensor-parallel-size=1",
			check: func(t *testing.T, f Facts) {
				if slices.Contains(f.Topics, "multi-gpu") {
					t.Errorf("topics = %v: a parallel size of 1 read as several GPUs", f.Topics)
				}
			},
		},
		{
			// The executor backend names Ray only as "ray": vllm-dev
			// C3-007's Kubernetes args say "mp" (multiprocessing), which
			// had tagged it ray; corpus issues set "ray" five times.
			name: "executor backend other than ray",
			body: "vllm serve m/x --distributed-executor-backend mp -tp 4",
			check: func(t *testing.T, f Facts) {
				if slices.Contains(f.Topics, "ray") {
					t.Errorf("topics = %v: the mp backend read as Ray", f.Topics)
				}
			},
		},
		{
			// The KV cache's default type pasted with the rest of a
			// command (vllm-dev B011, vllm#28270) is no KV cache topic.
			name: "kv cache dtype auto",
			body: "vllm serve m/x --kv-cache-dtype auto --max-model-len 8192",
			check: func(t *testing.T, f Facts) {
				if slices.Contains(f.Topics, "kv-cache") {
					t.Errorf("topics = %v: the default kv cache type read as a kv cache topic", f.Topics)
				}
			},
		},
		{
			name: "executor backend ray",
			body: "vllm serve m/x --distributed-executor-backend=Ray -tp 4",
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "ray") {
					t.Errorf("topics = %v, want ray", f.Topics)
				}
			},
		},
		{
			// A pydantic ValidationError names only the model on its own
			// line; the validator's message is on a line below, as
			// vLLM's configuration classes raise it (corpus #28981 and
			// #42963, intel/intel-xpu-backend-for-triton#7166).
			name: "pydantic validation error",
			body: "```\n(APIServer pid=63635) pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n(APIServer pid=63635)   Value error, max_num_batched_tokens (2048) is smaller than max_model_len (40960). This effectively limits the maximum sequence length. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) != 1 || !strings.HasPrefix(f.Errors[0].Message, "max_num_batched_tokens (2048) is smaller than max_model_len (40960)") || strings.Contains(f.Errors[0].Message, "[type=") {
					t.Errorf("errors = %+v", f.Errors)
				}
			},
		},
		{
			// NVIDIA products the pack's hardware words name since this
			// change: "GPU: NVIDIA GH200 480GB" (vllm-project/vllm#39273),
			// "setup issues on B300" (vllm-project/vllm#30441).
			name:  "Grace Hopper and Blackwell Ultra cards",
			title: "[Usage]: vllm serve setup issues on B300",
			body:  "- GPU: NVIDIA GH200 480GB",
			check: func(t *testing.T, f Facts) {
				if want := []GPU{{Name: "B300"}, {Name: "NVIDIA GH200", MemoryGiB: 480}}; !slices.Equal(f.GPUs, want) {
					t.Errorf("gpus = %+v, want %+v", f.GPUs, want)
				}
				if f.Platform != "cuda" {
					t.Errorf("platform = %q, want cuda", f.Platform)
				}
			},
		},
		{
			// A GeForce card named by its model number alone, with a word
			// around it that says a card is meant: a count ("4*4090 24g",
			// vllm-project/vllm#15457; "with 2 4090", #3710), "my" ("my
			// 4080 only has 16gb vram", #16538), "在 … 上" (a vllm-dev
			// post), "N卡" (双卡4090 in many Chinese notes, vllm#15529's
			// "4卡4090"); a Chinese count before the measure word counts
			// the cards (两张 is two). It is an NVIDIA card, so the post
			// runs CUDA. A bare number that is a port, a count of tokens
			// or a line is none.
			name: "GeForce model numbers without RTX",
			body: "I have 4*4090 24g. 在 5090 上部署也不行。机器是两张3090的。另一台双卡4080。\nvllm serve m --port 3090\nProcessed 4090 tokens\n  File \"x.py\", line 5080, in f",
			check: func(t *testing.T, f Facts) {
				want := []GPU{{Name: "RTX 4090", Count: 4}, {Name: "RTX 5090"}, {Name: "RTX 3090", Count: 2}, {Name: "RTX 4080", Count: 2}}
				if !slices.Equal(f.GPUs, want) {
					t.Errorf("gpus = %+v, want %+v", f.GPUs, want)
				}
				if f.Platform != "cuda" {
					t.Errorf("platform = %q, want cuda", f.Platform)
				}
			},
		},
		{
			// A count glued after a product's name, as titles write a
			// host's cards: "DeepSeek R1 H20x16 pp2" (vllm-project/vllm
			// #15332), "on H100x8*2 devices" (#13121, eight cards on each
			// of two hosts). A name glued to what is no product ("GX10x2")
			// stays unread.
			name: "a count glued to a card's name",
			body: "DeepSeek R1 H20x16 pp2 fails. The other cluster is H100x8*2 devices and an L40Sx2 box; my GX10x2 is fine.",
			gpus: []GPU{{Name: "H20", Count: 16}, {Name: "H100", Count: 8}, {Name: "L40S", Count: 2}},
		},
		{
			// A structured-output backend's own error, in a pasted log
			// whose words the topic rules do not read (z-lab/paroquant#31:
			// "ValueError: The provided JSON schema contains features not
			// supported by xgrammar." and "Grammar error: Unknown format:
			// uri"), tags the post as about structured output.
			name:  "a structured-output backend's error",
			title: "vllm 0.19 + paroquant fails",
			body:  "```\n(APIServer pid=1) ERROR 04-09 05:47:15 [serving.py:1262] ValueError: Grammar error: Unknown format: uri\n(APIServer pid=1) Traceback (most recent call last):\n(APIServer pid=1)   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/structured_output/backend_xgrammar.py\", line 308, in validate_xgrammar_grammar\n(APIServer pid=1)     raise ValueError(\n(APIServer pid=1) ValueError: The provided JSON schema contains features not supported by xgrammar.\n```",
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "structured-output") {
					t.Errorf("topics = %v, want structured-output", f.Topics)
				}
			},
		},
		{
			// vLLM's bug template names the command whose output it asks
			// for ("<summary>The output of <code>python
			// collect_env.py</code></summary>", its placeholder "Your
			// output of `python collect_env.py` here"; vllm-dev C1-017
			// and C2-033 kept the template's text): the template's, not a
			// command the poster ran. One the poster says they ran is.
			name: "the bug template's collect_env command",
			check: func(t *testing.T, _ Facts) {
				checkBodies(t, s, "commands", map[string]int{
					"<details>\n<summary>The output of <code>python collect_env.py</code></summary>\n\n```text\nYour output of `python collect_env.py` here\n```\n\n</details>\n\nIt crashes.": 0,
					"The output of `python collect_env.py`\n\nIt crashes.":          0,
					"I ran `python collect_env.py` and it failed with a traceback.": 1,
				}, func(f Facts) int { return len(f.Commands) }, func(a, b int) bool { return a == b })
			},
		},
		{
			// Ubuntu's server edition by name ("Ubuntu Server 24.04 LTS",
			// vllm-project/vllm#22072) and the release glued to the name
			// as titles write it ("WSL2 Ubuntu22.04", #19077; "host OS:
			// Ubuntu22.04.3", #2021); an image tag's "-ubuntu22.04" is
			// the image's, not the poster's.
			name: "Ubuntu written in more ways",
			check: func(t *testing.T, _ Facts) {
				checkBodies(t, s, "os", map[string]string{
					"I deploy with Docker Compose on Ubuntu Server 24.04 LTS.":          "Ubuntu Server 24.04 LTS",
					"ARM aarch-64 server build failed (host OS: Ubuntu22.04.3)":         "Ubuntu22.04.3",
					"```\nFROM nvidia/cuda:12.1.0-devel-ubuntu22.04 AS dev\n```\nfails": "",
				}, func(f Facts) string { return f.OS }, func(a, b string) bool { return a == b })
			},
		},
		{
			// A two-digit count before a card's name, with the word for
			// the cards after it: "16 H800 GPUs" (a comment on
			// vllm-project/vllm#18681), "32 A100 cards"; "16 H100 GPUs"
			// in many papers' and deployment notes. A release number
			// before a name is no count ("CUDA 12 H100 GPUs"), nor a
			// number before a name with no such word after it.
			name: "a two-digit count before a card's name",
			check: func(t *testing.T, _ Facts) {
				checkBodies(t, s, "gpus", map[string][]GPU{
					"We serve it with 16 H800 GPUs on two nodes.":          {{Name: "H800", Count: 16}},
					"The cluster has 32 A100 cards.":                       {{Name: "A100", Count: 32}},
					"We run it on 10 H100 GPUs.":                           {{Name: "H100", Count: 10}},
					"CUDA 12 H100 GPUs are not detected.":                  {{Name: "H100"}},
					"max-num-seqs 16 H100 is slow":                         {{Name: "H100"}},
					"Tested with 2 RTX 3090 GPUs and 8×H200 (INT4) later.": {{Name: "RTX 3090", Count: 2}, {Name: "H200", Count: 8}},
				}, func(f Facts) []GPU { return f.GPUs }, slices.Equal)
			},
		},
		{
			// A count glued before a product's name: "two nodes of
			// 8H100" (a comment on vllm-project/vllm#11539), "run on
			// 8H100" (a training record); "8H100x2" is eight cards on
			// each of two hosts. A host named for its cards is no
			// statement of the post's hardware: NCCL's "8a100-5:154783"
			// (corpus #6636) and a prompt's "sws-2h100-01" (#6689).
			name: "a count glued before a card's name",
			body: "I set up two nodes of 8H100. Another site runs 8H100x2.\n8a100-5:154783:154783 [1] NCCL INFO Channel 14/0\n(vllm_env) afkhan@sws-2h100-01:/NS/llm-1$ python x.py",
			gpus: []GPU{{Name: "H100", Count: 8}},
		},
		{
			// The English form of the Chinese count before 卡: "the
			// 8-card L20" (vllm-project/vllm#40851), "8-card A100, 4-card
			// A6000, or single-card RTX4090" (a project's hardware goals).
			name: "a count written as N-card",
			body: "Seeking a way to deploy on the 8-card L20. Goal: 8-card A100, 4-card A6000, or single-card RTX4090.",
			gpus: []GPU{{Name: "L20", Count: 8}, {Name: "A100", Count: 8}, {Name: "A6000", Count: 4}, {Name: "RTX 4090", Count: 1}},
		},
		{
			// A named card counted in Chinese, glued to the count as
			// Chinese writes it: the count before 卡 ("8卡H100",
			// vllm-project/vllm#40778; "8卡A100" in many Chinese notes
			// and guides) or a measure word ("两张A100"), and vllm-dev
			// C3-009's "两台机器各有一张RTX4060" (one card a machine).
			// An uncounted name stays uncounted.
			name: "named cards counted in Chinese",
			body: "我也是8卡H100，跟你命令一样。另一台机器是两张A800。两台机器各有一张RTX4060。The L40S is fine.",
			gpus: []GPU{{Name: "H100", Count: 8}, {Name: "A800", Count: 2}, {Name: "RTX 4060", Count: 1}, {Name: "L40S"}},
		},
		{
			// A model directory beside the shell in the serve command's
			// model position: "./GLM-4.1V-9B-Thinking" (zai-org/GLM-V#204),
			// as READMEs serve a --local-dir download ("vllm serve
			// ./weights"); a script beside the shell stays a script.
			name:     "a relative model directory in the model position",
			body:     "HF_HUB_OFFLINE=1 vllm serve \"./GLM-4.1V-9B-Thinking\" --dtype bfloat16\n\n    python ./run.py --model x\n",
			models:   []string{"./GLM-4.1V-9B-Thinking"},
			commands: []string{"vllm serve ./GLM-4.1V-9B-Thinking --dtype=bfloat16", "python ./run.py --model=x"},
		},
		{
			// Chinese counts the cards after the name too, with the
			// card's memory or the machine between (hiyouga/LlamaFactory
			// #7131's "A6000机器4卡48GB", zai-org/GLM-V#204's "RTX 4090
			// 48g - 8卡"); a model number before 卡 names the card.
			name: "named cards counted in Chinese after the name",
			body: "A6000机器4卡48GB。NVIDIA GeForce RTX 4090 48g - 8卡。The A100 4090卡 too.",
			gpus: []GPU{{Name: "A6000", Count: 4}, {Name: "NVIDIA GeForce RTX 4090", MemoryGiB: 48, Count: 8}, {Name: "A100"}},
		},
		{
			// One card named short in the prose and in full in the
			// environment report is one card (vllm-project/vllm#7951 and
			// #16474, MI300X; #6250, A100; #19906, RTX 5080; vllm-dev
			// C1-028, V100); an A10 is not an A100.
			name: "a GPU named short and in full",
			body: "Mi300x x8 unable to launch.\n\n```\nGPU models and configuration: AMD Instinct MI300X (gfx942:sramecc+:xnack-)\n```\n\nOur other box has an A10 and an NVIDIA A100.",
			gpus: []GPU{{Name: "AMD Instinct MI300X", Count: 8}, {Name: "A10"}, {Name: "NVIDIA A100"}},
		},
		{
			// collect_env pasted without fences, in its old and new
			// layouts (vllm-project/vllm#6250, #19489; ten more corpus
			// posts on CUDA, XPU, TPU and CPU): its lines stating what the
			// set-up does not have tag no topic. A ROCm post still is one.
			name: "an environment report's absences tag no topic",
			check: func(t *testing.T, _ Facts) {
				for body, rocm := range map[string]bool{
					"Collecting environment information...\nPyTorch version: 2.3.0+cu121\nCUDA used to build PyTorch: 12.1\nROCM used to build PyTorch: N/A\nHIP runtime version: N/A\n\nvllm serve m --max-lora-rank 64 fails": false,
					"PyTorch version              : 2.7.0+cu128\nROCM used to build PyTorch   : N/A\n\nThe server hangs.":                                                                                                       false,
					"PyTorch version: 2.5.0+rocm6.2\nROCM used to build PyTorch: 6.2.41133\n\nThe server hangs on my MI300X.":                                                                                                   true,
				} {
					f, _ := Extract(Post{Body: body}, s)
					if slices.Contains(f.Topics, "rocm") != rocm {
						t.Errorf("%q: topics = %v, rocm want %v", body, f.Topics, rocm)
					}
				}
			},
		},
		{
			// A CUDA error's message quoted without its head, as titles
			// quote it ("Blackwell, no kernel image is available …",
			// vllm-project/vllm#20193), is the CUDA error a pack symptom
			// knows; "cuda-error:" is a head too (#16307).
			name:   "a CUDA error without its head",
			title:  "[Bug]: Blackwell, no kernel image is available for execution on the device",
			body:   "It fails at start.",
			errors: []string{"cuda-error: no kernel image is available for execution on the device"},
		},
		{
			// A harness that starts the engine (lm_eval --model vllm)
			// written in prose is a command as the program itself is,
			// here in a paste marked with single backticks
			// (EleutherAI/lm-evaluation-harness#2431; the harness's #2028
			// fences it). Its last line's backslash before a blank line
			// continues nothing: the sentence after it is no argument.
			name:     "a harness's command in prose, its last backslash before a blank line",
			body:     "`CUDA_VISIBLE_DEVICES=0,1 lm_eval --model vllm \\\n    --model_args pretrained=/m/llama,tensor_parallel_size=2 \\\n    --tasks ai2_arc\\\n    --device cuda\\`\n\n**I run above setting, but below error has been occured.**\n",
			models:   []string{"/m/llama"},
			commands: []string{"lm_eval --device=cuda --model=vllm --model-args=pretrained=/m/llama,tensor_parallel_size=2 --tasks=ai2_arc", "vllm --model=/m/llama --tensor-parallel-size=2"},
		},
		{
			// The same inside a sentence: "I am getting error lm-eval
			// --tasks gsm8k --model vllm --model_args …"
			// (EleutherAI/lm-evaluation-harness#672). The space after a
			// comma ends the harness's list, as the shell splits it.
			name:     "a harness's command inside a sentence",
			body:     "While running above command, I am getting error lm-eval --tasks gsm8k --model vllm --model_args pretrained=\"meta-llama/Meta-Llama-3.1-8B-Instruct\", enable_lora=True --device cpu --limit 5",
			commands: []string{"lm-eval enable_lora=True --device=cpu --limit=5 --model=vllm --model-args=pretrained=meta-llama/Meta-Llama-3.1-8B-Instruct --tasks=gsm8k", "vllm --model=meta-llama/Meta-Llama-3.1-8B-Instruct"},
		},
		{
			// A device runtime's message with the writer's clause of what
			// they were doing after it (ROCm/legacy-rocm-build#3246's
			// title; vllm-project/vllm#19077's "CUDA error: unknown error
			// when running vllm serve on WSL2"); the runtime's own "when
			// stream is capturing" stays.
			name:   "a device error with what the writer was doing after it",
			title:  "[Issue]: HIP error: invalid argument when running an example code from the vllm repo",
			body:   "It fails.\n\n    CUDA error: operation not permitted when stream is capturing",
			errors: []string{"hip-error: invalid argument", "cuda-error: operation not permitted when stream is capturing"},
		},
		{
			// A command in Chinese prose ends at the full-width comma
			// after its last value ("--gpu-memory-utilization 0.3，80G的
			// 显卡", vllm-project/vllm#18124; "--max-model-len 4096，" in
			// notes of many projects), as it does before ", ".
			name:     "a command's last value before a full-width comma",
			body:     "命令：vllm serve Qwen/Qwen2.5-VL-3B-Instruct --gpu-memory-utilization 0.3，80G的显卡\n我用 vllm serve m --max-model-len 4096，结果报错",
			commands: []string{"vllm serve Qwen/Qwen2.5-VL-3B-Instruct --gpu-memory-utilization=0.3", "vllm serve m --max-model-len=4096"},
		},
		{
			// "CUDA error" without the runtime's colon is a noun in a
			// sentence, not a message: "[Bug]: Docker image CUDA error on
			// RTX 2080 Ti" (vllm-project/vllm#19445), "[Bug]: CUDA Error
			// when print" (#6575). A status code is a message whatever
			// follows it.
			name:   "CUDA error as a noun",
			title:  "[Bug]: Docker image CUDA error on RTX 2080 Ti",
			body:   "It fails with a CUDA error when loading.\n\n    CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx(handle)`",
			errors: []string{"cuda-error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx(handle)`"},
		},
		{
			name:   "a CUDA error head with a dash",
			body:   "running vllm-openai:v0.7.3 with an cuda-error: device-side assert triggered",
			errors: []string{"cuda-error: device-side assert triggered"},
		},
		{
			// A parser is named after the family whose output it reads;
			// its name written again in a title or a sentence is the
			// parser, not a model (vllm-dev C2-018's title "… despite
			// --tool-call-parser glm47"; corpus #17369 and #17506).
			name:   "a parser's name is no model",
			title:  "[Bug]: No tool_calls in GLM-4.7-Flash responses despite --tool-call-parser glm47",
			body:   "```\nvllm serve zai-org/GLM-4.7-Flash --enable-auto-tool-choice --tool-call-parser glm47 --reasoning-parser glm45\n```\n\nWith the glm45 reasoning parser the content is empty.",
			models: []string{"zai-org/GLM-4.7-Flash", "GLM-4.7-Flash"},
		},
		{
			// Cards counted in the plural ("2x3090s", vllm-project/vllm#17854;
			// "updated for 5090s yet", vllm-dev C1-001).
			name: "GeForce model numbers in the plural",
			body: "### Your current environment\n\n2x3090s\n\nIt was never updated for 5090s yet.",
			gpus: []GPU{{Name: "RTX 3090", Count: 2}, {Name: "RTX 5090"}},
		},
		{
			// The 20 series, modded to 22G in many Chinese posts
			// ("2080ti 22G * 4", vllm#3764 and #35854; "在三张 2080ti
			// 22G 上", a vllm-dev post; "I used 2080Ti", vllm#2140), and
			// China's 4090D; a GeForce name is written one way however
			// it is spaced.
			name: "GeForce 20 series, D and Ti spellings",
			body: "4 * 2080ti 22G fails. 我用的是4090D显卡. My other box has an RTX3090Ti and a rtx 4060ti.",
			gpus: []GPU{{Name: "RTX 3090 Ti"}, {Name: "RTX 4060 Ti"}, {Name: "RTX 2080 Ti", Count: 4}, {Name: "RTX 4090 D"}},
		},
		{
			// The memory written after a bare model number is that card's.
			// A number the card already read by its full name has is that
			// card (#16538 names its "NVIDIA GeForce RTX 4080" too), and
			// the memory before "vram" is not read across the line break.
			name: "GeForce model number with its memory",
			body: "cpu offload gb with v1 engine: my 4080 only has 16gb vram\n\nGPU 0: NVIDIA GeForce RTX 4080",
			check: func(t *testing.T, f Facts) {
				if want := []GPU{{Name: "NVIDIA GeForce RTX 4080", MemoryGiB: 16}}; !slices.Equal(f.GPUs, want) {
					t.Errorf("gpus = %+v, want %+v", f.GPUs, want)
				}
			},
		},
		{
			// A traceback frame quotes the program's own script, which
			// runs nothing (vllm-project/vllm-ascend#707; corpus #9377).
			name: "frame quoting the program's script",
			body: "vllm serve /data/DeepSeek-R1-Distill-Qwen-32B --max-model-len=4096\nTraceback (most recent call last):\n  File \"/usr/local/python3.10/bin/vllm\", line 5, in <module>\n    from vllm.entrypoints.cli.main import main\nModuleNotFoundError: No module named 'vllm.benchmarks.serve'",
			check: func(t *testing.T, f Facts) {
				if len(f.Commands) != 1 || f.Commands[0].String() != "vllm serve /data/DeepSeek-R1-Distill-Qwen-32B --max-model-len=4096" {
					t.Errorf("commands = %v", f.Commands)
				}
			},
		},
		{
			// A card's memory written beside it as VRAM is that card's,
			// not a second GPU (vllm-dev B037 from the forum and C1-029;
			// vllm-project/vllm#19575's "NVIDIA L40S (45GB VRAM)").
			name: "VRAM of a named card",
			body: "GPU: 1x NVIDIA L40S (45GB VRAM)",
			check: func(t *testing.T, f Facts) {
				if want := []GPU{{Name: "NVIDIA L40S", MemoryGiB: 45, Count: 1}}; !slices.Equal(f.GPUs, want) {
					t.Errorf("gpus = %+v, want %+v", f.GPUs, want)
				}
			},
		},
		{
			// The one card named without its memory takes the VRAM the
			// post states; a GPU named by its memory alone may be another
			// card and stays.
			name: "VRAM beside the one card named",
			body: "I have an RTX 4090 with 24GB VRAM and a 12GB GPU.",
			check: func(t *testing.T, f Facts) {
				if want := []GPU{{Name: "GPU", MemoryGiB: 12}, {Name: "RTX 4090", MemoryGiB: 24}}; !slices.Equal(f.GPUs, want) {
					t.Errorf("gpus = %+v, want %+v", f.GPUs, want)
				}
			},
		},
		{
			name:     "image tag in prose",
			body:     "With the image vllm/vllm-openai:v0.6.4.post1 the server does not start.",
			versions: map[string]string{"vllm": "0.6.4.post1"},
		},
		{
			// A chart's extra arguments (production-stack's values,
			// vllm-project/production-stack#43) under an "Exception:"
			// heading that names no class; a pip list row is no run of
			// the program (ByteDance-Seed/Seed-X-7B#7).
			name: "chart extraArgs, a heading, a listing row",
			body: "```\n    vllmConfig:\n      extraArgs: [\"--disable-log-requests\", \"--max-num-seqs\", \"1\"]\n```\n\nException:\n\n```\nINFO:     10.0.135.38:48284 - \"POST /v1/chat/completions HTTP/1.1\" 400 Bad Request\n```\n\n```\nvllm                              0.9.2\n```",
			check: func(t *testing.T, f Facts) {
				if len(f.Commands) != 1 || f.Commands[0].String() != "vllm serve --disable-log-requests --max-num-seqs=1" {
					t.Errorf("commands = %v", f.Commands)
				}
				if len(f.Errors) != 0 {
					t.Errorf("errors = %+v", f.Errors)
				}
				if f.Versions["vllm"] != "0.9.2" {
					t.Errorf("versions = %v", f.Versions)
				}
			},
		},
		{
			// vLLM's collect_env prints "uv is set" when uv manages the
			// environment (vllm-project/vllm#30320, #37828, #55193, each
			// read as the command `uv is set`); a sentence about a tool in
			// a log is no run of it. A run of the same tool still is.
			name:     "a sentence about a program in a log",
			body:     "```\nCollecting environment information...\nuv is set\n==============================\n        System Info\n==============================\ndocker is installed\nray was started with --head\n```\n\n```\nuv pip install vllm --torch-backend=auto\n```",
			commands: []string{"uv pip install vllm --torch-backend=auto"},
		},
		{
			name: "Python API call",
			body: "```python\nllm = LLM(model=\"Qwen/Qwen2.5-7B-Instruct\", tensor_parallel_size=2, cpu_offload_gb=14)\n```",
			check: func(t *testing.T, f Facts) {
				c := f.MainCommand(s)
				if c == nil || c.Flags["--cpu-offload-gb"] != "14" || c.Flags["--tensor-parallel-size"] != "2" {
					t.Errorf("command = %v", c)
				}
			},
		},
		{
			// A script names its settings once and passes the names:
			// `model_name = "…"` then LLM(model=model_name, …)
			// (vllm#6416, #8276, #8627, #25811). A name last set to an
			// expression (args.model, os.path.join) keeps its name.
			name: "Python API call with a script's constants",
			body: "```python\nmodel_name = \"deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct\"\ntp_size = 2  # two GPUs\npath = \"a/b\"\npath = os.path.join(root, \"m\")\nllm = LLM(model=model_name, tensor_parallel_size=tp_size, tokenizer=path, max_model_len=max_len)\n```",
			check: func(t *testing.T, f Facts) {
				c := f.MainCommand(s)
				if c == nil || c.Flags["--model"] != "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct" || c.Flags["--tensor-parallel-size"] != "2" ||
					c.Flags["--tokenizer"] != "path" || c.Flags["--max-model-len"] != "max_len" {
					t.Errorf("command = %v", c)
				}
			},
		},
		{
			// A launcher runs the command after its own options and
			// arguments: a package manager's environment (`uv run`,
			// launcher scripts and READMEs of many projects; vLLM's docs'
			// `uv run --with vllm vllm --help`; `conda run -n vllm`), a
			// scheduler (`srun`), a cluster's container runtime
			// (`apptainer exec --nv "$SIF" python -m vllm…`), and tools
			// that bound or place a process (`timeout`, `numactl`). A
			// launcher running no known program stays itself.
			name:     "commands behind launchers",
			body:     "```\nCUDA_VISIBLE_DEVICES=0 uv run vllm serve m/a --port 8001\nsrun --gres=gpu:4 -N 1 vllm serve m/b --tensor-parallel-size 4\napptainer exec --nv img.sif python -m vllm.entrypoints.openai.api_server --model m/c\nconda run -n vllm vllm serve m/d --max-model-len 4096\nnohup numactl --membind=0 vllm serve m/e --dtype half > log 2>&1 &\nuv run --with vllm vllm --help\n```",
			commands: []string{"vllm serve m/a --port=8001", "vllm serve m/b --tensor-parallel-size=4", "vllm serve --model=m/c", "vllm serve m/d --max-model-len=4096", "vllm serve m/e --dtype=half", "vllm --help"},
		},
		{
			// Huawei's Ascend NPUs, through the vllm-ascend plugin: its
			// log line, npu-smi's table and the Chinese name with a chip
			// (vllm-project/vllm-ascend#337, #1875, #1987). The case
			// format labels them "unknown"; Herald names them, so that
			// no CUDA-only advice is given.
			name:     "Ascend NPU platform",
			body:     "昇腾910B3，torch 2.5.1\n```\nINFO 03-15 11:48:25 __init__.py:198] Platform plugin ascend is activated\n| npu-smi 24.1.rc3                 Version: 24.1.rc3 |\n| 0     910B4               | OK            | 92.1 |\n```",
			platform: "npu",
		},
		{
			// Intel's Gaudi accelerators are vLLM's HPU platform, not an
			// Intel GPU (XPU): an environment report's HPU lines
			// (HabanaAI/vllm-fork#776), PyTorch's +hpu build
			// (vllm-project/vllm-gaudi#86), Habana's frameworks in a
			// traceback and a "HW: Gaudi2" line
			// (opea-project/GenAIComps#1038); an Arc GPU stays XPU.
			name: "Intel Gaudi is HPU",
			check: func(t *testing.T, _ Facts) {
				for _, body := range []string{
					"INFO 02-04 13:34:55 __init__.py:192] Automatically detected platform hpu.\nHPU devices: 8x HL-205\nHPU driver version: 1.19.1-6f47ddd",
					"PyTorch version              : 2.6.0+hpu_1.21.3-57.gitabf798b\nCUDA used to build PyTorch   : None",
					"* HW: Gaudi2\n\n```\n  File \"/usr/local/lib/python3.10/dist-packages/habana_frameworks/torch/hpu/__init__.py\", line 71, in init\nRuntimeError: synStatus=8 [Device not found] Device acquire failed.\n```",
				} {
					if f, _ := Extract(Post{Body: body}, s); f.Platform != "hpu" {
						t.Errorf("platform = %q for %q", f.Platform, body)
					}
				}
				if f, _ := Extract(Post{Body: "Running on an Intel Arc A770 with the XPU build"}, s); f.Platform != "xpu" {
					t.Errorf("platform = %q for an Arc GPU", f.Platform)
				}
			},
		},
		{
			// collect_env's report since vLLM 0.9 aligns its colons and
			// titles its sections between rules of "=": "CUDA / GPU
			// Info" is printed on every machine, and "Is CUDA available
			// : False" still says the wheel's CUDA has no device. Made on
			// a Mac, the report is the CPU backend's (vllm#18362, #28352,
			// #33675, which the maintainers label cpu); a Mac named in a
			// sentence is not (vllm-dev B048 runs MLX).
			name: "aligned environment reports",
			check: func(t *testing.T, _ Facts) {
				report := "```text\n==============================\n       PyTorch Info\n==============================\nPyTorch version              : %s\nCUDA used to build PyTorch   : %s\n\n==============================\n       CUDA / GPU Info\n==============================\nIs CUDA available            : False\nCUDA runtime version         : No CUDA\nGPU models and configuration : No CUDA\n```\n"
				for _, c := range []struct{ body, want string }{
					{"OS : macOS 15.4.1 (arm64)\n\n" + fmt.Sprintf(report, "2.7.0", "None"), "cpu"},
					{"OS : Ubuntu 22.04.5 LTS (x86_64)\n\n" + fmt.Sprintf(report, "2.5.1+cu124", "12.4"), ""},
					{"- Apple M1 Ultra, macOS\n- vllm-mlx 0.2.7", ""},
				} {
					if f, _ := Extract(Post{Body: c.body}, s); f.Platform != c.want {
						t.Errorf("platform = %q, want %q for %q", f.Platform, c.want, c.body)
					}
				}
			},
		},
		{
			// "image" in an error the post quotes is the program's word:
			// CUDA's "no kernel image is available" (corpus #4604, #16901,
			// #19906, #20193 and five more) is no post about pictures,
			// while a post that says it sends images is; so is a
			// container's image named by its reference.
			name: "image inside a quoted error or beside a container image",
			check: func(t *testing.T, _ Facts) {
				for _, c := range []struct {
					title, body string
					want        bool
				}{
					{"RTX 5090: RuntimeError: CUDA error: no kernel image is available for execution on the device", "Happens at start.", false},
					{"Startup fails", "It fails with RuntimeError: CUDA error: no kernel image is available for execution on the device", false},
					{"Startup fails", "Sending two images in one request fails with RuntimeError: CUDA error: no kernel image is available for execution on the device", true},
					// "image" beside a container image's reference is the
					// container's (vllm-dev C2-014's "Image:   intel/…",
					// vllm#3122's "…/vllm-rocm:vllm-v0.2.4 image", kubectl's
					// "Image: vllm/vllm-openai:v0.8.5", vllm#18163).
					{"Reranker not detected", "# ENV\nImage:   intel/llm-scaler-vllm:0.14.0-b8.1\nServer command: vllm serve m/rerank", false},
					{"Error running any model with acme/vllm-rocm:v0.2.4 image", "Same problem.", false},
					// So is "image" before a word only a container's image
					// has (C3-017's "Image tag: v0.28.0-gb10.0", a Helm
					// deployment's "Image Tag: 2025-04-18",
					// vllm-project/production-stack#407), in a post that
					// names no docker; a picture's image stays one.
					{"Engine fails to start", "Helm chart 0.1.2\nImage Tag: 2025-04-18\nModel: m/a", false},
					{"Engine fails to start", "Requests with an image fail.\nImage tag: v0.9.1", true},
				} {
					f, _ := Extract(Post{Title: c.title, Body: c.body}, s)
					if got := slices.Contains(f.Topics, "multimodal"); got != c.want {
						t.Errorf("multimodal = %v, want %v for %q / %q (topics %v)", got, c.want, c.title, c.body, f.Topics)
					}
				}
			},
		},
		{
			// zsh's default prompt on macOS puts the directory after a
			// space and ends in "%" (vllm#31870); bash themes write the
			// same with "$" (robertrosenbusch/gfx803_rocm#6). The command
			// after it is the post's.
			name:     "user@host directory prompt",
			body:     "```\nme@My-MacBook-Pro vllm % docker run --rm -p 8000:8000 vllm/vllm-openai:latest --model m/a\n```\n\n```\n(base) me@archbox proj$ vllm serve m/b --max-model-len 4096\n```",
			commands: []string{"docker run vllm/vllm-openai:latest --rm -p=8000:8000", "vllm serve --model=m/a", "vllm serve m/b --max-model-len=4096"},
		},
		{
			// Windows' shells, where Docker Desktop users run vLLM's
			// image: PowerShell's prompt and backtick continuations
			// (Windows guides and scripts of many projects: "docker run
			// --gpus all `" … "vllm/vllm-openai:latest `"), cmd's prompt
			// and caret, Anaconda Prompt's environment before them.
			name:     "Windows shells' prompts and continuations",
			body:     "```powershell\nPS C:\\Users\\me> docker run --gpus all `\n    -p 8000:8000 `\n    vllm/vllm-openai:latest `\n    --model m/a `\n    --max-model-len 4096\n```\n\n```\n(base) C:\\work>docker run --gpus all vllm/vllm-openai:latest --model m/b ^\n  --dtype half\n```",
			commands: []string{"docker run vllm/vllm-openai:latest --gpus=all -p=8000:8000", "vllm serve --max-model-len=4096 --model=m/a", "docker run vllm/vllm-openai:latest --gpus=all", "vllm serve --dtype=half --model=m/b"},
		},
		{
			// A notebook's way into the shell: IPython's "!" in Colab,
			// Kaggle and Jupyter cells, the %pip magic, Databricks' %sh
			// (notebooks and notes of many projects start vLLM so). A
			// "!" before no program stays as written.
			name:     "notebook shell escapes",
			body:     "```python\n!pip install vllm==0.6.3\n!vllm serve m/a --dtype half --max-model-len 4096\n%sh vllm serve m/b --port 1\nx != 3\n```",
			commands: []string{"pip install vllm==0.6.3", "vllm serve m/a --dtype=half --max-model-len=4096", "vllm serve m/b --port=1"},
		},
		{
			// A Python script builds the command as a string and runs
			// it (`cmd = f"vllm serve {model} --port {port} …"` then
			// subprocess.Popen, os.system("…"): launcher scripts of
			// several projects); its fields are filled from the
			// script's constants. A Python assignment is no shell
			// command (`vllm = LLM(model=…)` read as the program vllm,
			// corpus #5723), nor is a string that runs nothing known.
			name:     "a command built as a Python string",
			body:     "```python\nMODEL_NAME = \"Qwen/Qwen2.5-7B-Instruct\"\ncmd = f\"vllm serve {MODEL_NAME} --port 8000 --tensor-parallel-size {TP}\"\nsubprocess.Popen(cmd, shell=True)\nos.system('python -m vllm.entrypoints.openai.api_server --model x/y --dtype half')\ngreeting = \"hello --world\"\nvllm = LLM(model=MODEL_NAME, max_model_len=4096)\n```",
			commands: []string{"vllm serve Qwen/Qwen2.5-7B-Instruct --port=8000 --tensor-parallel-size={TP}", "vllm serve --dtype=half --model=x/y", "vllm serve --max-model-len=4096 --model=Qwen/Qwen2.5-7B-Instruct"},
		},
		{
			name:     "platform from docker --gpus and a GPU name",
			body:     "docker run --gpus all vllm/vllm-openai:latest --model x/y on 2xH100",
			platform: "cuda",
		},
		{
			name:     "no platform without evidence",
			body:     "The server returns an empty response for long prompts. Why?",
			platform: "none",
		},
		{
			// Typed by hand rather than pasted: the case and the space
			// after the colon are the writer's, the error is the same.
			name:  "error head typed by hand",
			title: "Fatal python error:Bus error",
			body:  "It fails on two RTX 4090s.",
			check: func(t *testing.T, f Facts) {
				if len(f.Errors) == 0 || f.Errors[0].Type != "fatal-python-error" || f.Errors[0].Message != "Bus error" {
					t.Errorf("errors = %+v", f.Errors)
				}
			},
		},
		{
			name: "memory written as N GB of VRAM",
			body: "The model needs about 37 GB of VRAM and my card has 24GB VRAM.",
			check: func(t *testing.T, f Facts) {
				for _, g := range f.GPUs {
					if strings.HasPrefix(strings.ToLower(g.Name), "of ") {
						t.Errorf("GPU name %q", g.Name)
					}
				}
				if len(f.GPUs) == 0 || f.GPUs[0].MemoryGiB == 0 {
					t.Errorf("gpus = %+v, want the memory read", f.GPUs)
				}
			},
		},
		{
			// Error messages name flags; quoted in a sentence they are
			// not commands of a program called "tool".
			name: "message quoted in prose names flags",
			body: `The app says: "An unexpected error occurred: {"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"}". The model is Qwen2.5-14B-Instruct.`,
			check: func(t *testing.T, f Facts) {
				for _, c := range f.Commands {
					t.Errorf("command %s read from a quoted message", c.String())
				}
			},
		},
		{
			name:     "NCCL states its version in its error",
			body:     "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
			versions: map[string]string{"nccl": "2.21.5"},
		},
		{
			name: "MIME types and API paths are not models",
			body: "curl -H 'Content-Type: application/json' http://localhost:8000/v1/completions gives 40 tok/s",
			check: func(t *testing.T, f Facts) {
				if len(f.Models) != 0 {
					t.Errorf("models = %v", f.Models)
				}
			},
		},
		{
			// A multi-node setup written by its roles (vllm#14349,
			// vllm#29447) or by the script vLLM ships for it (vllm#14186,
			// ROCm/legacy-rocm-build#5567), never by the word.
			name: "multi-node setups by their roles or script",
			body: "On head node: `ray start --head --num-gpus 4`\nOn the worker node: `ray start --address=10.0.0.1:6379`\nthen `vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 8` hangs",
			check: func(t *testing.T, f Facts) {
				if !slices.Contains(f.Topics, "multi-node") {
					t.Errorf("topics = %v, want multi-node", f.Topics)
				}
				g, err := Extract(Post{Body: "bash run_cluster.sh vllm/vllm-openai 10.0.0.1 --head /models -e VLLM_HOST_IP=10.0.0.1\nthen vllm serve /models --tensor-parallel-size 2 waits for a placement group"}, s)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(g.Topics, "multi-node") {
					t.Errorf("run_cluster.sh post: topics = %v, want multi-node", g.Topics)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Extract(Post{Title: tt.title, Body: tt.body}, s)
			if err != nil {
				t.Fatal(err)
			}
			if tt.models != nil && !slices.Equal(f.Models, tt.models) {
				t.Errorf("models = %q, want %q", f.Models, tt.models)
			}
			if tt.errors != nil {
				var got []string
				for _, e := range f.Errors {
					got = append(got, e.Type+": "+e.Message)
				}
				if !slices.Equal(got, tt.errors) {
					t.Errorf("errors = %q, want %q", got, tt.errors)
				}
			}
			if tt.commands != nil {
				var got []string
				for _, c := range f.Commands {
					got = append(got, c.String())
				}
				if !slices.Equal(got, tt.commands) {
					t.Errorf("commands:\n got %q\nwant %q", got, tt.commands)
				}
			}
			for pkg, v := range tt.versions {
				if f.Versions[pkg] != v {
					t.Errorf("versions = %v, want %s %s", f.Versions, pkg, v)
				}
			}
			if tt.gpus != nil && !slices.Equal(f.GPUs, tt.gpus) {
				t.Errorf("gpus = %+v, want %+v", f.GPUs, tt.gpus)
			}
			if want := strings.TrimPrefix(tt.platform, "none"); tt.platform != "" && f.Platform != want {
				t.Errorf("platform = %q, want %q", f.Platform, want)
			}
			if tt.check != nil {
				tt.check(t, f)
			}
		})
	}
}

// checkTitles reads each title over a one-line body and compares the
// fact get picks out of it (what names it in messages) with the title's
// expected value.
// checkBodies extracts each body of want and compares what get reads of
// its facts with the body's wanted value, by equal.
func checkBodies[T any](t *testing.T, s *Schema, what string, want map[string]T, get func(Facts) T, equal func(a, b T) bool) {
	t.Helper()
	for body, w := range want {
		f, _ := Extract(Post{Body: body}, s)
		if got := get(f); !equal(got, w) {
			t.Errorf("%q: %s %+v, want %+v", body, what, got, w)
		}
	}
}

func checkTitles(t *testing.T, s *Schema, what string, want map[string]string, get func(Facts) string) {
	t.Helper()
	for title, w := range want {
		f, err := Extract(Post{Title: title, Body: "It fails."}, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := get(f); got != w {
			t.Errorf("%q: %s %q, want %q", title, what, got, w)
		}
	}
}

func TestNormalizeText(t *testing.T) {
	t.Parallel()
	in := "a\u00a0b\u200bc\r\nd\uff1a\u201cq\u201d\u202e"
	if got, want := normalizeText(in), "a bc\nd:\"q\""; got != want {
		t.Errorf("normalizeText(%q) = %q, want %q", in, got, want)
	}
	// A typographer's dash that starts a word was "--" (vllm-project/vllm
	// #5796: "do I need to enable —prefix-caching flag"); one between
	// words is punctuation.
	for in, want := range map[string]string{
		"serve m \u2013max-model-len 4096 \u2014enforce-eager": "serve m --max-model-len 4096 --enforce-eager",
		"vLLM \u2014 fast, word\u2014word, 3\u20134 GPUs":      "vLLM - fast, word-word, 3-4 GPUs",
		// Colour codes whose escape a decoder replaced (vllm#21713) or a
		// paste dropped; text that merely looks like one stays.
		"\ufffd[1;36m(VllmWorker rank=3 pid=4867)\ufffd[0;0m ERROR x": "(VllmWorker rank=3 pid=4867) ERROR x",
		"[1;36m(VllmWorker rank=1 pid=219)[0;0m INFO x":               "(VllmWorker rank=1 pid=219) INFO x",
		"[36m(RayWorkerVllm pid=7247)[0m INFO x":                      "(RayWorkerVllm pid=7247) INFO x",
		"a timeout of [30m] and a list [0m] (x)[0m] m(":               "a timeout of [30m] and a list [0m] (x)[0m] m(",
		// A full-width comma is a comma and a space (vllm#18124).
		"--max-model-len 4096\uff0c\u7ed3\u679c": "--max-model-len 4096, \u7ed3\u679c",
	} {
		got := normalizeText(in)
		if got != want {
			t.Errorf("normalizeText(%q) = %q, want %q", in, got, want)
		}
		if len(got) > len(in) {
			t.Errorf("normalizeText(%q) grew from %d to %d bytes", in, len(in), len(got))
		}
	}
}

// TestSymptomAfterEnvironmentReport: issue templates open with an
// environment report of hundreds of words and describe the problem after
// it; the description still counts as evidence for the entry that
// describes the same symptom.
func TestSymptomAfterEnvironmentReport(t *testing.T) {
	var env strings.Builder
	env.WriteString("### Your current environment\n\n```text\n")
	for i := range 400 {
		fmt.Fprintf(&env, "[pip3] package%c%c==1.%d\n", 'a'+i%26, 'a'+i/26%26, i)
	}
	env.WriteString("```\n\n")
	body := env.String() + "The streamed tool calls come back as plain content text and the client never sees them."
	entry := Entry{ID: "e", Kind: KindIssue, Title: "Streaming tool calls", Symptoms: []string{"tool calls come back as plain content text"}}
	f := Facts{}
	ms := Rank(Post{Title: "Tool calls missing", Body: body}, &f, []Candidate{{Entry: entry, TextScore: 1}}, DefaultModel())
	if len(ms) != 1 || ms[0].Evidence[fSymptom] == 0 {
		t.Fatalf("evidence = %v; want the described symptom read after the report", ms[0].Evidence)
	}
}

// TestSymptomNamesItsFlags: a described symptom that names a flag is a
// symptom of posts that use the flag. Before, its other words alone
// counted, and GGUF loading failures that never set --cpu-offload-gb
// (vllm-project/vllm#14766, #8096, outside ../shared) described "error
// when combining a .gguf model with --cpu-offload-gb" by "error", "gguf"
// and "model". The flag may be set, named in the text or written as the
// setting's Python name.
func TestSymptomNamesItsFlags(t *testing.T) {
	t.Parallel()
	entry := Entry{ID: "e", Kind: KindIssue, Title: "offload with gguf", Symptoms: []string{"error when combining a .gguf model with --cpu-offload-gb"}}
	tests := []struct {
		name, body string
		want       bool
	}{
		{"flag absent", "I get an error loading the gguf model:\n\n```\nvllm serve ./m.gguf --max-model-len 4096\n```", false},
		{"flag set", "I get an error loading the gguf model:\n\n```\nvllm serve ./m.gguf --cpu-offload-gb 8\n```", true},
		{"flag named in prose", "The gguf model fails with an error once I add --cpu-offload-gb.", true},
		{"Python name", "LLM(model='m.gguf', cpu_offload_gb=8) gives an error for this gguf model", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := Post{Title: "gguf model fails", Body: tt.body}
			f, _ := Extract(p, nil)
			ms := Rank(p, &f, []Candidate{{Entry: entry, TextScore: 1}}, DefaultModel())
			if len(ms) != 1 {
				t.Fatalf("got %d matches, want 1", len(ms))
			}
			if got := ms[0].Evidence[fSymptom] > 0; got != tt.want {
				t.Errorf("symptom evidence %v = %v, want %v", ms[0].Evidence, got, tt.want)
			}
		})
	}
}

// TestUsageErrors reads the errors argparse prints when it refuses a
// command line, as forum posts paste them and as issue titles name them,
// into one comparable form: the refused value and the list of choices,
// which change with every release, are not part of it.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name, title, body, want string
	}{
		{
			name: "invalid choice in a log",
			body: "错误日志：vllm serve: error: argument --tool-call-parser: invalid choice: 'glm45' (choose from 'deepseek_v3', 'glm4_moe', 'hermes')",
			want: "argument --tool-call-parser: invalid choice",
		},
		{
			name:  "invalid choice in a title",
			title: "[Bug]: api_server.py: error: argument --tool-call-parser: invalid choice: 'llama3_json' (choose from 'mistral', 'hermes')",
			want:  "argument --tool-call-parser: invalid choice",
		},
		{
			name:  "unrecognized flag with its value",
			title: "[Bug]: vllm: error: unrecognized arguments: --task embedding",
			want:  "unrecognized arguments: --task",
		},
		{
			name: "unrecognized flag in a code block",
			body: "```\nusage: api_server.py [-h] [--host HOST]\napi_server.py: error: unrecognized arguments: --api-key sk-123\n```",
			want: "unrecognized arguments: --api-key",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Extract(Post{Title: tt.title, Body: tt.body}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Errors) == 0 || f.Errors[0].Type != "usage-error" || f.Errors[0].Message != tt.want {
				t.Fatalf("errors = %+v, want usage-error %q", f.Errors, tt.want)
			}
			if f.Errors[0].Kind != "usage-error" {
				t.Errorf("kind = %q", f.Errors[0].Kind)
			}
		})
	}
}

// TestArgumentLists pins how the string lists of Dockerfiles, Compose,
// Kubernetes and Helm files become commands: the program comes from the
// list itself, from the image named nearest before it, from the model
// flag wherever it stands, from the boolean flags it uses, or, for a
// serving image, from its entrypoint; lists of packages and the lists of
// images no pack knows are no commands of the engine's. want is every
// command read, one a line. source is the real post a case was read off
// (the first and the last are written for the rule).
func TestArgumentLists(t *testing.T) {
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	tests := []struct{ name, source, body, want string }{
		{"Kubernetes args list", "",
			"```yaml\n      containers:\n      - image: vllm/vllm-openai:v0.7.3\n        args: [\"--model\", \"meta-llama/Llama-3.1-8B-Instruct\", \"--gpu-memory-utilization\", \"0.8\"]\n```",
			"vllm serve --gpu-memory-utilization=0.8 --model=meta-llama/Llama-3.1-8B-Instruct"},
		{"argument list with the model flag later", "vllm-project/vllm#31030",
			"```\n    command: [\"--served-model-name\", \"qwen3\", \"--model\", \"/models/Qwen/Qwen3-235B\", \"--tensor-parallel-size\", \"4\"]\n```",
			"vllm serve --model=/models/Qwen/Qwen3-235B --served-model-name=qwen3 --tensor-parallel-size=4"},
		{"block list without its key", "vllm-project/vllm#12529",
			"```\nvllm==0.7.0\n        - vllm\n        - serve\n        - Qwen/Qwen2.5-Coder-32B-Instruct\n        - --max-model-len=12K\n        - --enforce-eager\n```",
			"vllm serve Qwen/Qwen2.5-Coder-32B-Instruct --enforce-eager --max-model-len=12K"},
		{"argument list that starts with the model", "vllm-project/vllm#40872",
			"```\ncommand:\n  - openai/gpt-oss-120b\n  - --compilation-config\n  - '{\"mode\": 3}'\n```",
			`vllm serve openai/gpt-oss-120b --compilation-config={"mode": 3}`},
		{"command line quoted as one list item", "vllm-project/vllm#4462",
			"```\n      containers:\n      - image: vllm/vllm-openai:0.4.1\n        command:\n        - \"python3 -m vllm.entrypoints.openai.api_server  --port 8080 --model /mnt/models/Qwen-14B-Chat --tensor-parallel-size 2\"\n        ports:\n        - containerPort: 8080\n```",
			"vllm serve --model=/mnt/models/Qwen-14B-Chat --port=8080 --tensor-parallel-size=2"},
		{"compose services, each with its image", "kyuz0/amd-r9700-vllm-toolboxes#19",
			"```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai-rocm:v0.28.0\n    command:\n      - ${LLM_MODEL}\n      - --tensor-parallel-size\n      - \"2\"\n  cache:\n    image: redis:7\n    command: [\"redis-server\", \"--appendonly\", \"yes\"]\n```",
			"vllm serve ${LLM_MODEL} --tensor-parallel-size=2"},
		{"Python argument vector with the interpreter a variable", "vllm-project/vllm#28186",
			"```\ncommand = [\n        sys.executable, \n        \"-m\", \"vllm.entrypoints.openai.api_server\",\n        \"--model\", \"./Qwen3-VL-2B-Instruct\",\n        \"--max_model_len\", \"3500\",\n\n        # for lora adapter\n        \"--enable-lora\",\n        \"--max-lora-rank\", \"16\",  # LoRA rank\n]\n```",
			"vllm serve --enable-lora --max-lora-rank=16 --max-model-len=3500 --model=./Qwen3-VL-2B-Instruct"},
		{"Python argument vector handed to subprocess, values in variables", "vllm-project/vllm#15788",
			"```\n    import subprocess\n\n    subprocess.Popen([\n        \"vllm\",\n        \"serve\",\n        \"microsoft/Phi-4-multimodal-instruct\",\n        \"--port\",\n        str(VLLM_PORT),\n        \"--trust-remote-code\",\n        \"--max-model-len\",\n        \"131072\",\n    ])\n```",
			"vllm serve microsoft/Phi-4-multimodal-instruct --max-model-len=131072 --port=VLLM_PORT --trust-remote-code"},
		{"lists that are not the engine's arguments", "",
			"```yaml\ndependencies:\n  - vllm\n  - torch\n```\n\n```yaml\n    image: lmsysorg/sglang:latest\n    command: [\"--model-path\", \"Qwen/Qwen3-8B\", \"--trust-remote-code\"]\n```",
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Extract(Post{Body: tt.body}, s)
			var got []string
			for _, c := range f.Commands {
				got = append(got, c.String())
			}
			if g := strings.Join(got, "\n"); g != tt.want {
				t.Errorf("commands (%s):\n%s\nwant:\n%s", tt.source, g, tt.want)
			}
		})
	}
}

func TestLastWord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"I have my", "my"},
		{"机器（两张", "两张"},
		{"a，在", "在"},
		{"alone", "alone"},
		{"ends with space ", ""},
	} {
		if got := lastWord(tc.in); got != tc.want {
			t.Errorf("lastWord(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestContainsProseWord(t *testing.T) {
	tests := []struct {
		text, w string
		want    bool
	}{
		{"vllm serve m --tensor-parallel-size=1", "tensor-parallel", false},
		{"i tried `--enforce-eager` too", "enforce-eager", false},
		{"tensor-parallel inference hangs", "tensor-parallel", true},
		{"--tensor-parallel-size 2 and then tensor-parallel again", "tensor-parallel", true},
		{"multi-gpu", "gpu", true},
		{"docker image", "image", true},
		{"--limit-mm-per-prompt image=1", "image", true},
		{"I set it (--tensor-parallel-size=1) and \"--enforce-eager\"", "tensor-parallel", false},
		{"I set it (--tensor-parallel-size=1) and \"--enforce-eager\"", "enforce-eager", false},
		{"", "image", false},
	}
	for _, tt := range tests {
		if got := containsProseWord(tt.text, tt.w); got != tt.want {
			t.Errorf("containsProseWord(%q, %q) = %v, want %v", tt.text, tt.w, got, tt.want)
		}
	}
}

// TestMergeShortNames: every shorter name of one card joins its fullest
// name, however many there are, and a name that only shares a prefix
// stays apart.
func TestMergeShortNames(t *testing.T) {
	t.Parallel()
	got := mergeShortNames([]GPU{{Name: "MI300X", Count: 8}, {Name: "Instinct MI300X"}, {Name: "AMD Instinct MI300X", MemoryGiB: 192}, {Name: "A10"}, {Name: "A100"}})
	want := []GPU{{Name: "AMD Instinct MI300X", Count: 8, MemoryGiB: 192}, {Name: "A10"}, {Name: "A100"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestContainerCommandsBounded: a Compose file built to expand aliases
// exponentially ("billion laughs") is refused or read without expanding
// them, and a block past maxComposeBytes is not parsed at all.
func TestContainerCommandsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [vllm, serve]\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1)
	}
	b.WriteString("svc:\n  entrypoint: *a29\n  command: [--port, \"8000\"]\n")
	lists, _ := containerCommands(b.String())
	for _, l := range lists {
		if len(l) > 100 {
			t.Errorf("an alias was expanded into %d words", len(l))
		}
	}
	big := "svc:\n  entrypoint: vllm serve m\n  command: --port 8000\n" + strings.Repeat("# pad\n", maxComposeBytes/6+1)
	if lists, _ := containerCommands(big); lists != nil {
		t.Errorf("a block of %d bytes was read: %v", len(big), lists)
	}
	if lists, _ := containerCommands("svc:\n  entrypoint: vllm serve m\n  command: --port 8000\n"); len(lists) != 1 {
		t.Errorf("lists = %v, want one", lists)
	}
}

// TestWithoutCJKSentence: a message ends where the CJK sentence of the
// post's that goes on after it on its line begins; a quoted CJK path and
// a message in Chinese stay whole.
func TestWithoutCJKSentence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"'model.layers.0.mlp.gate_up_proj.weight'，请问怎么解决？", "'model.layers.0.mlp.gate_up_proj.weight'"},
		{"'model.layers.0.mlp.gate_up_proj.weight',请问怎么解决?", "'model.layers.0.mlp.gate_up_proj.weight'"},
		{"CUDA out of memory. 显存不够吗", "CUDA out of memory."},
		{"No such file or directory: '/data/模型/config.json'", "No such file or directory: '/data/模型/config.json'"},
		{"模型不支持，请检查", "模型不支持，请检查"},
		{"unsupported model Qwen模型", "unsupported model Qwen模型"},
		{"plain message", "plain message"},
	}
	for _, tt := range tests {
		if got := withoutCJKSentence(tt.in); got != tt.want {
			t.Errorf("withoutCJKSentence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWithoutPlea: a message ends where the writer's plea or question
// goes on after it; vLLM's own "Please …" and a "but" inside a message
// stay.
func TestWithoutPlea(t *testing.T) {
	tests := []struct{ in, want string }{
		{"'model.layers.0.mlp.gate_up_proj.weight', any idea how to fix this?", "'model.layers.0.mlp.gate_up_proj.weight'"},
		{"CUDA error: an illegal memory access was encountered. Any help is appreciated!", "CUDA error: an illegal memory access was encountered."},
		{"Engine core initialization failed, can someone help?", "Engine core initialization failed"},
		{"This model's maximum context length is 4096 tokens. Please reduce the length of the messages.", "This model's maximum context length is 4096 tokens. Please reduce the length of the messages."},
		{"Expected all tensors to be on the same device, but found at least two devices", "Expected all tensors to be on the same device, but found at least two devices"},
	}
	for _, tt := range tests {
		if got := withoutPlea(tt.in); got != tt.want {
			t.Errorf("withoutPlea(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWithoutCutCopies: an error another of its class says in full is
// dropped, whatever the order; errors of other classes and messages that
// only share a start stay.
func TestWithoutCutCopies(t *testing.T) {
	errs := []ErrorInfo{
		{Type: "ValueError", Message: "The model"},
		{Type: "RuntimeError", Message: "The model"},
		{Type: "ValueError", Message: "The model's max seq len (8192)"},
		{Type: "ValueError", Message: "The model's max seq len (4096) differs"},
		{Type: "RuntimeError", Message: ""},
		{Type: "RuntimeError", Message: "Engine Core initialization failed"},
	}
	var got []string
	for _, e := range withoutCutCopies(errs) {
		got = append(got, e.Type+": "+e.Message)
	}
	want := []string{
		"RuntimeError: The model",
		"ValueError: The model's max seq len (8192)",
		"ValueError: The model's max seq len (4096) differs",
		"RuntimeError: Engine Core initialization failed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("withoutCutCopies = %q, want %q", got, want)
	}
}

// TestContainerCommands: which Compose services and Kubernetes
// containers read as one command line.
func TestContainerCommands(t *testing.T) {
	tests := []struct {
		name, block string
		want        [][]string
	}{
		{"entrypoint and command", "svc:\n  entrypoint: [vllm, serve]\n  command: [m, --port, \"8000\"]\n", [][]string{{"vllm", "serve", "m", "--port", "8000"}}},
		{"entrypoint with its arguments", "svc:\n  entrypoint: vllm serve m --port 8000\n", [][]string{{"vllm", "serve", "m", "--port", "8000"}}},
		{"entrypoint naming its program only", "cfg:\n  entrypoint: vllm serve\n  run_command: >-\n    {{model_path}} --port {{port}}\n", nil},
		{"no entrypoint", "svc:\n  command: [m, --port, \"8000\"]\n", nil},
		{"not YAML", "svc:\n  entrypoint: [vllm\n serve\n", nil},
		{"container command and args", "containers:\n- name: vllm\n  command: [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n  args:\n  - --model=m/a\n  - \"--max-model-len 4096\"\n",
			[][]string{{"python3", "-m", "vllm.entrypoints.openai.api_server", "--model=m/a", "--max-model-len", "4096"}}},
		{"a shell's script in args", "containers:\n- command: [\"/bin/sh\", \"-c\"]\n  args: [\"vllm serve m --port 8000\"]\n", [][]string{{"/bin/sh", "-c", "vllm serve m --port 8000"}}},
		{"the second document of a file", "kind: Service\n---\nkind: Pod\nspec:\n  containers:\n  - command: [vllm, serve]\n    args: [m]\n", [][]string{{"vllm", "serve", "m"}}},
		{"args alone", "containers:\n- args: [--model, m]\n", nil},
		{"command alone", "containers:\n- command: [vllm, serve, m]\n", nil},
	}
	for _, tt := range tests {
		got, _ := containerCommands(tt.block)
		if !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// commandPrints prints each of the post's commands as its arguments and
// flags, for comparing with what a reader of the post sees.
func commandPrints(f Facts) []string {
	var out []string
	for _, c := range f.Commands {
		out = append(out, fmt.Sprint(c.Args, c.Flags))
	}
	return out
}
