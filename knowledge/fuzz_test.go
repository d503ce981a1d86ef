package knowledge

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func addPostSeeds(f *testing.F) {
	for _, p := range testPosts(f) {
		f.Add(p.body)
	}
	// A command glued to a fence's marks, in a fence and inside an HTML
	// block; Discourse's [code] blocks, one left open.
	f.Add("```vllm serve m --port 8000\nValueError: x\n```\n<summary>Log</summary>\n```INFO 04-21 [a.py:1] x\n```")
	f.Add("[code]\nvllm serve m\n[/code]\n[CODE=sh]vllm serve n[/code]\n[code]\n```\n[/code]")
	// Argument lists without their key: YAML items, quoted strings with
	// one bare and one cut, an exec form, a key's list split by a comment.
	f.Add("```\n- \"--a\"\n- \"b\"\n# - --c\n'--d=1'\n--e\n'--f\n[\"python\", \"-m\", \"vllm\", \\\n\"--p=<x>\"]\nargs: [ \"--q\",\n \"r\"]\n```")
	// pydantic's error lines: a head claiming more errors than follow,
	// a head with a huge count, lines without their head.
	f.Add("1 validation error for X\nValueError: 99999999999999999999 validation errors for M\n  Value error, a [type=value_error, x]\nValue error, b [type=assertion_error\nAssertion error, c [type=assertion_error, input_value=1]")
	// Another engine's LLM class, imported and through its module.
	f.Add("from tensorrt_llm import (LLM as L, LLM)\nimport tensorrt_llm as t\nLLM(model='m')\nt.LLM(model=\nx.LLM(tensor_parallel_size=2)")
	// A script's constants passed to an API call, one reassigned.
	f.Add("```python\nm = \"a/b\"\ntp: int = 2 # x\nm = f(m)\nLLM(model=m, tensor_parallel_size=tp)\n```\nI ran \" vllm serve **a/b** \"")
	// A command built as a Python string, its fields filled.
	f.Add("```python\nM = \"a/b\"\ncmd = f\"vllm serve {M} --p {P}\"\nos.system('vllm serve {')\nx = '\n```")
	// A monthly container release beside a version the post states.
	f.Add("docker run nvcr.io/nvidia/vllm:25.12.post1-py3 vllm serve m --p 1 `\n --q 2\nvLLM 0.11.1, nvcr.io/x:99.99")
	// Traceback heads glued to a progress bar and to a message, the
	// frames outside the main package.
	// The engine's logged arguments, nested and cut off.
	f.Add("non-default args: {'a': {'b': [1, {'c': 'd}'}]}, 'e': 'f\\'', 'g': ['h'], 'i': True, 'j'")
	// Rich's boxed tracebacks, one cut off, one with a wrapped path.
	f.Add("╭─ Traceback (most recent call last) ─╮\n│ /a/site-packages/x/ │\n│ y.py:1 in │\n│ f │\n╰──╯\nE: m\n┌─ Traceback (most recent call last) ─┐\n│ a.py:2 in\nX")
	f.Add("1/5 [00:01]Traceback (most recent call last):\n  File \"/x/site-packages/torch/a.py\", line 1, in f\nE: x, Traceback (most recent call last):\nTraceback (most recent call last):Traceback (most recent call last):\nRuntimeError: CUDA out of memory")
	// Reading 53's shapes: a paste between single backticks, open and
	// closed; a Python session's version answers; a version and a
	// command glued to Chinese text; zsh's prompt; an aligned report; a
	// container image beside "image".
	f.Add("`(v) a@b:~$ vllm serve m\nINFO x\n`\n\n`vllm serve n --p 1\nE: x`` `")
	f.Add(">>> print(torch.__version__)\n'2.0.1+cu118\nIn [1]: vllm.__version__\nOut[1]: '0.1'\n>>> torch.version.cuda\n")
	f.Add("用的VLLM版本v0.10.0，我运行vllm serve m --p 1。的时候，版本是")
	f.Add("me@host dir % docker run x/y:1 --m a\nme@host % \nOS : macOS 15 (arm64)\nIs CUDA available : False\n   CUDA / GPU Info\nImage:   a/b:c image x/y:z")
	// Reading 54's: "vllm is 0.8.2" in a sentence; an image's tag naming
	// releases part by part; "image tag"; a command in a log's bracketed
	// list, cut off and nested.
	f.Add("My vllm is 0.8.2 and torch is\nImage Tag: x\nrocm/vllm:rocm6.3_vllm_0.8.5_2025 a/b:c-vllm0.1-_ x/y:_-")
	f.Add("arguments: [vllm serve m --s '[[\"]' --p [1] ] x [vllm serve n --p 2\n[[vllm serve --a]]]")
	f.Add("docker run --entrypoint /bin/bash v/vllm-openai:1 -lc \"rm -rf x && vllm serve m --p 1\"\ndocker run --entrypoint= a/b -c\nuv run accelerate launch -m\n`\nx = LLMConfig(engine_kwargs=dict(tensor_parallel_size=\n`")
	f.Add("npu-910b Ascend-910B-x torch_npu 版本2.3.1 AMD EPYC AMD Ryzen AI Radeon 8060S TPU v5e 2.10.0+cpu")
	// Ray's engine settings as a dict literal, cut off and nested; log
	// heads of Ray workers and PyTorch; ptxas's errors.
	f.Add("c = P(engine_kwargs={\"max_model_len\": {\"a\": 1}, \"tp\": [1,\nx = P(engine_kwargs = {'k': \n(MapWorker(MapBatches(U)) pid=1, ip=2) ERROR 08-28 03:22:49 [core.py:634] ptxas x.ptx, line 6; error   : m [repeated 3x across cluster]\n[rank0]:E0701 14:28:21.083000 9 a.py:5] [0/0] ptxas fatal : y")
	// Reading 55's: kubectl describe's Command and Args, a shell's script
	// over several lines, keys with nothing under them, a docstring.
	f.Add("A=\"--x 1 \\\nB=\"$A --y '{\\\"v\\\": 0}'\"\nC='--z\nvllm serve m $A ${B} $C\nD=\"\\\"\nE=\"$E $E --w\"")
	f.Add("RuntimeError: CUDA error: unknown error when\nNameError: x when\nx,\n]Killed\n  Killed \na: line 1: 2 Killed")
	f.Add("```\n  - name: a\n    modelURL: \"m\" # c\n\n    vllmConfig:\n      maxModelLen: true\n      extraArgs: [\"--a\", \"1\"\n      extraArgs:\n      - x\n  modelURL: ''\n - modelURL: n\n```")
	f.Add("```python\nk = {\"model\": {\"a\": {1}}, 'x': [1,\nk['y'] = 2\nk: dict[str, int] = dict(model=m\nLLM(**k, **j)\nLLM(**k)\n```")
	f.Add("x -- vllm serve m --p 1\n-- vllm\nuvx --from vllm vllm\nk exec -- -- python -m\nvllm -- vllm serve\n$ a b -- uvx vllm serve")
	f.Add("```\n  image: vllm/vllm-openai:1\n  command:\n    # x\n    --model m #c\n    --p 1\n  args: --x y\n     - z\n   command:\n\n  args:\n    k: v\n```\ncommand:\n--model m")
	// Reading 57's: a mirrored image; a config file the command reads,
	// nested, cut off, named by a comment, before and after the command;
	// a code span closed before a colon.
	f.Add("```python\nM = 'a'\ncmd = [\"vllm\", M, str(, f\"{M}{N}\", *x, 'b\ncmd += [\ncmd.append(\ncmd.extend([1, [2], \"]\"])\nargv = [str(str(M))]\n```")
	f.Add("```python\nc = (\n  f'vllm serve {M} \\'\n  \"--p '1'\\\"\"\n)\nd = (\n\"x\"\ne = (\n)\n```")
	f.Add("vllm serve m --c '{\n\"a\": [\n\\\n--x '[\n'\n-d '{\n\n\n}' \\\n--p 1\n--q '{")
	f.Add("trl vllm-serve\ntrl vllm-serve --model\n`trl  vllm-serve -- --x`\nA=1 trl vllm-serve m --p 1")
	f.Add("docker run a.b:1/c/docker.io/vllm/vllm-openai:v1 --model m\ndocker run localhost/ x.y/ :1 /vllm/vllm-openai")
	f.Add("```\n# c.yaml\nmodel: m\na-b: true\nc_d: ~\ne:\n  - f\n```\n`vllm serve --config c.yaml --x 1`: and `vllm serve n --config`)\n```\nmodel:\n  x: 1\ng-h: 'i'\n\t- j\n```")
	f.Add("```\n    Image: v/vllm-openai:1\n    Command:\n      /bin/sh\n      -c\n    Args:\n      vllm serve m\n\n      --p 1\nArgs:\nCommand:\n  Args:\n    x: the --model\n    Reason: CrashLoopBackOff OOMKilled\n```")
	// Reading 58's: a Gaudi build and variables; a word saying which
	// version; the start-up logo, whole and cut.
	f.Add("vllm 0.5.3.post1+gaudi117 +GAUDI PT_HPU_=1 PT_HPU_X\nvllm latest version 0.1 current: 2.0 latest==1.0")
	f.Add("▄▄ ▄█ █     █     █ ▀▄▀ █  version \n█  model\n█  model   \n█ version 0.23.0█ model █\n█  version 1.2.3+g█")
	f.Add("| a | 1.0 |\n||\n| | |\n|-|-|\n| vllm | `0.1` | 2 |\n|x|\n| torch version | **2.1** |\nvLLMのバージョンは0.1 x 버전은 1.2입니다 バージョン:")
	f.Add("vllm serve m --x 1 を実行 \nvllm serve /a/模型/b --p 1 后\nvllm serve /a/模型 을 x/y\n运行 vllm serve 模/型 --q")
	f.Add("apptainer run docker://\napptainer run --nv docker://vllm/vllm-openai:1 --model m\nsingularity run docker://x/y a b\nsingularity run")
	f.Add("```ini\n[program:v]\ncommand=python -m vllm.entrypoints.openai.api_server \\\n    --model m\n\t--p 1\n  \ncommand = vllm x\ncommand =a b\ncommand= \n command=vllm serve\n    \n```")
}

