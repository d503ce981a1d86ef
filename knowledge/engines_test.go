package knowledge

import "testing"

// Posts about another serving engine reach a vLLM forum too: the vllm-dev
// set holds seven, about lmdeploy, sglang, llama.cpp and TensorRT-LLM,
// from five projects' trackers. A command decides first; without one, the
// names the post uses do.
func TestOtherEngine(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	tests := []struct {
		name, title, body, want string
	}{
		{"runs lmdeploy", "[Bug] tool-call-parser fails", "`lmdeploy serve api_server ./model --tp 2 --tool-call-parser qwen`", "lmdeploy"},
		{"runs a python module of sglang", "[Bug] server just gets stuck",
			"```\nCUDA_VISIBLE_DEVICES=1 /opt/envs/user_sglang/bin/python -m sglang.launch_server --model /data/m\n```\n```\nsglang: 0.4.2\nvllm: 0.7.2\n```", "sglang"},
		{"names trtllm-serve in the title", "trtllm-serve freezes with TP > 1 on L40S", "It hangs after loading the engine.", "trtllm-serve"},
		{"names sglang in a sentence", "caught between two memory errors", "Run sglang with --mem-fraction-static 0.85 and CUDA OOM occurs.", "sglang"},
		{"names llama.cpp in a URL", "Embeddings fail", "```\ncurl http://localhost:12434/engines/llama.cpp/v1/embeddings\n```", "llama.cpp"},
		// TensorRT-LLM's LLM API is vLLM's in name and keywords: the
		// import says whose it is (NVIDIA/TensorRT-LLM#7818 and
		// TensorRT-LLM's examples import it so), directly or through a
		// module imported under another name.
		{"imports TensorRT-LLM's LLM", "OOM on GPU 0 with 8 GPUs",
			"```python\nfrom tensorrt_llm import LLM, SamplingParams\n\nllm = LLM(model='./m', tensor_parallel_size=8, dtype='bfloat16')\n```\nCUDA out of memory on GPU 0.", "tensorrt_llm"},
		{"calls TensorRT-LLM's module", "OOM on GPU 0",
			"```python\nimport tensorrt_llm as trt\nllm = trt.LLM(model='./m', tensor_parallel_size=2)\n```", "tensorrt_llm"},
		{"imports vLLM's LLM after a comparison", "slower than TensorRT-LLM",
			"```python\nfrom tensorrt_llm import SamplingParams\nfrom vllm import LLM\nllm = LLM(model='./m', tensor_parallel_size=2)\n```", ""},
		// Posts about vLLM that mention another engine stay vLLM's.
		{"compares with vLLM", "sglang is faster than vLLM on H100", "Same model, same GPU.", ""},
		{"runs vllm, mentions ollama", "Moving from ollama", "```\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n```\nIt fails with OOM.", ""},
		{"vllm in a version listing", "Hangs on start", "Using lmdeploy's bench script.\n```\nvllm: 0.7.2\n```", ""},
		// A name inside another word is not the engine's.
		{"engine name inside a path", "Server crashes", "```\n/home/me/user_sglang/run.sh\n```", ""},
		{"says nothing", "Server crashes on start", "It dies after loading the weights.", ""},
	}
	for _, tt := range tests {
		f, err := Extract(Post{Title: tt.title, Body: tt.body}, s)
		if err != nil {
			t.Fatal(err)
		}
		if f.OtherEngine != tt.want {
			t.Errorf("%s: OtherEngine = %q, want %q", tt.name, f.OtherEngine, tt.want)
		}
	}
}

// Every candidate of a post about another engine carries the evidence,
// so the calibration can weigh it; the ranking of the candidates does not
// change.
func TestOtherEngineEvidence(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	post := Post{Title: "Tool calling broken", Body: "`lmdeploy serve api_server ./m --tool-call-parser qwen`"}
	f, err := Extract(post, s)
	if err != nil {
		t.Fatal(err)
	}
	cands := []Candidate{
		{Entry: Entry{ID: "a", Title: "tool-call-parser qwen drops calls", Flags: []string{"--tool-call-parser"}}, TextScore: 2},
		{Entry: Entry{ID: "b", Title: "Tool calling docs"}, TextScore: 1},
	}
	about := Rank(post, &f, cands, DefaultModel())
	f.OtherEngine = ""
	not := Rank(post, &f, cands, DefaultModel())
	if a, n := about[0].Confidence, not[0].Confidence; a >= n {
		t.Errorf("top confidence %.3f about another engine, %.3f not: the embedded calibration does not weigh it", a, n)
	}
	for i, m := range about {
		if m.Evidence[OtherEngineEvidence] != 1 {
			t.Errorf("%s: other_engine evidence %v, want 1", m.ID, m.Evidence[OtherEngineEvidence])
		}
		if m.ID != not[i].ID || m.Score != not[i].Score {
			t.Errorf("rank %d: %s (%.3f) about another engine, %s (%.3f) not: the evidence moved the ranking", i, m.ID, m.Score, not[i].ID, not[i].Score)
		}
	}
}

