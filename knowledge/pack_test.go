package knowledge

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinPackIsComplete(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Entries); n < 40 {
		t.Errorf("vllm pack has %d entries, want at least 40", n)
	}
	for _, e := range p.Entries {
		if e.Summary == "" {
			t.Errorf("%s: no summary", e.ID)
		}
		if e.Kind == KindIssue && !strings.HasPrefix(e.URL, "https://github.com/vllm-project/vllm/") {
			t.Errorf("%s: issue URL %q is not a vLLM GitHub URL", e.ID, e.URL)
		}
		for _, tag := range e.Tags {
			if strings.ToLower(tag) != tag {
				t.Errorf("%s: tag %q not lower case", e.ID, tag)
			}
		}
	}
	if p.Schema().program("vllm") == nil {
		t.Error("pack has no vllm program schema")
	}
}

// TestPackMatchesKBFacts checks the pack against the curated facts it was
// written from: every id, title and URL kept exactly.
func TestPackMatchesKBFacts(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "shared", "kb-facts", "vllm-known-issues.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skipping: %s not available (it sits beside the repository in the dev environment): %v", path, err)
	}
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Entry{}
	for _, e := range p.Entries {
		byID[e.ID] = e
	}
	var facts []struct {
		ID, URL string
		Title   *string
	}
	if err := jsonUnmarshal(data, &facts); err != nil {
		t.Fatal(err)
	}
	for _, f := range facts {
		e, ok := byID[f.ID]
		if !ok {
			continue
		}
		if e.URL != f.URL {
			t.Errorf("%s: url %q, facts say %q", f.ID, e.URL, f.URL)
		}
		if f.Title != nil && e.Title != *f.Title {
			t.Errorf("%s: title %q, facts say %q", f.ID, e.Title, *f.Title)
		}
	}
}

// TestReadmePackExampleParses: the pack format the README documents is
// one ParsePack accepts, so that an admin who copies it starts from a
// pack that loads (its summary once held an unquoted colon, and its
// topic rule an unless naming no tag).
func TestReadmePackExampleParses(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\nname: myproject\n")
	if !ok {
		t.Fatal("README.md has no pack example (a ```yaml block starting name: myproject)")
	}
	example, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		t.Fatal("the README's pack example has no closing fence")
	}
	p, err := ParsePack(strings.NewReader("name: myproject\n" + example))
	if err != nil {
		t.Fatalf("the README's pack example does not parse: %v", err)
	}
	if len(p.Entries) == 0 || len(p.Programs) == 0 || len(p.Topics) == 0 {
		t.Errorf("the README's pack example lost its parts: %d entries, %d programs, %d topics", len(p.Entries), len(p.Programs), len(p.Topics))
	}
}

