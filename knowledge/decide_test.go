package knowledge

import (
	"testing"
)

// A post whose only failure is its command line refused (argparse's usage
// error) is not replied to with an entry that says nothing of the
// refusal: no symptom of it matches and it names none of the options the
// refusal names. Any such link, or any other error in the post, leaves
// the decision to the confidence.
func TestDecideRefusedCommandLine(t *testing.T) {
	t.Parallel()
	th := Thresholds{Reply: 0.5, CiteRelevance: 0.5, MaxCitations: 4}
	refused := ErrorInfo{Type: "usage-error", Message: "argument --pipeline-parallel-size: invalid int value", Kind: "usage-error"}
	oom := ErrorInfo{Type: "torch.OutOfMemoryError", Message: "CUDA out of memory.", Kind: "oom"}
	shm := Entry{ID: "shm", Flags: []string{"--ipc", "--shm-size", "--tensor-parallel-size"}}
	pp := Entry{ID: "pp", Flags: []string{"--pipeline_parallel_size"}}
	match := func(e Entry, ev map[string]float64) []Match {
		return []Match{{Entry: e, ID: e.ID, Structured: true, Confidence: 0.99, Relevance: 0.99, Evidence: ev}}
	}
	tests := []struct {
		name   string
		errors []ErrorInfo
		ranked []Match
		want   Decision
	}{
		{"refused, the top about something else", []ErrorInfo{refused}, match(shm, map[string]float64{fTopic: 1, fNamed: 1}), DecisionAbstain},
		{"refused, the top names the refused option", []ErrorInfo{refused}, match(pp, map[string]float64{fTopic: 1}), DecisionReply},
		{"refused, the top's symptom matches", []ErrorInfo{refused}, match(shm, map[string]float64{fSignature: 0.8}), DecisionReply},
		{"refused, the top's described symptom", []ErrorInfo{refused}, match(shm, map[string]float64{fSymptom: 0.9}), DecisionReply},
		{"refused and out of memory", []ErrorInfo{refused, oom}, match(shm, map[string]float64{fTopic: 1}), DecisionReply},
		{"no error", nil, match(shm, map[string]float64{fTopic: 1}), DecisionReply},
	}
	for _, tt := range tests {
		d, conf, cited := DecideQuestion(&Facts{Errors: tt.errors}, tt.ranked, th)
		if d != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, d, tt.want)
		}
		if conf != 0.99 {
			t.Errorf("%s: confidence %.2f, want the top's 0.99 kept for the queue", tt.name, conf)
		}
		if d == DecisionAbstain && cited != nil {
			t.Errorf("%s: abstains citing %v", tt.name, cited)
		}
	}
}

// The two real posts the rule was written for, in their form, answered
// over the pack and the corpus issues, where each was replied to above
// 0.9 with advice for a server that runs (shared memory, the CPU wheel).
// Two posts cost seconds under the race detector, so it runs in make
// test's race step, unlike the corpus-wide answer tests.
func TestRefusedCommandLineNotAnswered(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping the corpus in -short mode")
	}
	pa := newCorpusAnswerer(t)
	posts := []Post{{
		// vllm-project/vllm#2235: docker's -p after the image, read by vLLM.
		Title: "Argument --pipeline-parallel-size/-pp: invalid int value: '8000:8000",
		Body: "Running the docker image on a cloud template I get:\n" +
			"`api_server.py: error: argument --pipeline-parallel-size/-pp: invalid int value: '8000:8000`\n\n" +
			"I followed the [docs](https://docs.vllm.ai/en/latest/serving/deploying_with_docker.html). What causes this?",
	}, {
		// opea-project/GenAIComps#336: a shell handed to the server's entrypoint.
		Title: "Dockerfile.cpu",
		Body: "```\ndocker run -it -p 8008:80 -v ./data:/data vllm:cpu /bin/bash -c \"export VLLM_CPU_KVCACHE_SPACE=40 && " +
			"python3 -m vllm.entrypoints.openai.api_server --model ${MODEL} --port 80\"\n```\nfails with\n" +
			"```\napi_server.py: error: unrecognized arguments: /bin/bash -c export VLLM_CPU_KVCACHE_SPACE=40 && python3 -m vllm.entrypoints.openai.api_server --model --port 80\n```",
	}}
	for _, p := range posts {
		a := pa.answer(p)
		if a.Decision == DecisionReply {
			t.Errorf("%q: %s", p.Title, answerPrint(a))
		}
	}
}

// vLLM's refusal of a request longer than the context, in the engine's
// wording ("The decoder prompt (length N) is longer than the maximum
// model length of M"), offline, through a trainer or relayed in a 400
// reply (unslothai/unsloth#2666, EvolvingLMMs-Lab/lmms-eval#711,
// Guanzhou-Ke/Knowledge-Bridger#4), is the pack's request-time entry's
// (#20409), not the start-up KV-cache error's (#2418), whose advice,
// lower --max-model-len, is the opposite.
func TestRequestLongerThanContextTopsTheContextEntry(t *testing.T) {
	t.Parallel()
	pa := newPackAnswerer(t)
	posts := []Post{{
		Title: "ValueError: The decoder prompt (length 322) is longer than the maximum model length of 256.",
		Body:  "ValueError: The decoder prompt (length 322) is longer than the maximum model length of 256. Make sure that `max_model_len` is no smaller than the number of text tokens.\nvllm: 0.8.5.post1\nHow to solve this problem?",
	}, {
		Title: "MM prompt too long during vllm generation",
		Body:  "```python\nValueError: The decoder prompt (length 337896) is longer than the maximum model length of 128000. Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens.\n```",
	}, {
		Title: "max_model_len question",
		Body: "vllm serve Qwen/Qwen2-VL-2B-Instruct --max_model_len 8192 --gpu-memory-utilization 0.9 --tensor-parallel-size 2\n\n" +
			"ERROR - Error code: 400 - {'object': 'error', 'message': 'The decoder prompt (length 15329) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens.', 'type': 'BadRequestError', 'code': 400}\n\nShould I ignore this error?",
	}}
	for _, p := range posts {
		if a := pa.answer(p); len(a.Matches) == 0 || a.Matches[0].ID != "vllm-project/vllm#20409" {
			t.Errorf("%q: %s", p.Title, answerPrint(a))
		}
	}
}
