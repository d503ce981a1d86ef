package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestComposeNeutralisesHostileText(t *testing.T) {
	t.Parallel()
	f := Facts{
		Commands: []Command{{Program: "vllm", Subcommand: "serve", Flags: map[string]string{}}},
		Errors:   []ErrorInfo{{Type: "ValueError`<script>@admins", Message: "x"}},
		Models:   []string{"@everyone/`evil`\n<img src=x>"},
		Versions: map[string]string{"vllm": "0.1.0 @staff"},
	}
	m := Match{
		Entry: Entry{ID: "o/r#1", Kind: KindIssue, URL: "https://github.com/o/r/issues/1",
			Title: "ping @team ](javascript:alert(1)) <b>", Summary: "Ask @moderators <iframe>.",
			Advice: []string{"Tell @admins"}},
		ID: "o/r#1", Reasons: []string{"the command sets --x @here"},
	}
	bad := Match{Entry: Entry{ID: "o/r#2", URL: "javascript:alert(1)", Title: "bad link"}}
	reply := Compose(&f, []Match{m, bad}, ComposeOptions{BotName: "herald"})
	checkReplySafe(t, reply, m, bad)
	if !strings.Contains(reply, "**Likely cause** ([") || !strings.Contains(reply, "(https://github.com/o/r/issues/1)") || !strings.Contains(reply, "`@herald`") {
		t.Errorf("reply lacks the cause with its link or the follow-up hint:\n%s", reply)
	}
	if strings.Contains(reply, "javascript:") {
		t.Errorf("reply links a javascript: URL:\n%s", reply)
	}
}

// A docs page is cited for how the thing works, not as the cause of the
// failure; an issue is the likely cause.
func TestComposeNamesWhatTheTopSourceIs(t *testing.T) {
	t.Parallel()
	f := Facts{Errors: []ErrorInfo{{Type: "torch.OutOfMemoryError", Message: "CUDA out of memory"}}}
	for kind, want := range map[string]string{KindDocs: "**From the docs** ([", KindIssue: "**Likely cause** (["} {
		m := Match{ID: "e", Entry: Entry{ID: "e", Kind: kind, URL: "https://example.org/e", Title: "Conserving memory",
			Summary: "Cap the context length."}}
		if reply := Compose(&f, []Match{m}, ComposeOptions{BotName: "herald"}); !strings.Contains(reply, want) {
			t.Errorf("%s top: reply lacks %q:\n%s", kind, want, reply)
		}
	}
	// An imported report with no summary: nobody has said what caused
	// it, so it is a similar report, not the likely cause.
	m := Match{ID: "o/r#2", Entry: Entry{ID: "o/r#2", Kind: KindIssue, URL: "https://github.com/o/r/issues/2",
		Title: "RuntimeError: CUDA error: an illegal memory access was encountered"}}
	reply := Compose(&f, []Match{m}, ComposeOptions{BotName: "herald"})
	if !strings.Contains(reply, "**Similar report** ([") || strings.Contains(reply, "Likely cause") {
		t.Errorf("report without a summary:\n%s", reply)
	}
}

// TestComposeNamesWhatFailed: the reply names the main package's command
// that failed, not an issue template's "python collect_env.py" read
// before it, and a Python API call as the call it is.
func TestComposeNamesWhatFailed(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	body := "<details>\n<summary>The output of <code>python collect_env.py</code></summary>\n\nvLLM Version: 0.7.3\n</details>\n\n" +
		"```python\nllm = LLM(model=\"Qwen/Qwen2.5-7B-Instruct\", max_model_len=200000)\n```\n\nValueError: The model's max seq len (200000) is larger than the maximum number of tokens that can be stored in KV cache (52000)."
	f, _ := Extract(Post{Body: body}, p.Schema())
	m := Match{ID: "e", Entry: Entry{ID: "e", Kind: KindIssue, URL: "https://example.org/e", Title: "t", Summary: "Lower the context."}}
	reply := Compose(&f, []Match{m}, ComposeOptions{BotName: "herald"})
	if !strings.HasPrefix(reply, "`LLM()` with `Qwen/Qwen2.5-7B-Instruct`") {
		t.Errorf("reply opens %q, want the API call and its model", strings.SplitN(reply, "\n", 2)[0])
	}
}