func FuzzExtract(f *testing.F) {
	addPostSeeds(f)
	// A terminal UI's frame, a quoted post, a full stop after a version.
	f.Add("```\n│     Args:            │\n│       --model        │\n│       m/a            │\n```")
	f.Add("[quote=\"a, post:1, topic:2\"]\ndocker run img/x --m\n[/quote]\nvllm==0.7.3.dev164+g54ed913f.")
	s := vllmSchema(f)
	f.Fuzz(func(t *testing.T, body string) {
		facts, err := Extract(Post{Title: body[:min(len(body), 40)], Body: body}, s)
		if err != nil && !errors.Is(err, ErrTruncated) {
			t.Fatalf("Extract: %v", err)
		}
		for _, e := range facts.Errors {
			if !strings.HasPrefix(e.Signature, e.Type) {
				t.Errorf("signature %q does not start with type %q", e.Signature, e.Type)
			}
		}
		for _, c := range facts.Commands {
			for k := range c.Flags {
				if strings.HasPrefix(k, "--") && (strings.Contains(k, "_") || k != strings.ToLower(k)) {
					t.Errorf("flag %q not normalised", k)
				}
			}
		}
		// Text cut from valid UTF-8 at the right places stays valid: a
		// model cut at offsets of a differently sized copy would not.
		if utf8.ValidString(body) {
			for _, m := range facts.Models {
				if !utf8.ValidString(m) {
					t.Errorf("model %q is not valid UTF-8", m)
				}
			}
		}
		// Composing a reply from anything extracted must stay safe.
		reply := Compose(&facts, nil, ComposeOptions{BotName: "herald"})
		checkReplySafe(t, reply)
	})
}