func TestParsePackRejectsBadInput(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"unknown key":                          "name: x\nentries:\n  - id: a\n    kind: issue\n    url: https://x.org/1\n    title: t\n    colour: red\n",
		"bad kind":                             "name: x\nentries:\n  - id: a\n    kind: blog\n    url: https://x.org/1\n    title: t\n",
		"relative url":                         "name: x\nentries:\n  - id: a\n    kind: issue\n    url: /issues/1\n    title: t\n",
		"js url":                               "name: x\nentries:\n  - id: a\n    kind: issue\n    url: javascript:alert(1)\n    title: t\n",
		"duplicate":                            "name: x\nentries:\n  - {id: a, kind: issue, url: 'https://x.org/1', title: t}\n  - {id: a, kind: issue, url: 'https://x.org/2', title: u}\n",
		"bad range":                            "name: x\nentries:\n  - {id: a, kind: issue, url: 'https://x.org/1', title: t, affected: '>=banana'}\n",
		"no name":                              "entries: []\n",
		"alias not a url":                      "name: x\nentries:\n  - {id: a, kind: docs, url: 'https://x.org/1', title: t, aliases: ['/old']}\n",
		"alias is an id":                       "name: x\nentries:\n  - {id: 'https://x.org/2', kind: docs, url: 'https://x.org/2', title: u}\n  - {id: a, kind: docs, url: 'https://x.org/1', title: t, aliases: ['https://x.org/2']}\n",
		"id is an alias":                       "name: x\nentries:\n  - {id: a, kind: docs, url: 'https://x.org/1', title: t, aliases: ['https://x.org/2']}\n  - {id: 'https://x.org/2', kind: docs, url: 'https://x.org/2', title: u}\n",
		"harness without a value":              "name: x\nprograms:\n  - name: v\n    harnesses: [{programs: [ev], select: --model, args: --model-args}]\n",
		"harness without args":                 "name: x\nprograms:\n  - name: v\n    harnesses: [{programs: [ev], select: --model=v}]\n",
		"version format without its place":     "name: x\nvocabulary:\n  log_formats: {version: 1|0}\n",
		"model format without a group":         "name: x\nvocabulary:\n  log_formats: {model: 'Loading \\S+'}\n",
		"chart without flags":                  "name: x\nprograms:\n  - name: v\n    charts: [{model_key: modelURL}]\n",
		"chart flag not a flag":                "name: x\nprograms:\n  - name: v\n    charts: [{model_key: modelURL, flags: {maxModelLen: max-model-len}}]\n",
		"chart key not a key":                  "name: x\nprograms:\n  - name: v\n    charts: [{model_key: 'model URL', flags: {a: --a}}]\n",
		"default of no setting":                "name: x\nvocabulary:\n  log_formats:\n    config_defaults: {'GPU Memory': ['0.9']}\n",
		"setting without default":              "name: x\nvocabulary:\n  log_formats:\n    config_defaults: {seed: []}\n",
		"quoted default":                       "name: x\nvocabulary:\n  log_formats:\n    config_defaults: {backend: [\"'auto'\"]}\n",
		"unknown-model format without a group": "name: x\nvocabulary:\n  log_formats: {unknown_model: 'The model \\S+ does not exist'}\n",
		"tool of one word":                     "name: x\nprograms:\n  - {name: v, subcommands: [serve], tools: {trl: serve}}\n",
		"tool of no subcommand":                "name: x\nprograms:\n  - {name: v, subcommands: [serve], tools: {trl v-serve: run}}\n",
		"config flag not a flag":               "name: x\nprograms:\n  - {name: v, config_flag: config}\n",
		"advice condition misspelt":            "name: x\nvocabulary:\n  main_package: {name: p}\nentries:\n  - {id: a, kind: issue, url: 'https://x.org/1', title: t, advice: ['{platfrom rocm} Set X.']}\n",
		"advice condition of no flag":          "name: x\nvocabulary:\n  main_package: {name: p}\nentries:\n  - {id: a, kind: issue, url: 'https://x.org/1', title: t, advice: ['{unset enforce-eager} Set X.']}\n",
		"advice condition bad range":           "name: x\nvocabulary:\n  main_package: {name: p}\nentries:\n  - {id: a, kind: issue, url: 'https://x.org/1', title: t, advice: ['{p >=banana} Set X.']}\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParsePack(strings.NewReader(src))
			if err == nil {
				t.Fatal("ParsePack accepted a bad pack")
			}
			var pe *PackError
			if name != "unknown key" && !errors.As(err, &pe) {
				t.Errorf("error %v is not a *PackError", err)
			}
			if strings.HasPrefix(name, "advice") && (pe == nil || pe.Field != "advice") {
				t.Errorf("error %v is not about the advice", err)
			}
		})
	}
}