// A post about another engine is never replied to, however sure its top
// match; its confidence stays, for the queue.
func TestDecideOtherEngine(t *testing.T) {
	t.Parallel()
	ranked := []Match{{ID: "a", Structured: true, Confidence: 0.99, Relevance: 0.99}}
	th := Thresholds{Reply: 0.5, CiteRelevance: 0.5, MaxCitations: 4}
	if d, _, cited := DecideQuestion(&Facts{}, ranked, th); d != DecisionReply || len(cited) != 1 {
		t.Fatalf("about vLLM: %s citing %d, want a reply citing 1", d, len(cited))
	}
	d, conf, cited := DecideQuestion(&Facts{OtherEngine: "lmdeploy"}, ranked, th)
	if d != DecisionAbstain || conf != 0.99 || cited != nil {
		t.Errorf("about lmdeploy: %s at %.2f citing %v, want abstain at 0.99 citing nothing", d, conf, cited)
	}
}

// A vLLM forum gets posts whose failure is another program's: a
// fine-tuning script's CUDA out of memory, raised in torch's backward
// pass (AITextGenerator#10, ParlAI#4452, nile#1), which the pack's OOM
// entries would otherwise answer with vLLM's memory flags. Any trace of
// vLLM (its name, its frames, a command or version of it) keeps a post
// vLLM's.
func TestForeignError(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	training := "```\nTraceback (most recent call last):\n  File \"finetuning.py\", line 362, in train\n    scaled_loss.backward()\n" +
		"  File \"/usr/local/lib/python3.7/dist-packages/torch/tensor.py\", line 198, in backward\n    torch.autograd.backward(self, gradient)\n" +
		"RuntimeError: CUDA out of memory. Tried to allocate 194.00 MiB (GPU 0; 15.78 GiB total capacity; 13.94 GiB already allocated)\n```"
	glued := "Iteration:  20% 989/5070 [00:13<08:41,  7.83it/s]Traceback (most recent call last):\n" +
		"  File \"/mnt/envs/parlai/lib/python3.9/site-packages/torch/_tensor.py\", line 363, in backward\n    torch.autograd.backward(self)\n" +
		"RuntimeError: CUDA out of memory. Tried to allocate 21.06 GiB (GPU 3; 79.35 GiB total capacity)"
	vllmFrames := "```\nTraceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/vllm/worker/worker.py\", line 1, in f\n" +
		"  File \"/usr/lib/python3/dist-packages/torch/cuda/memory.py\", line 2, in g\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n```"
	tests := []struct {
		name, title, body string
		want              bool
	}{
		{"a training script's OOM", "CUDA out of memory when fine-tuning", training, true},
		{"the head glued to a progress bar", "Finetuning", glued, true},
		{"the title names vLLM", "vLLM: CUDA out of memory when fine-tuning", training, false},
		{"a command runs vLLM", "OOM", "`vllm serve m/x --max-model-len 8192` then\n\n" + training, false},
		{"vLLM's frames", "OOM", vllmFrames, false},
		{"no traceback", "CUDA out of memory", "RuntimeError: CUDA out of memory. Tried to allocate 194.00 MiB", false},
		// A client's traceback relays a server's answer, which may be
		// vLLM's (its message names vLLM's own flags).
		{"a client relaying the server's refusal", "tool calls fail", "```\nTraceback (most recent call last):\n" +
			"  File \"/home/u/.venv/lib/python3.11/site-packages/openai/_base_client.py\", line 1037, in request\n    raise err\n" +
			"openai.BadRequestError: Error code: 400 - {'message': '\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'}\n```", false},
	}
	for _, tt := range tests {
		f, err := Extract(Post{Title: tt.title, Body: tt.body}, s)
		if err != nil {
			t.Fatal(err)
		}
		if f.ForeignError != tt.want {
			t.Errorf("%s: ForeignError = %v, want %v (errors %+v)", tt.name, f.ForeignError, tt.want, f.Errors)
		}
	}
	ranked := []Match{{ID: "a", Structured: true, Confidence: 0.95, Relevance: 0.95}}
	d, conf, cited := DecideQuestion(&Facts{ForeignError: true}, ranked, Thresholds{Reply: 0.5, CiteRelevance: 0.5, MaxCitations: 4})
	if d != DecisionAbstain || conf != 0.95 || cited != nil {
		t.Errorf("another program's failure: %s at %.2f citing %v, want abstain at 0.95 citing nothing", d, conf, cited)
	}
}

// TestQualifier: the dotted name a call goes through starts with a
// letter or an underscore, as a Python name does.
func TestQualifier(t *testing.T) {
	t.Parallel()
	for before, want := range map[string]string{
		"llm = tensorrt_llm.": "tensorrt_llm",
		"(a.b.":               "a.b",
		"x = 9a.":             "a",
		"vllm 0.":             "",
		"llm = ":              "",
		"":                    "",
	} {
		if got := qualifier(before); got != want {
			t.Errorf("qualifier(%q) = %q, want %q", before, got, want)
		}
	}
}