func FuzzParseCommandLine(f *testing.F) {
	for _, s := range []string{
		"vllm serve m/x --a b", `$ python -m vllm.entrypoints.openai.api_server --model "a b"`,
		"docker run --gpus all vllm/vllm-openai:latest --model m/x", "A=1 B=2 vllm serve $(echo x) --y=`z`",
		"vllm serve <<EOF\nhi\nEOF", "vllm serve 'unterminated",
		"cd /srv && source .venv/bin/activate && export A=1 && vllm serve m --p 1",
		`bash -c "sh -c 'vllm serve m --p 1'"`, "(a) (b) [u@h d]# vllm serve m --x 1",
		"X=$(nvidia-smi | wc -l) && vllm serve m --tp $X", "sh -c ''",
		"A=1 nohup uv run --with vllm vllm serve m -p 1", "conda run -n vllm vllm", "srun -N 1 --exclusive", "timeout",
		`PS C:\Users\me> docker run --gpus all vllm/vllm-openai --model m`, `(base) C:\w>vllm serve m --x 1`, `C:\>`,
		"!vllm serve m --x 1", "%pip install vllm", "%sh", "! ", "%conda",
		"vllm serve ... --x …", "vllm serve m --a ... .. .",
		"lm_eval --model vllm --model_args pretrained=$M,a=True,b=[1,2],=x,c='d,e --tasks t", "python -m lm-eval --model=VLLM --model_args",
	} {
		f.Add(s)
	}
	s := vllmSchema(f)
	f.Fuzz(func(t *testing.T, line string) {
		for _, c := range parseCommandLine(line, s, false) {
			if c.Program == "" {
				t.Errorf("empty program from %q", line)
			}
		}
	})
}