// IssueEntry reads an issue's structured fields off its title, body and
// labels.
func TestIssueEntry(t *testing.T) {
	t.Parallel()
	pack, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	e := IssueEntry(Issue{Repo: "vllm-project/vllm", Number: 9367, Title: "[Bug]: --cpu-offload-gb flag not honored",
		Body: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB\nvllm serve m --cpu-offload-gb 10",
		URL:  "https://github.com/vllm-project/vllm/issues/9367", State: "CLOSED", Labels: []string{"bug", "rocm"}}, &pack.Vocabulary)
	if e.ID != "vllm-project/vllm#9367" || e.State != "closed" || e.Curated() {
		t.Errorf("entry = %+v", e)
	}
	if !contains(e.Flags, "--cpu-offload-gb") || !contains(e.Platforms, "rocm") || len(e.Symptoms) == 0 {
		t.Errorf("structured fields not read: flags %v platforms %v symptoms %v", e.Flags, e.Platforms, e.Symptoms)
	}
	if e.Reading != Reading || e.Prior != 0 {
		t.Errorf("reading %d prior %v; want reading %d and no hand-set prior", e.Reading, e.Prior, Reading)
	}
	// A title names settings in their Python form as well as flags.
	if e := IssueEntry(Issue{Repo: "o/r", Number: 2, Title: "[Feature Request]: Support data_parallel_size in offline inference mode"}, nil); !contains(e.Flags, "--data-parallel-size") {
		t.Errorf("flags %v, want --data-parallel-size from the title", e.Flags)
	}
	// Settings the title names come in a fixed order, so that importing
	// an issue again gives the same entry (vllm-project/vllm#33425 and
	// five other corpus issues changed hash between two imports).
	settings := Issue{Repo: "o/r", Number: 3, Title: "max_model_len, max_tokens, block_size and gpu_memory_utilization ignored"}
	first := IssueEntry(settings, nil).Flags
	for range 20 {
		if again := IssueEntry(settings, nil).Flags; !slices.Equal(again, first) {
			t.Fatalf("flags %v, then %v: the order is not fixed", first, again)
		}
	}
	// Without a vocabulary a label is only a tag: which labels name a
	// platform is the pack's to say.
	if e := IssueEntry(Issue{Repo: "o/r", Number: 1, Title: "t", Labels: []string{"rocm"}}, nil); len(e.Platforms) != 0 || !contains(e.Tags, "rocm") {
		t.Errorf("without a vocabulary: platforms %v tags %v", e.Platforms, e.Tags)
	}
}

// TestIssueTitleModels: an issue's title names the model family it is
// about, with its generation when one is written, in the spellings issue
// titles use; words that only start like a family are not models.
func TestIssueTitleModels(t *testing.T) {
	t.Parallel()
	v := &Vocabulary{ModelFamilies: []string{"glm", "Qwen", "llama", "opt", "deepseek", "gpt"}}
	for _, c := range []struct {
		title string
		want  []string
	}{
		{"[Bug]: GLM 4.7 Tool Call issue", []string{"glm4.7"}},
		{"Qwen3-VL crashes with tp=2", []string{"qwen3"}},
		{"[Usage]: Qwen2.5-VL-7B on two GPUs", []string{"qwen2.5"}},
		{"deepseek-v3 fails to load; DeepSeek-V2 works", []string{"deepseekv3", "deepseekv2"}},
		{"llama 7b is slow", []string{"llama"}},
		{"qwen7b: optional arguments ignored", []string{"qwen"}},
		{"gpt-oss-120b tool calls", []string{"gpt"}},
		{"Optimise the scheduler for llamas", nil},
		{"", nil},
	} {
		if got := v.titleModels(c.title); !slices.Equal(got, c.want) {
			t.Errorf("titleModels(%q) = %v, want %v", c.title, got, c.want)
		}
	}
}

// TestIssueTitlePlatforms: an issue's title names its platform by the
// hardware or the platform's name; a label, when there is one, wins, and
// a title that names no hardware names no platform.
func TestIssueTitlePlatforms(t *testing.T) {
	t.Parallel()
	p, err := BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	v := &p.Schema().Vocabulary
	for _, c := range []struct {
		title  string
		labels []string
		want   []string
	}{
		{"[Bug]: XPU (ARC A770) support broken after updating to vLLM 0.10.0", nil, []string{"xpu"}},
		{"[Bug]: DeepSeek V3.2 on B200 fails with CUTLASS_MLA", nil, []string{"cuda"}},
		{"[Bug]: pipeline-parallel not working properly with QwQ model on TPU v4", nil, []string{"tpu"}},
		{"[Bug]: Engine crashes on MI300X with fp8", []string{"rocm"}, []string{"rocm"}},
		{"[Bug]: Engine crashes on MI300X with fp8", []string{"bug"}, []string{"rocm"}},
		{"[Bug]: tool_calls content loss when using hermes_tool_parser", nil, nil},
	} {
		e := IssueEntry(Issue{Repo: "o/r", Number: 1, Title: c.title, Labels: c.labels}, v)
		if !slices.Equal(e.Platforms, c.want) {
			t.Errorf("%q %v: platforms = %v, want %v", c.title, c.labels, e.Platforms, c.want)
		}
	}
}