// TestComposeLeavesOutAdviceThatDoesNotApply: what to try leaves out a
// line whose condition the post's facts contradict (a version range, a
// platform, a switch the command already sets), a line that only tells
// the poster to turn on what they run with (vllm#2140's and vllm#26863's
// out-of-memory posts run with --enforce-eager), and an upgrade to the
// release they run. A line that names a setting they lack still applies.
func TestComposeLeavesOutAdviceThatDoesNotApply(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	advice := []string{
		"Add `--enforce-eager` to skip CUDA-graph capture.",
		"{unset --enforce-eager} Try `--enforce-eager`, or keep CUDA graphs and lower `--max-num-seqs`.",
		"Start the server with `--enable-auto-tool-choice` and `--tool-call-parser`.",
		"{vllm <0.8.0} Set VLLM_USE_V1=0.",
		"{platform rocm} Set HIP_VISIBLE_DEVICES.",
		"Upgrade to vLLM 0.8.5.",
	}
	m := Match{ID: "e", Entry: Entry{ID: "e", Kind: KindIssue, URL: "https://example.org/e", Title: "t", Summary: "s", Source: "pack:vllm", Advice: advice}}
	tests := []struct {
		name, body string
		want       []int // indexes into advice, in order
	}{
		{"no command, no version", "It runs out of memory.", []int{0, 1, 2}},
		{"eager already", "vllm 0.9.1 on CUDA\n```\nvllm serve m/a --enforce-eager --enable-auto-tool-choice\n```", []int{2}},
		{"a command without the switch", "vllm 0.9.1\n```\nvllm serve m/a --max-num-seqs 8\n```", []int{0, 1, 2}},
		{"older release on ROCm, eager already", "vllm 0.7.3 on ROCm\n```\nvllm serve m/a --enforce-eager\n```", []int{2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Extract(Post{Body: tt.body}, p.Schema())
			got := adviceFor(&f, []Match{m})
			var want []string
			for _, i := range tt.want {
				_, text := splitAdviceCondition(advice[i])
				want = append(want, text)
			}
			if !slices.Equal(got, want) {
				t.Errorf("advice = %q, want %q", got, want)
			}
		})
	}
}