func FuzzExtractErrors(f *testing.F) {
	addPostSeeds(f)
	f.Fuzz(func(t *testing.T, body string) {
		doc := &document{prose: strings.Split(body, "\n")}
		for _, e := range extractErrors(doc, nil) {
			if e.Type == "" {
				t.Errorf("error without type from %q", body)
			}
			if len(e.Message) > 520 {
				t.Errorf("message not bounded: %d bytes", len(e.Message))
			}
		}
	})
}

func FuzzReadHTML(f *testing.F) {
	for _, s := range []string{
		"<p>x <code>vllm serve m/x</code></p><pre><code>RuntimeError: y</code></pre>",
		"<pre><pre><code>a</code></pre>", "<script>alert(1)</script><p>hi</p>", "<div><div><div>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		doc := readHTML(body)
		for _, c := range doc.code {
			if strings.Contains(c, "alert(1)") && strings.Contains(body, "<script>alert(1)</script>") && !strings.Contains(body, "<pre><script>") {
				t.Errorf("script text leaked into code: %q", c)
			}
		}
	})
}

func FuzzSignature(f *testing.F) {
	f.Add("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 968.00 MiB.")
	f.Add("ValueError", "Model architectures ['A', 'B'] are not supported for now. /usr/lib/x 0xdeadbeef")
	f.Fuzz(func(t *testing.T, typ, msg string) {
		sig := Signature(typ, msg)
		if !strings.HasPrefix(sig, typ) {
			t.Errorf("Signature(%q, %q) = %q lacks the type", typ, msg, sig)
		}
		if utf8.ValidString(typ) && utf8.ValidString(msg) && Signature(typ, msg) != sig {
			t.Error("Signature is not deterministic")
		}
	})
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"0.24.0+rocm725", "v0.8.3", "0.6.3.post1", "0.8.0rc3.dev31+g61f41218", "1", "x.y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			return
		}
		if v.Compare(v) != 0 {
			t.Errorf("%q does not equal itself", s)
		}
		r, err := ParseRange(">=" + s)
		if err == nil && !r.Contains(v) {
			t.Errorf(">=%s does not contain %s", s, s)
		}
	})
}