// TestPackNamesItsMainPackage: another project's pack names its own
// package, log lines and platform labels; nothing of vLLM is assumed.
func TestPackNamesItsMainPackage(t *testing.T) {
	t.Parallel()
	src := `name: myproj
vocabulary:
  main_package: {name: myproj, display: MyProj}
  log_formats:
    version: 'MyProj server version {version}'
    platform: 'running on (cuda|rocm|cpu)\b'
  label_platforms:
    rocm: [amd-gpu]
  packages: [myproj, foolib]
  platform_markers:
    xpu: [myproj-xpu]
entries:
  - id: myorg/myproj#1
    kind: issue
    url: https://github.com/myorg/myproj/issues/1
    title: Crash at start
    affected: "<1.3.0"
`
	p, err := ParsePack(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	f, err := Extract(Post{Title: "crash", Body: "INFO MyProj server version 1.2.3\nINFO running on rocm\n"}, s)
	if err != nil {
		t.Fatal(err)
	}
	if f.Package.Name != "myproj" || f.Versions["myproj"] != "1.2.3" || f.Platform != "rocm" {
		t.Errorf("facts: package %+v, versions %v, platform %q", f.Package, f.Versions, f.Platform)
	}
	f, err = Extract(Post{Title: "slow", Body: "It got slow after foolib 2.3 came in; torch 2.5 is unchanged. We run the myproj-xpu image."}, s)
	if err != nil {
		t.Fatal(err)
	}
	if f.Versions["foolib"] != "2.3" || f.Versions["torch"] != "" || f.Platform != "xpu" {
		t.Errorf("the pack's packages and markers: versions %v, platform %q; want foolib only, on xpu", f.Versions, f.Platform)
	}
	e := IssueEntry(Issue{Repo: "myorg/myproj", Number: 2, Title: "t", Labels: []string{"AMD-GPU"}}, &s.Vocabulary)
	if !slices.Equal(e.Platforms, []string{"rocm"}) {
		t.Errorf("label platforms: %v", e.Platforms)
	}
	bad := strings.Replace(src, "running on (cuda|rocm|cpu)", "running on (cuda", 1)
	var pe *PackError
	if _, err := ParsePack(strings.NewReader(bad)); !errors.As(err, &pe) || pe.Field != "vocabulary" {
		t.Errorf("a log format that does not compile: %v, want a PackError on vocabulary", err)
	}
}

// TestPackNamesItsModelVariants: the words read after a model's name are
// the pack's, in any case or, for English words, capitalised only.
func TestPackNamesItsModelVariants(t *testing.T) {
	t.Parallel()
	parse := func(src string) *Schema {
		t.Helper()
		p, err := ParsePack(strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		return p.Schema()
	}
	with := parse(`name: birds
vocabulary:
  model_families: [wren]
  model_variants:
    any_case: [turbo]
    capitalised: [chat]
`)
	without := parse(`name: birds
vocabulary:
  model_families: [wren]
`)
	for _, tc := range []struct {
		s           *Schema
		title, want string
	}{
		{with, "Wren 3 turbo crashes", "Wren 3 turbo"},
		{with, "wren 3 Chat crashes", "wren 3 Chat"},
		{with, "wren 3 chat with me", "wren 3"},
		{without, "Wren 3 turbo crashes", "Wren 3"},
	} {
		f, err := Extract(Post{Title: tc.title, Body: "It fails."}, tc.s)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Models) == 0 || f.Models[0] != tc.want {
			t.Errorf("%q: models %q, want %q first", tc.title, f.Models, tc.want)
		}
	}
}