// TestComposeSaysAdviceOnce: a line of a later entry that names the
// same options as one already listed is the same advice in other words
// (vllm#9986's "Restart the server with `--enable-auto-tool-choice
// --tool-call-parser …`" and the tool-calling page's "Start the server
// with both …"; vllm#2418's and vllm#2248's "raise
// `--gpu-memory-utilization`"), and goes. Lines of one entry all stay,
// as do lines naming other options or none.
func TestComposeSaysAdviceOnce(t *testing.T) {
	t.Parallel()
	issue := Match{ID: "a", Entry: Entry{ID: "a", Source: "pack:vllm", Advice: []string{
		"Restart the server with `--enable-auto-tool-choice --tool-call-parser <parser>`.",
		"Pass `--tool-call-parser=hermes` for Qwen models.",
	}}}
	page := Match{ID: "b", Entry: Entry{ID: "b", Source: "pack:vllm", Advice: []string{
		"Start the server with both `--enable-auto-tool-choice` and the `--tool-call-parser` listed for your model family.",
		"Check that the chat template renders tools.",
		"Use `--chat-template` with a template that renders tools.",
	}}}
	got := adviceFor(&Facts{}, []Match{issue, page})
	want := []string{
		"Restart the server with `--enable-auto-tool-choice --tool-call-parser <parser>`.",
		"Pass `--tool-call-parser=hermes` for Qwen models.",
		"Check that the chat template renders tools.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("advice = %q, want %q", got, want)
	}
	for _, tt := range []struct{ text, want string }{
		{"Restart with `--enable-auto-tool-choice --tool-call-parser <parser>`.", "--enable-auto-tool-choice --tool-call-parser"},
		{"Set `--max-model-len=4096` and `--max_num_seqs 8`.", "--max-model-len --max-num-seqs"},
		{"Lower `--max-model-len`; `--max-model-len 2048` often fits.", "--max-model-len"},
		{"Check the chat template; set `VLLM_USE_V1=0`; pass `-tp 2`.", ""},
	} {
		if got := adviceOptions(tt.text); got != tt.want {
			t.Errorf("adviceOptions(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestComposeWorksOutTheWeights: an out-of-memory post's reply says what
// the model's weights take on each GPU, from the size its name states,
// its dtype or quantization and the GPUs it is split over, against the
// card or the share the utilization option plans for (vllm#2140 ran a 7B
// model at --dtype=float on a 22 GiB card). It says nothing when a fact
// is missing or uncertain: no size in the name (DeepSeek-V3), a mixture
// named by its experts (8x7B), a quantization of another width (GGUF,
// Q5), offloaded weights, no card size, no out-of-memory error.
func TestComposeWorksOutTheWeights(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	const oom = "\n\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacty of 21.67 GiB of which 4.06 MiB is free."
	tests := []struct{ name, body, want string }{
		{"float32 on one card", "```\nvllm serve q/Qwen2-7B-Instruct --dtype=float\n```" + oom,
			"`Qwen2-7B-Instruct` has about 7 billion parameters; at 4 bytes a weight (`--dtype float`) they alone take about 26.08 GiB, more than the 21.67 GiB card, so it cannot load this way: load it at 16 bits (`--dtype auto`), split it over more GPUs (`--tensor-parallel-size`), keep part of it in CPU memory (`--cpu-offload-gb`) or serve a checkpoint quantized to fewer bits."},
		{"4-bit over four GPUs", "```\nvllm serve q/Qwen2.5-72B-Instruct-AWQ -tp 4 --gpu-memory-utilization 0.9\n```" + oom,
			"`Qwen2.5-72B-Instruct-AWQ` has about 72 billion parameters; at half a byte a weight (4-bit) they alone take about 8.38 GiB on each of 4 GPUs of that budget; the rest holds activations, CUDA graphs and the KV cache."},
		{"the total of a mixture of experts", "```\nvllm serve q/Qwen3-30B-A3B-FP8\n```" + oom,
			"`Qwen3-30B-A3B-FP8` has about 30 billion parameters; at 1 byte a weight (8-bit) they alone take about 27.94 GiB, more than the 21.67 GiB card, so it cannot load this way: split it over more GPUs (`--tensor-parallel-size`), keep part of it in CPU memory (`--cpu-offload-gb`) or serve a checkpoint quantized to fewer bits."},
		{"4-bit beyond the card", "```\nvllm serve q/Qwen2.5-72B-Instruct-AWQ\n```" + oom,
			"`Qwen2.5-72B-Instruct-AWQ` has about 72 billion parameters; at half a byte a weight (4-bit) they alone take about 33.53 GiB, more than the 21.67 GiB card, so it cannot load this way: split it over more GPUs (`--tensor-parallel-size`) or keep part of it in CPU memory (`--cpu-offload-gb`)."},
		{"a card named, no total", "On an RTX 4070 Ti 12GB:\n```\nvllm serve q/Qwen2.5-1.5B-Instruct --gpu-memory-utilization 0.7\n```\n\nRuntimeError: CUDA error: out of memory",
			"`Qwen2.5-1.5B-Instruct` has about 1.5 billion parameters; at 2 bytes a weight they alone take about 2.79 GiB of the 8.4 GiB `--gpu-memory-utilization 0.7` plans for on the 12 GiB card; the rest holds activations, CUDA graphs and the KV cache."},
		{"no size in the name", "```\nvllm serve deepseek-ai/DeepSeek-V3\n```" + oom, ""},
		{"experts by count", "```\nvllm serve m/Mixtral-8x7B-Instruct-v0.1\n```" + oom, ""},
		{"another width", "```\nvllm serve /m/llama-2-7b-chat.Q5_K_M.gguf\n```" + oom, ""},
		{"offloaded", "```\nvllm serve q/Qwen2-7B-Instruct --cpu-offload-gb 10\n```" + oom, ""},
		{"no card size", "```\nvllm serve q/Qwen2-7B-Instruct\n```\n\nRuntimeError: CUDA error: out of memory", ""},
		{"not about memory", "```\nvllm serve q/Qwen2-7B-Instruct\n```\n\nValueError: unknown dtype", ""},
		{"a request over the context", "On an RTX 4090 24GB:\n```\nvllm serve q/Qwen2-7B-Instruct\n```\n\nopenai.BadRequestError: This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.", ""},
		{"a KV cache too small", "On an RTX 4090 24GB:\n```\nvllm serve q/Qwen2-7B-Instruct\n```\n\nValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (52000). Try increasing gpu_memory_utilization.",
			"`Qwen2-7B-Instruct` has about 7 billion parameters; at 2 bytes a weight they alone take about 13.04 GiB of the 24 GiB card."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Extract(Post{Body: tt.body}, p.Schema())
			got := weightsLine(&f, oomNumbers(&f), utilization(&f))
			if got != tt.want {
				t.Errorf("weights line\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestComposeWritesSettingsAsThePostSetsThem: a post that starts the
// engine from Python or through an evaluation harness has no command
// line; the worked numbers name its keyword, not a flag it cannot pass.
func TestComposeWritesSettingsAsThePostSetsThem(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	const kv = "\n\nValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (52000). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
	for _, c := range []struct{ name, body, want string }{
		{"command line", "```\nvllm serve m/Llama-3.1-8B-Instruct --max-model-len 131072\n```" + kv, "`--max-model-len 52000` or lower would start"},
		{"Python API", "```python\nllm = LLM(model=\"m/Llama-3.1-8B-Instruct\", max_model_len=131072)\n```" + kv, "`max_model_len=52000` or lower would start"},
		{"evaluation harness", "```\nlm_eval --model vllm --model_args pretrained=m/Llama-3.1-8B-Instruct,max_model_len=131072 --tasks gsm8k\n```" + kv, "`max_model_len=52000` or lower would start"},
	} {
		f, _ := Extract(Post{Body: c.body}, p.Schema())
		if got := workedNumbers(&f, nil); !strings.Contains(got, c.want) {
			t.Errorf("%s: worked numbers %q, want %q", c.name, got, c.want)
		}
	}
}

// TestComposeChecksTheServedName: a 404 for a model the server does not
// serve is set against what the post's server answers to: its served
// names, a LoRA module's name, or the model it was started with
// (vllm#3485; dify, open-webui and LiteLLM posts). It says nothing when
// the names agree, or without a server command.
func TestComposeChecksTheServedName(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	const notFound = "\n\nopenai.NotFoundError: Error code: 404 - {'object': 'error', 'message': 'The model `%s` does not exist.', 'type': 'NotFoundError', 'param': None, 'code': 404}"
	tests := []struct{ name, body, asked, want string }{
		{"a served name", "`vllm serve /models/Qwen2.5-14B-Instruct --served-model-name qwen`", "Qwen2.5-14B-Instruct",
			"**From your command:** the request asked for `Qwen2.5-14B-Instruct`, but the server answers to `qwen`: ask for that name."},
		{"the name served", "`vllm serve /models/Qwen2.5-14B-Instruct --served-model-name qwen`", "qwen", ""},
		{"started with a path", "`vllm serve /models/Qwen2.5-14B-Instruct --port 8000`", "Qwen2.5-14B-Instruct",
			"**From your command:** the request asked for `Qwen2.5-14B-Instruct`, but the server was started with `/models/Qwen2.5-14B-Instruct` and answers to that name unless `--served-model-name` gives it another."},
		{"a LoRA module", "`vllm serve m/base --enable-lora --lora-modules sql=/a/sql`", "sql-lora",
			"**From your command:** the request asked for `sql-lora`, but the server answers to `sql`: ask for that name."},
		{"a LoRA module as JSON", "```\nvllm serve m/base --enable-lora --lora-modules '{\"name\": \"sql\", \"path\": \"/a\"}'\n```", "sql", ""},
		{"no server command", "I call my server from dify.", "qwen", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Extract(Post{Body: tt.body + fmt.Sprintf(notFound, tt.asked)}, p.Schema())
			if f.RequestedModel != tt.asked {
				t.Fatalf("requested model = %q, want %q", f.RequestedModel, tt.asked)
			}
			if got := servedNameCheck(&f); got != tt.want {
				t.Errorf("check\n got %q\nwant %q", got, tt.want)
			}
		})
	}
	// The other ways the message quotes the name, and none.
	for _, msg := range []string{"The model 'a/b' does not exist.", "The model a/b does not exist.", "The model ``a/b`` does not exist."} {
		f, _ := Extract(Post{Body: "{'object': 'error', 'message': \"" + msg + "\", 'type': 'NotFoundError', 'code': 404}"}, p.Schema())
		if f.RequestedModel != "a/b" {
			t.Errorf("%s: requested model = %q, want a/b", msg, f.RequestedModel)
		}
	}
}

// TestComposeNamesOnlyWhatRunsThePackage: without the package's own
// command, the reply names a script with the interpreter that ran it
// (vllm-dev B005, C1-009) and a tool handed the package by option, but
// not a tool run on the side: `git log` showing the commit a post built
// (vllm-dev C1-014), `pip install -vvv vllm` (C2-021), `docker build`.
func TestComposeNamesOnlyWhatRunsThePackage(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	const failure = "\n\nValueError: No available memory for the cache blocks."
	for body, want := range map[string]string{
		"```\nbash scripts/run_for_7B_in_Linux_or_WSL.sh\n```":                  "`bash scripts/run_for_7B_in_Linux_or_WSL.sh` fails",
		"```\npython3 api_server.py --model /data/m --port 7803\n```":           "`python3 api_server.py` with `/data/m` fails",
		"```\nlm_eval --model vllm --tasks gsm8k\n```":                          "`lm_eval` fails",
		"```\ntrl vllm-serve --model a/b --enforce-eager\n```":                  "`trl vllm-serve` with `a/b` fails",
		"```\ngit log --oneline\n5eeabc2a (HEAD -> main) [Bugfix] Fix bnb\n```": "Your setup fails",
		"```\npip install -vvv vllm\n```":                                       "Your setup fails",
		"```\ndocker build -f docker/Dockerfile -t img .\n```":                  "Your setup fails",
	} {
		f, _ := Extract(Post{Body: body + failure}, p.Schema())
		m := Match{ID: "e", Entry: Entry{ID: "e", Kind: KindIssue, URL: "https://example.org/e", Title: "t", Summary: "Lower the context."}}
		reply := Compose(&f, []Match{m}, ComposeOptions{BotName: "herald"})
		if !strings.HasPrefix(reply, want) {
			t.Errorf("%q: reply opens %q, want %q", body, strings.SplitN(reply, "**", 2)[0], want)
		}
	}
}

// TestComposeSaysWhenTheReportIsAboutAnotherModel: a cited report whose
// text names its own model, for a post about another, is labelled as
// such rather than as the likely cause (vllm-dev B024, C2-005, C2-006).
func TestComposeSaysWhenTheReportIsAboutAnotherModel(t *testing.T) {
	t.Parallel()
	entry := func(summary string) Entry {
		return Entry{ID: "e", Kind: KindIssue, URL: "https://example.org/e", Title: "t", Models: []string{"deepseek-v3.2"}, Summary: summary}
	}
	own := "The DeepSeek-V3.2 repository ships no Jinja chat template."
	for _, tt := range []struct {
		name   string
		models []string
		entry  Entry
		same   bool // the ranking found the post's model family in the entry
		want   string
	}{
		{"another model, named", []string{"model/vicuna-13b-v1.5"}, entry(own), false, "**Seen with another model**"},
		{"the same model", []string{"deepseek-ai/DeepSeek-V3.2"}, entry(own), true, "**Likely cause**"},
		{"no model in the text", []string{"model/vicuna-13b-v1.5"}, entry("Supply a chat template with --chat-template."), false, "**Likely cause**"},
		{"no model in the post", nil, entry(own), false, "**Likely cause**"},
	} {
		f := Facts{Models: tt.models, Errors: []ErrorInfo{{Type: "ValueError", Message: "default chat template is no longer allowed"}}}
		m := Match{ID: "e", Entry: tt.entry, Evidence: map[string]float64{}}
		if tt.same {
			m.Evidence[fModel] = 1
		}
		if reply := Compose(&f, []Match{m}, ComposeOptions{BotName: "herald"}); !strings.Contains(reply, tt.want) {
			t.Errorf("%s: reply lacks %q:\n%s", tt.name, tt.want, reply)
		}
	}
}

// A report imported without a summary says what it is about only in its
// title: the reply's cause links it with its title, without the
// tracker's template and made inert, instead of the bare number.
func TestComposeTitlesAReportWithoutSummary(t *testing.T) {
	t.Parallel()
	e := Entry{ID: "o/r#18380", Kind: KindIssue, URL: "https://github.com/o/r/issues/18380",
		Title: "[Installation]: Failed to build vLLM from source @admin"}
	f := Facts{Errors: []ErrorInfo{{Type: "RuntimeError", Message: "Cannot find CUDA_HOME"}}}
	reply := Compose(&f, []Match{{ID: e.ID, Entry: e}}, ComposeOptions{BotName: "herald"})
	first, _, _ := strings.Cut(reply, "\n")
	if !strings.Contains(first, `Failed to build vLLM from source`) || strings.Contains(first, "Installation") || strings.Contains(first, "@admin") {
		t.Errorf("the cause does not name the report by its inert title, without its template:\n%s", first)
	}
	e.Summary = "The build needs CUDA_HOME to point at the toolkit."
	reply = Compose(&f, []Match{{ID: e.ID, Entry: e}}, ComposeOptions{BotName: "herald"})
	if first, _, _ := strings.Cut(reply, "\n"); strings.Contains(first, "Failed to build") {
		t.Errorf("a report with a summary is cited by its summary, its title repeated:\n%s", first)
	}
}

func TestComposeIsBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 2000)
	var cited []Match
	for i := 0; i < 4; i++ {
		cited = append(cited, Match{Entry: Entry{ID: "e", Kind: KindDocs, URL: "https://x.org/", Title: "t",
			Summary: long, Advice: []string{long, long}}})
	}
	reply := Compose(&Facts{}, cited, ComposeOptions{MaxChars: 3000})
	if len(reply) > 3000 {
		t.Errorf("reply is %d bytes, want at most 3000", len(reply))
	}
}

func TestCodeSpanCannotBeEscaped(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"a`b", "``x``", "`", "plain", "x\ny"} {
		c := code(s)
		fence := c[:strings.IndexFunc(c, func(r rune) bool { return r != '`' })]
		inner := strings.TrimSuffix(strings.TrimPrefix(c, fence), fence)
		if strings.Contains(inner, fence) || strings.Contains(c, "\n") {
			t.Errorf("code(%q) = %q can end early", s, c)
		}
	}
}

// A pack author's command in a code span is what a reader copies: it is
// left as written, while the same characters in prose are neutralised.
func TestSafeProseKeepsCodeSpansAsWritten(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Restart with `--tool-call-parser <parser>`.", "Restart with `--tool-call-parser <parser>`."},
		{"Use <b>bold</b> and `<think>`", "Use \\<b>bold\\</b> and `<think>`"},
		{"Already \\<x> and \\\\<y>", "Already \\<x> and \\\\\\<y>"},
		{"Ask @team in `@decorator` or ``a ` <x>``", "Ask @\u200bteam in `@decorator` or ``a ` <x>``"},
		{"Unclosed `run <x>", "Unclosed `run \\<x>"},
		{"Mixed ``run` <x>", "Mixed ``run` \\<x>"},
		{"Escaped \\`<x>` stays prose", "Escaped \\`\\<x>` stays prose"},
		{"See #16901 and `#16901`", "See #\u200b16901 and `#16901`"},
	} {
		if got := safeProse(c.in); got != c.want {
			t.Errorf("safeProse(%q) = %q, want %q", c.in, got, c.want)
		}
		if p := ReplyProblems(safeProse(c.in), nil); len(p) > 0 {
			t.Errorf("safeProse(%q) is not inert: %v", c.in, p)
		}
	}
}

func TestIsSupportQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		title, body string
		want        bool
	}{
		{"[Feature]: Set max_model_len automatically", "ValueError: too long", false},
		{"We are excited to announce vLLM 1.0", "Come celebrate.", false},
		{"Server hangs with TP=2", "It hangs after loading.", true},
		{"Question", "How do I enable prefix caching?", true},
		{"Thanks everyone", "Great meetup yesterday.", false},
		// A usage template says it asks for help, whatever the body.
		{"[Usage]: Prefix caching in VLLM", "I want to use prefix caching for my chat app.", true},
		// Questions about behaviour without a question mark, and with a
		// full-width one.
		{"What do max_num_seqs and max_model_len do", "I read the docs.", true},
		{"vllm server 如何处理并发？", "谢谢", true},
		{"Is it possible to serve two models from one server", "", true},
		{"Memory leak after a day of serving", "RAM grows by 2 GB an hour.", true},
		// A request for an explanation or advice without a question mark,
		// as forum posts end ("Any ideas would help!", vllm-dev B004;
		// "Any ideas or workarounds would be appreciated.", C1-029; the
		// whole ask of vllm-project/vllm#823).
		{"GPU memory requirement very high + tensor parallelization acts weird", "I am using a system with 2 A100 GPUs to run Llama2-13b chat model on vLLMs.\nIf I use tensor_parallel_size = 2, then the model takes up to 38GB on each GPU -- total 76GB.\n\nCan anyone explain the reason for this discrepancy", true},
		{"Throughput halves with two replicas", "Same model, same load balancer. Any ideas would help!", true},
		// A failure a title states without a problem word: an assertion
		// from the log, something done silently (corpus #30320, #55193,
		// whose bodies are cut environment reports).
		{"v1 scheduler assert num_new_tokens > 0", "```\nCollecting environment information...\nPyTorch version: 2.8.0+cu128\n```", true},
		{"LoRA adapter targeting no configured modules silently serves the base model", "```\nPyTorch version: 2.13.0+cu130\n```", true},
		// A title that says "do not", or complains of output repeated, lost
		// or different from run to run, over a body with no problem word
		// (corpus #9019, #20520; #39827, #10600, #54490; #15274, #22885;
		// #7845, #5404, #23794), as forum posts without template tags are.
		{"ToolCall IDs generated by Mistral tool call parser do not comply with the template", "Details below.\n\n```\nvllm 0.6.2\n```", true},
		{"VLLM Gemma4 output repeated token", "Details below.", true},
		{"streming is lost in arguments in tool_calls", "Details below.", true},
		{"Prefix Caching same prompts gives different results", "Details below.", true},
		{"openai/gpt-oss-20b breaks on data parallel", "Details below.", true},
		{"Not able to deploy Llama-4-Scout-17B-16E-Instruct on vllm-openai v0.8.3", "Details below.", true},
		// The docs template holds questions as well as requests for
		// pages; its own heading names an "issue", so only the title
		// (or an error) makes it support.
		{"[Doc]: Is Qwen2.5's long context YARN handled?", "### 📚 The doc issue\n\nThe page says nothing.", true},
		{"[Doc]: 5090 上能部署 vllm 吗？", "### 📚 The doc issue", true},
		// Asking for better error messages is a request, though the post
		// pastes the errors it wants reworded.
		{"[Bug]: NPU 上显存不足的报错对用户不友好", "ValueError: Free memory on device", false},
		{"Update a more user-friendly error message when using V100 GPU", "raise ValueError(", false},
		{"[Usage]: [V1] Misleading Error Messages", "vllm serve $MODEL", false},
		{"Error message says CUDA out of memory but the GPU is empty", "torch.OutOfMemoryError", true},
		{"Confusing error message about max_model_len, how do I fix it?", "ValueError: The model's max seq len", true},
		// A request for a capability, whatever template carries it
		// (vllm-project/production-stack#61, #899), is not support
		// unless something fails or the body asks how (corpus #1869).
		{"Allow customized runtimeClass in the helm chart", "As requested in the questions channel.", false},
		{"bug: the VllmRuntime CRD has no way to raise the shm size", "Right now there is no way to increase the shm size.\n\nExpected behavior\n\nAdd shmSize: 24g", false},
		{"Support `tools` and `tool_choice` parameter in OpenAI compatible service", "vllm openai 接口应该如何使用 tools 和 tool_choice 参数？", true},
		{"Support for Qwen3 fails to load", "It stops at loading weights.", true},
		{"[Bug]: Add a LoRA adapter and the server crashes", "Segmentation fault (core dumped)", true},
		// Pull-request templates describe a change (vllm-project/vllm#20210,
		// kubernetes-sigs/gateway-api-inference-extension#2487).
		{"Fix vllm gpu deployment yaml", "The yaml has a bug which is leading to pods crashing.\n\n**What type of PR is this?**\n\n/kind bug\n\n**What this PR does / why we need it**:\nfixes it", false},
		{"Docker compose example", "## Purpose\n\nEasy start with docker compose\n\n## Test Plan\n\ndocker-compose up -d\n\n## Test Result\n\nstarted", false},
		// production-stack's tags without brackets.
		{"feature: helm chart env variable support VLLM_USE_V1", "It is hardcoded and cannot be managed via values.yaml.", false},
		{"[Doc]: Add --speculative-config option documentation", "### 📚 The doc issue\n\nThe option is missing.", false},
		// Problem reports without an error or a template tag, as forum
		// posts are titled: what the model returns, spellings of
		// "cannot", Chinese problem words.
		{"Llama2 answers is noise", "The output is random tokens.", true},
		{"Phi-4-mini produces gibberish when input <4096 tokens", "Output below.", true},
		{"Inconsistent responses with batch size > 1 even at temperature 0", "Same prompt, other answers.", true},
		{"can not run with OpenGVLab/InternVL2_5-78B-MPO-AWQ", "INFO api server version 0.6.6", true},
		{"vllm 部署 Qwen2-VL 服务存在内存泄漏", "内存一直增长", true},
		// A Chinese question asked without a question mark
		// (lm-sys/FastChat#3604, vllm-project/vllm#6128).
		{"vllm更新了--enable-auto-tool-choice --tool-call-parser hermes", "请问fastchat是否更新这两个参数  或者如果想要自行添加  需要添加在哪里", true},
		{"vllm现在支持embedding输入吗，没有发现相关接口", "", true},
		{"Allow setting tool_choice none with auto tool choice", "It would be useful for agents.", false},
		// Kubernetes' own words for a failed container, with no problem
		// word of the poster's (vllm-project/vllm#18163,
		// vllm-project/aibrix#1054; a container at its memory limit).
		{"llama 3.1 8B on kubernetes", "The pod restarts after a while.\n\n```\nState:          Waiting\n  Reason:       CrashLoopBackOff\n```", true},
		{"Qwen2.5-72B on our cluster", "The vllm container gets OOMKilled while loading the weights.", true},
		// vLLM's "[Misc]" template tag says nothing either way: a
		// question or a pasted error under it is support
		// (vllm-project/vllm#12423, #4234, vllm-project/vllm-ascend#707),
		// a change titled the way pull requests are ("[Misc] Add …") is
		// not, whatever its body says (vllm-project/vllm#11349, #12513).
		{"[Misc]: How to use a chat template to be applied ?", "I pass a jinja file.", true},
		{"[Misc]: is it possible to load lora adapter on request basis with out restarting the base model", "Thanks.", true},
		{"[Misc]:", "启动服务报错：vllm serve /data/m --tensor_parallel_size 2\nModuleNotFoundError: No module named 'vllm.benchmarks.serve'", true},
		{"[Misc] Add tqdm progress bar during graph capture", "Fixes the issue that capture looks stuck.", false},
		{"[Misc][Docs] Raise error when flashinfer is not installed", "The backend fails late otherwise.", false},
		// A feature-request or RFC template in the body says what a
		// [Feature] tag says (mem0ai/mem0#2918, microsoft/autogen#2462);
		// a support tag in the title still wins.
		{"support vllm", "### 🚀 The feature\n\nsame as title: our project does not work with vllm yet", false},
		{"Change the tool_choice from auto", "### Is your feature request related to a problem? Please describe.\n\nAgents may skip tools.", false},
		{"[Bug]: tool_choice ignored", "### 🚀 The feature, motivation and pitch\n\nIt errors.", true},
		{"Server crashes on start", "**Describe the bug**\nIt crashes.\n\n**Expected behavior**\nIt starts.", true},
		// Read as extraction reads it: a heading is a heading with CRLF
		// line ends too.
		{"Stream the tool name early", "## Feature Request\r\n\r\nThe parser holds everything back, which feels wrong for agents.", false},
	}
	for _, tt := range tests {
		if got := IsSupportQuestion(tt.title, &Facts{}, tt.body); got != tt.want {
			t.Errorf("IsSupportQuestion(%q) = %v, want %v", tt.title, got, tt.want)
		}
	}
}

// TestErrorPhraseNamesNoKind: an error printed without an exception class
// is said in words, never by Herald's name for its kind ("fails with
// `api-error`" was vllm-dev C2-003's opening line).
func TestErrorPhraseNamesNoKind(t *testing.T) {
	t.Parallel()
	kinds := []string{"nccl-timeout", "nccl-error", "cuda-error", "hip-error", "signal", "panic", "rust-panic",
		"command-not-found", "fatal-python-error", "usage-error", "api-error", "pip-error", "ptxas-error", "docker-error"}
	for _, k := range kinds {
		got := errorPhrase(ErrorInfo{Type: k, Message: "some message"})
		if strings.Contains(got, "`"+k+"`") || strings.Contains(k, "-") && strings.Contains(got, k) {
			t.Errorf("errorPhrase(%s) = %q: names the kind", k, got)
		}
	}
	if got, want := errorPhrase(ErrorInfo{Type: "api-error", Message: `"auto" tool choice requires --enable-auto-tool-ch`}),
		"gets an error back from the server (`\"auto\" tool choice requires --enable-auto-tool-ch`)"; got != want {
		t.Errorf("api-error: %q, want %q", got, want)
	}
	if got := errorPhrase(ErrorInfo{Type: "ValueError", Message: "x"}); got != "fails with `ValueError`" {
		t.Errorf("a class: %q", got)
	}
}

// TestModelShown: a long local path is named by its last two elements;
// a hub id, a short path and a path whose tail is itself long stay.
func TestModelShown(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"Qwen/Qwen3-8B", "Qwen/Qwen3-8B"},
		{"/data/models/Qwen2.5-32B-Instruct", "/data/models/Qwen2.5-32B-Instruct"},
		{"/mnt/dolphinfs/ssd_pool/docker/user/hadoop-aipnlp/INS/user/ndp/trained_model/qwen2.5-3b-ndp-402-wtemplate/checkpoint-14676",
			"…/qwen2.5-3b-ndp-402-wtemplate/checkpoint-14676"},
		{"/data/LLM-project/deepseek-vl2/model/deepseek-ai/deepseek-vl2-tiny/", "…/deepseek-ai/deepseek-vl2-tiny"},
		{"/a/" + strings.Repeat("x", 70), "/a/" + strings.Repeat("x", 70)},
		{strings.Repeat("y", 80), strings.Repeat("y", 80)},
	} {
		if got := modelShown(tt.in); got != tt.want {
			t.Errorf("modelShown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