// checkReplySafe fails on anything in a reply that could act on the
// forum (see ReplyProblems); links may only go to cited entries.
func checkReplySafe(t *testing.T, reply string, cited ...Match) {
	t.Helper()
	for _, p := range ReplyProblems(reply, CitedURLs(cited)) {
		t.Errorf("reply is not inert: %s\n%s", p, reply)
	}
}

// FuzzSafeProse: whatever a pack author writes, no HTML survives outside
// the code spans CommonMark reads, and those spans are kept as written.
func FuzzSafeProse(f *testing.F) {
	for _, s := range []string{"`--x <y>`", "``a`b``", "\\`<b>`", "`<a>` <b> ``c", "@x #1 `@y`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := safeProse(s)
		for _, p := range ReplyProblems(out, nil) {
			if strings.Contains(p, "HTML") {
				t.Fatalf("safeProse(%q) = %q: %s", s, out, p)
			}
		}
		if start, end := codeSpan(out); start < end && !strings.Contains(strings.Join(strings.Fields(s), " "), out[start:end]) {
			t.Fatalf("safeProse(%q) changed its first code span: %q", s, out[start:end])
		}
	})
}

// FuzzParsePack: a pack file never panics the parser; a pack it accepts
// has a name, unique entry ids, and a schema that reads a post.
func FuzzParsePack(f *testing.F) {
	f.Add("name: p\nentries:\n  - {id: a, kind: issue, url: https://example.org/1, title: t}\n")
	f.Add("name: p\nvocabulary:\n  main_package: {name: p}\n  log_formats: {version: 'p {version}'}\n  packages: [p, \"q*\"]\n")
	f.Add("name: p\nvocabulary:\n  log_formats: {platform: '('}\n")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := ParsePack(strings.NewReader(src))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range p.Entries {
			if e.ID == "" || seen[e.ID] {
				t.Fatalf("accepted a pack with an empty or duplicate id %q", e.ID)
			}
			seen[e.ID] = true
		}
		if _, err := Extract(Post{Title: "t", Body: "p 1.2.3 on cuda"}, p.Schema()); err != nil && !errors.Is(err, ErrTruncated) {
			t.Fatalf("extract with an accepted pack: %v", err)
		}
	})
}

// FuzzReadModel: a model file never panics the reader; a model it
// accepts has thresholds in range and finite weights of known features.
func FuzzReadModel(f *testing.F) {
	f.Add(`{"version": 1, "weights": {"text": 1}, "reply": 0.9, "queue_floor": 0.1, "calibration": {"slope": 1}}`)
	f.Add(`{"version": 1, "weights": {"nope": 1}, "reply": 0.9}`)
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ReadModel(strings.NewReader(src))
		if err != nil {
			return
		}
		if m.Reply <= 0 || m.QueueFloor < 0 || m.QueueFloor > m.Reply {
			t.Fatalf("accepted thresholds reply %v floor %v", m.Reply, m.QueueFloor)
		}
		for name, w := range m.Weights {
			if !contains(Features, name) || math.IsNaN(w) || math.IsInf(w, 0) {
				t.Fatalf("accepted weight %s = %v", name, w)
			}
		}
	})
}

// FuzzIssueEntry: an imported issue never panics the reader, and every
// model it reads off the title is one of the vocabulary's families,
// perhaps with a generation after it.
func FuzzIssueEntry(f *testing.F) {
	p, err := BuiltinPack("vllm")
	if err != nil {
		f.Fatal(err)
	}
	v := &p.Schema().Vocabulary
	f.Add("[Bug]: GLM 4.7 Tool Call issue", "vllm serve zai-org/GLM-4.7 --tool-call-parser glm47")
	f.Add("Qwen2.5-VL-7B and deepseek-v3 crash", "RuntimeError: CUDA error")
	f.Add("llama", "")
	f.Fuzz(func(t *testing.T, title, body string) {
		e := IssueEntry(Issue{Repo: "o/r", Number: 1, Title: title, Body: body}, v)
		for _, m := range e.Models {
			if !slices.ContainsFunc(v.ModelFamilies, func(fam string) bool { return strings.HasPrefix(m, strings.ToLower(fam)) }) {
				t.Fatalf("model %q from title %q is no family of the vocabulary", m, title)
			}
		}
	})
}

// FuzzContainerCommands: a block read as a Compose file or a Kubernetes
// manifest gives lists with words and key lines inside the block,
// whatever the block holds.
func FuzzContainerCommands(f *testing.F) {
	f.Add("services:\n  vllm:\n    entrypoint: [vllm, serve]\n    command: [m, --port, \"8000\"]\n")
	f.Add("  s:\n    entrypoint: vllm serve /m\n    command:\n      --port 8000\n      --tensor-parallel-size 2\n")
	f.Add("a: &a [entrypoint, *a]\nentrypoint: *a\ncommand: {x: 1}\n")
	f.Add("kind: Service\n---\ncontainers:\n- command: [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n  args:\n  - \"--max-model-len 4096\"\n---\n[\n")
	f.Fuzz(func(t *testing.T, block string) {
		lists, keys := containerCommands(block)
		lines := strings.Count(block, "\n") + 1
		for _, l := range lists {
			if len(l) == 0 {
				t.Errorf("empty list from %q", block)
			}
		}
		for k := range keys {
			if k < 0 || k >= lines {
				t.Errorf("key line %d outside the block's %d lines", k, lines)
			}
		}
	})
}

// FuzzYAMLEngineSettings: whatever a block holds (anchors, aliases,
// flow maps, several documents, YAML that is not), reading it as a Ray
// Serve config returns in bounded time and reads every setting a block
// of engine settings repeats under more keys the same: appending a
// second application with the first's settings doubles the configs read
// up to the bound, and never changes the first's.
func FuzzYAMLEngineSettings(f *testing.F) {
	f.Add("tensor_parallel_size: 2\nenforce_eager: true\n")
	f.Add("x: &a {y: *a}\nk: [1, 2]\nm: {n: 1}\n")
	f.Add("\"quoted key\": 'v'\nfolded: >\n  a\n  b\n")
	f.Fuzz(func(t *testing.T, settings string) {
		if strings.ContainsAny(settings, "\t\r") || strings.Contains(settings, "---") || strings.Contains(settings, "...") ||
			strings.Contains(settings, "engine_kwargs") || strings.Contains(settings, "model_loading_config") {
			t.Skip() // indentation and document markers the wrapping cannot keep, or configs nested in the settings
		}
		indent := func(n int) string {
			var b strings.Builder
			for _, l := range strings.Split(settings, "\n") {
				b.WriteString(strings.Repeat(" ", n) + l + "\n")
			}
			return b.String()
		}
		one := "llm_configs:\n  - model_loading_config:\n      model_source: m\n    engine_kwargs:\n" + indent(6)
		two := one + "  - engine_kwargs:\n" + indent(6)
		a, b := yamlEngineSettings(one), yamlEngineSettings(two)
		if len(a) > maxEngineConfigs || len(b) > maxEngineConfigs {
			t.Fatalf("%d and %d engine configs, over %d", len(a), len(b), maxEngineConfigs)
		}
		if len(a) == 0 {
			return // not a mapping of settings
		}
		// The second application repeats the settings without a model.
		settingsOnly := maps.Clone(a[0])
		delete(settingsOnly, "model_source")
		want := 2
		if len(settingsOnly) == 0 {
			want = 1 // no scalar setting: the second gives nothing
		}
		if len(b) != want {
			t.Fatalf("the config repeated read %d configs, want %d:\n%s", len(b), want, two)
		}
		if !maps.Equal(a[0], b[0]) {
			t.Errorf("the first config changed with a second after it: %v, then %v", a[0], b[0])
		}
		if want == 2 && !maps.Equal(settingsOnly, b[1]) {
			t.Errorf("the second config = %v, want the first's settings %v", b[1], settingsOnly)
		}
	})
}

// FuzzFoldYAMLItems: folding a block's YAML items keeps every line in
// its place (as many lines, each blank, unchanged or holding what its own
// line began), whatever the block holds.
func FuzzFoldYAMLItems(f *testing.F) {
	f.Add("command:\n  - sh\n  - -c\n  - \"bash x.sh leader;\n    python3 -m vllm.entrypoints.openai.api_server --port 8080\"\n")
	f.Add("- vllm serve m\n  --port 8000\n  --max-model-len 4096\n- name: x\n  image: y\n")
	f.Add("- \"unclosed \\\" quote\n  more\n")
	p, err := BuiltinPack("vllm")
	if err != nil {
		f.Fatal(err)
	}
	s := p.Schema()
	f.Fuzz(func(t *testing.T, block string) {
		in := strings.Split(block, "\n")
		out := foldYAMLItems(in, s)
		if len(out) != len(in) {
			t.Fatalf("%d lines became %d", len(in), len(out))
		}
		for i, l := range out {
			if l == in[i] || l == "" {
				continue
			}
			indent := len(in[i]) - len(strings.TrimLeft(in[i], " \t"))
			if !strings.HasPrefix(l, in[i][:indent]) || !yamlItemRE.MatchString(in[i]) {
				t.Errorf("line %d %q became %q", i, in[i], l)
			}
		}
	})
}

// FuzzMessageEnd: a message cut where the writer's own sentence goes on
// (a CJK sentence, a plea) is a prefix of what it was, whatever the
// message holds.
func FuzzMessageEnd(f *testing.F) {
	f.Add("'x'，请问怎么解决？")
	f.Add("No such file: '/data/模型/x'")
	f.Add("模型不支持，请检查")
	f.Add("'x', any idea how to fix this?")
	f.Add("was encountered. Any help is appreciated!")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, cut := range []func(string) string{withoutCJKSentence, withoutPlea} {
			if got := cut(msg); !strings.HasPrefix(msg, got) {
				t.Errorf("%q is not a prefix of %q", got, msg)
			}
		}
	})
}

// FuzzDocTitle: a page's title is one line, whatever the page holds.
func FuzzDocTitle(f *testing.F) {
	f.Add("---\ntitle: Speculative Decoding\n---\n# x\n")
	f.Add("```\n# comment\n```\nTitle\n=====\n")
	f.Add("---\ntitle:\n---\n")
	f.Fuzz(func(t *testing.T, md string) {
		if title := docTitle(md); strings.ContainsAny(title, "\n") {
			t.Errorf("title %q spans lines", title)
		}
	})
}

// FuzzDiscourseCode: [code] blocks never panic the reader or cost more
// than linear time, and the rewrite loses nothing: every line of the
// post is in the result, but for the tags themselves.
func FuzzDiscourseCode(f *testing.F) {
	f.Add("[code]\nvllm serve m\n[/code]")
	f.Add("[code]x[/code]\n```\n[code]\n```\n[CODE=py]\n[code]\n[/code]\n``\n[/code]")
	f.Add("[code]\n[code]\n[/code]")
	f.Add("[quote=\"a, post:1, topic:2\"]\nvllm serve m --port \\\n[/quote]\n```\n[/details]\n```")
	f.Fuzz(func(t *testing.T, s string) {
		out := discourseCode(s)
		tagged := false
		for _, name := range []string{"code", "quote", "details", "spoiler"} {
			has := strings.Contains(strings.ToLower(s), "["+name)
			if has != hasTag(s, name) {
				t.Fatalf("hasTag(%q, %q) = %v, want %v", s, name, !has, has)
			}
			tagged = tagged || has
		}
		if !tagged {
			if out != s {
				t.Fatalf("no tag, but rewritten: %q → %q", s, out)
			}
			return
		}
		have := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			have[l] = true
		}
		for _, l := range strings.Split(s, "\n") {
			if have[l] || bbcodeOpenRE.MatchString(l) || bbcodeCloseRE.MatchString(l) {
				continue
			}
			if m := bbcodeInlineRE.FindStringSubmatch(l); m != nil && have[m[1]] {
				continue
			}
			t.Fatalf("line %q lost: %q → %q", l, s, out)
		}
	})
}
