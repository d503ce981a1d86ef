package knowledge

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Program is a pack's schema for one command-line program: which words are
// its subcommands, which flags take no value, which short flags are aliases,
// and how it is reached through `python -m` or a container image.
type Program struct {
	Name         string            `yaml:"name" json:"name"`
	Subcommands  []string          `yaml:"subcommands" json:"subcommands,omitempty"`
	BooleanFlags []string          `yaml:"boolean_flags" json:"boolean_flags,omitempty"`
	Aliases      map[string]string `yaml:"aliases" json:"aliases,omitempty"`
	// Modules maps `python -m` module names to the subcommand they run.
	Modules map[string]string `yaml:"modules" json:"modules,omitempty"`
	// Images maps container image repositories (no tag) to the subcommand
	// their entrypoint runs.
	Images map[string]string `yaml:"images" json:"images,omitempty"`
	// ModelFlag names the flag that carries the model id when it is not the
	// first positional argument (e.g. --model).
	ModelFlag string `yaml:"model_flag" json:"model_flag,omitempty"`
	// Tools maps other programs' commands that start this program's
	// engine with this program's own options ("trl vllm-serve": TRL's
	// server for GRPO training takes vllm serve's flags) to the
	// subcommand they run.
	Tools map[string]string `yaml:"tools" json:"tools,omitempty"`
	// ConfigFlag names the program's option that reads its settings from
	// a YAML file of long option names (vllm serve --config c.yaml); a
	// post that pastes the file gives the command its settings.
	ConfigFlag string `yaml:"config_flag" json:"config_flag,omitempty"`
	// Harnesses are other programs that start this one's engine for the
	// user (evaluation harnesses); see Harness.
	Harnesses []Harness `yaml:"harnesses" json:"harnesses,omitempty"`
	// Charts are Helm charts that run this program from a values file;
	// see Chart.
	Charts []Chart `yaml:"charts" json:"charts,omitempty"`
}

// Chart is a Helm chart whose values file runs a pack's program once for
// each model entry, its template turning the entry's keys into the
// program's arguments: vllm-project/production-stack's vllm-stack chart
// runs `vllm serve <modelURL>` with `--max-model-len` for a `maxModelLen:`
// under the entry's `vllmConfig:`. An entry of a values file pasted in a
// post so read is a command of the program.
type Chart struct {
	// ModelKey is the entry's key for the model ("modelURL"); a mapping
	// that holds it is an entry.
	ModelKey string `yaml:"model_key" json:"model_key"`
	// Subcommand is the program's subcommand the template runs.
	Subcommand string `yaml:"subcommand" json:"subcommand,omitempty"`
	// Flags maps the entry's keys, at any depth under it, to the flags
	// the template writes for them: a value is the flag's, true sets a
	// boolean flag, false and empty values set nothing.
	Flags map[string]string `yaml:"flags" json:"flags"`
	// Args is the key of a list of further arguments the template
	// appends as they are ("extraArgs").
	Args string `yaml:"args" json:"args,omitempty"`
}

// Harness is a program that runs a pack's program when one of its flags
// selects it, and passes the engine its arguments as one comma-separated
// key=value list: lm-evaluation-harness's `lm_eval --model vllm
// --model_args pretrained=m,tensor_parallel_size=2`. A command of a
// harness so selected also runs the program, with the list's keys as its
// flags and the model key's value as its model.
type Harness struct {
	// Programs are the harness's command names (lm_eval, lm-eval) and
	// `python -m` modules.
	Programs []string `yaml:"programs" json:"programs"`
	// Select is the flag and value that choose the program, "--model=vllm".
	Select string `yaml:"select" json:"select"`
	// Args is the flag whose value is the key=value list.
	Args string `yaml:"args" json:"args"`
	// ModelKey is the list's key for the model ("pretrained").
	ModelKey string `yaml:"model_key" json:"model_key,omitempty"`
	// Subcommand is the program's subcommand the harness runs, as
	// Modules and Images name one.
	Subcommand string `yaml:"subcommand" json:"subcommand,omitempty"`
}

// selector returns the flag and value that choose the program (Select
// split at its "=").
func (h *Harness) selector() (flag, value string) {
	flag, value, _ = strings.Cut(h.Select, "=")
	return flag, value
}

// Schema is the set of programs Herald knows, merged from all packs.
// The zero value knows no programs and still parses commands generically.
type Schema struct {
	Programs []Program `json:"programs"`
	Topics   []Topic   `json:"topics,omitempty"`
	// Templates are known error messages with their classes, from the
	// packs' entries (and, once a knowledge base is loaded, from all its
	// entries), for naming the class of a message printed without it.
	Templates []ErrorTemplate `json:"templates,omitempty"`
	// Vocabulary is the packs' words for hardware and models.
	Vocabulary Vocabulary `json:"vocabulary"`

	// templates is Templates compiled; nil until the schema is prepared.
	templates compiledTemplates
	// logFormats are the vocabulary's log formats compiled, and
	// packages its package names, once prepared is set.
	logFormats compiledLogs
	packages   compiledPackages
	engines    compiledEngines
	gpus       *regexp.Regexp // the named-GPU pattern (compileGPUs)
	prepared   bool
}

// Vocabulary is what a pack knows about the words of its posts: which
// words name which platform's hardware, which words start a model's name,
// and which device names appear in the same error on different hardware.
type Vocabulary struct {
	// DeviceWords are the device names an error message carries ("CUDA
	// out of memory", "HIP out of memory", "XPU out of memory").
	DeviceWords []string `yaml:"device_words" json:"device_words,omitempty"`
	// Hardware maps a platform (cuda, rocm, xpu, cpu, tpu, neuron) to
	// words that name its hardware: GPU models, product lines, arch
	// names, cloud instance families. A word ending in "*" matches any
	// continuation ("gfx9*", "g5.*").
	Hardware map[string][]string `yaml:"hardware" json:"hardware,omitempty"`
	// ModelFamilies are words a model's name starts with (llama, qwen),
	// for recognising model names written without an organisation.
	ModelFamilies []string `yaml:"model_families" json:"model_families,omitempty"`
	// ModelVariants are the words that, written after a model's name
	// and a space, are part of it: "Gemma 3 27B IT", "Llama4 Scout".
	ModelVariants ModelVariants `yaml:"model_variants" json:"model_variants,omitzero"`
	// Package is the package the pack is about: the one whose version
	// entries' affected ranges, fixes and advice conditions ("{vllm
	// <0.9}") speak of.
	Package MainPackage `yaml:"main_package" json:"main_package,omitzero"`
	// LabelPlatforms maps a platform to the issue-tracker labels that say
	// an imported issue is about it (rocm: [rocm, amd]).
	LabelPlatforms map[string][]string `yaml:"label_platforms" json:"label_platforms,omitempty"`
	// Logs are the lines the main package logs about itself.
	Logs LogFormats `yaml:"log_formats" json:"log_formats,omitzero"`
	// Packages are the packages a post's environment lists whose
	// versions are read even when written loosely: in a sentence ("the
	// support that arrived in transformers 5.10", "PyTorch 2.4.0") or in
	// a listing row with a short version. A name ending in "*" matches
	// any digits after it (nvidia-nccl-cu*).
	Packages []string `yaml:"packages" json:"packages,omitempty"`
	// PlatformMarkers maps a platform to text that names it as surely as
	// a build suffix does: the main package's platform images and build
	// settings (rocm: [rocm/vllm]).
	PlatformMarkers map[string][]string `yaml:"platform_markers" json:"platform_markers,omitempty"`
	// Orgs are the project's own organisations and sites, whose
	// repositories and pages look like model ids (vllm-project/vllm,
	// docs.vllm.ai/en).
	Orgs []string `yaml:"orgs" json:"orgs,omitempty"`
	// OtherEngines are the programs and projects that do the main
	// package's job (serving models, for vLLM: lmdeploy, sglang,
	// llama.cpp): posts about them land on the forum too, and its
	// knowledge does not answer them (Facts.OtherEngine).
	OtherEngines []string `yaml:"other_engines" json:"other_engines,omitempty"`
}

// ModelVariants are a vocabulary's variant words, as any case writes them
// (instruct, vl, awq) and, for words that are English too (large, chat,
// it), only capitalised, as a name writes them.
type ModelVariants struct {
	AnyCase     []string `yaml:"any_case" json:"any_case,omitempty"`
	Capitalised []string `yaml:"capitalised" json:"capitalised,omitempty"`
}

// LogFormats are regular expressions for the lines a main package logs
// about the installation it runs on. In Version, {version} stands for a
// release version, which the first group captures ("vLLM API server
// version {version}"); Platform's first group is the platform it
// detected. PlatformProbe matches the lines it logs while it tries
// platforms one by one ("TPU platform is not available because: …"):
// they name platforms it does not run on, so they are no evidence of one.
// Model's first group is the model it says it loads.
//
// ConfigDefaults are settings the main package's start-up dump of its
// whole configuration prints at their default values ("args:
// Namespace(…, gpu_memory_utilization=0.9, …)", "with config: …,
// guided_decoding_backend='xgrammar'"): each setting's name, with the
// values it has by default. Such a pair in a dump names nothing the
// poster chose, so its words tag no topic, as an unset one's do not.
type LogFormats struct {
	Version        string              `yaml:"version" json:"version,omitempty"`
	Platform       string              `yaml:"platform" json:"platform,omitempty"`
	PlatformProbe  string              `yaml:"platform_probe" json:"platform_probe,omitempty"`
	Model          string              `yaml:"model" json:"model,omitempty"`
	ConfigDefaults map[string][]string `yaml:"config_defaults" json:"config_defaults,omitempty"`
	// UnknownModel is the server's answer to a request for a model it
	// does not serve; group 1 is the name the request asked for.
	UnknownModel string `yaml:"unknown_model" json:"unknown_model,omitempty"`
}

// compiledLogs are LogFormats ready to match; a nil field matches
// nothing.
type compiledLogs struct {
	version, platform, model, unknownModel *regexp.Regexp
	// defaults matches a setting printed at its default value, in
	// lower case (ConfigDefaults).
	defaults *regexp.Regexp
	// probeLines matches whole lines that PlatformProbe matches in.
	probeLines *regexp.Regexp
}

// compile compiles the formats; it reports the first that does not.
func (l LogFormats) compile() (compiledLogs, error) {
	var c compiledLogs
	var err error
	// Each format's first group is what it reads: the version its
	// {version} stands for, the platform, the model.
	if l.Version != "" {
		if !strings.Contains(l.Version, "{version}") {
			return compiledLogs{}, errors.New("log_formats.version: no {version} in the format")
		}
		if c.version, err = regexp.Compile(`(?i)` + strings.ReplaceAll(l.Version, "{version}", versionPat)); err != nil {
			return compiledLogs{}, fmt.Errorf("log_formats.version: %w", err)
		}
	}
	if c.platform, err = compileGrouped("platform", `(?i)`, l.Platform); err != nil {
		return compiledLogs{}, err
	}
	if c.model, err = compileGrouped("model", "", l.Model); err != nil {
		return compiledLogs{}, err
	}
	if c.unknownModel, err = compileGrouped("unknown_model", "", l.UnknownModel); err != nil {
		return compiledLogs{}, err
	}
	if l.PlatformProbe != "" {
		if c.probeLines, err = regexp.Compile(`(?im)^.*(?:` + l.PlatformProbe + `).*$`); err != nil {
			return compiledLogs{}, fmt.Errorf("log_formats.platform_probe: %w", err)
		}
	}
	if c.defaults, err = compileDefaults(l.ConfigDefaults); err != nil {
		return compiledLogs{}, fmt.Errorf("log_formats.config_defaults: %w", err)
	}
	return c, nil
}

// compileGrouped compiles the log format named name (flags before it),
// which must have the group it reads; an empty format is nil.
func compileGrouped(name, flags, format string) (*regexp.Regexp, error) {
	if format == "" {
		return nil, nil
	}
	re, err := regexp.Compile(flags + format)
	if err == nil && re.NumSubexp() == 0 {
		err = errors.New("no group for what it reads")
	}
	if err != nil {
		return nil, fmt.Errorf("log_formats.%s: %w", name, err)
	}
	return re, nil
}

// compileDefaults builds the pattern of a setting printed at one of its
// default values, as a configuration dump writes it ("name=value",
// "name='value'", "'name': value"), in lower case, with the character
// that ends it; nil when there are none.
func compileDefaults(defaults map[string][]string) (*regexp.Regexp, error) {
	if len(defaults) == 0 {
		return nil, nil
	}
	names := slices.Sorted(maps.Keys(defaults))
	var alts []string
	for _, name := range names {
		if !loggedNameRE.MatchString(name) {
			return nil, fmt.Errorf("%q is not a setting's name (lower case letters, digits and underscores)", name)
		}
		if len(defaults[name]) == 0 {
			return nil, fmt.Errorf("%s: no default value", name)
		}
		var values []string
		for _, v := range defaults[name] {
			if strings.TrimSpace(v) == "" || strings.ContainsAny(v, `'"`) {
				return nil, fmt.Errorf("%s: default value %q is empty or quoted", name, v)
			}
			values = append(values, regexp.QuoteMeta(strings.ToLower(v)))
		}
		alts = append(alts, regexp.QuoteMeta(name)+`['"]?\s*(?:=|:\s)\s*['"]?(?:`+strings.Join(values, "|")+`)['"]?`)
	}
	return regexp.Compile(`['"]?\b(?:` + strings.Join(alts, "|") + `)(?:[\s,)}\]]|$)`)
}

// flagDefaults gives the settings' defaults (gpu_memory_utilization) by
// their command-line flags (--gpu-memory-utilization).
func flagDefaults(defaults map[string][]string) map[string][]string {
	if len(defaults) == 0 {
		return nil
	}
	out := make(map[string][]string, len(defaults))
	for name, values := range defaults {
		out[normFlag("--"+name)] = values
	}
	return out
}

// logs returns the schema's compiled log formats (none for a nil or
// unprepared schema; Extract prepares the schema it is given).
func (s *Schema) logs() compiledLogs {
	if s == nil {
		return compiledLogs{}
	}
	return s.logFormats
}

// MainPackage names the package a pack is about.
type MainPackage struct {
	// Name is how versions and advice conditions spell it (vllm).
	Name string `yaml:"name" json:"name"`
	// Display is how replies write it (vLLM); empty means Name.
	Display string `yaml:"display" json:"display,omitempty"`
	// Memory names its memory flags, for working a reply's numbers out
	// of an out-of-memory error.
	Memory MemoryFlags `yaml:"memory_flags" json:"memory_flags,omitzero"`
	// ServedNames are the flags whose values name what the server answers
	// to (--served-model-name a b; --lora-modules name=path); without
	// them it answers to the model it was started with.
	ServedNames []string `yaml:"served_names" json:"served_names,omitempty"`
	// FlagDefaults are the values at which a flag changes nothing
	// ("--tensor-parallel-size": ["1"]), the command-line form of the
	// pack's log_formats.config_defaults, which Prepare fills in: a
	// command that sets a flag to its default does not use what the flag
	// turns on, so it is no evidence for an entry about that flag.
	FlagDefaults map[string][]string `yaml:"-" json:"flag_defaults,omitempty"`
}

// AtDefault reports whether value is a default of the main package's
// flag (FlagDefaults), compared without regard to case.
func (p MainPackage) AtDefault(flag, value string) bool {
	return slices.ContainsFunc(p.FlagDefaults[flag], func(d string) bool { return strings.EqualFold(d, value) })
}

// MemoryFlags are the main package's flags for how it uses accelerator
// memory; an empty one is not worked out.
type MemoryFlags struct {
	// Utilization takes the share of the device's memory to plan for
	// (--gpu-memory-utilization 0.9).
	Utilization string `yaml:"utilization" json:"utilization,omitempty"`
	// OffloadGiB takes GiB of weights to keep in CPU memory
	// (--cpu-offload-gb 10).
	OffloadGiB string `yaml:"offload_gib" json:"offload_gib,omitempty"`
	// ContextLength takes the longest context to plan for
	// (--max-model-len 8192).
	ContextLength string `yaml:"context_length" json:"context_length,omitempty"`
	// DType takes the number format of the weights (--dtype float16), and
	// Quantization a quantization method (--quantization awq).
	DType        string `yaml:"dtype" json:"dtype,omitempty"`
	Quantization string `yaml:"quantization" json:"quantization,omitempty"`
	// Split are the flags whose values multiply the GPUs the weights are
	// split over (--tensor-parallel-size 2, --pipeline-parallel-size 2).
	Split []string `yaml:"split" json:"split,omitempty"`
}

// String is the name replies write.
func (p MainPackage) String() string {
	if p.Display != "" {
		return p.Display
	}
	return p.Name
}

// ready returns s prepared to match with: s itself once Prepare has run,
// else a prepared copy (a schema decoded or built by hand).
func (s *Schema) ready() *Schema {
	if s == nil || s.prepared {
		return s
	}
	c := *s
	return c.Prepare()
}

// Prepare compiles what the schema matches with; call it once after
// building or decoding a schema, before sharing it between goroutines.
// CombineSchemas and Pack.Schema return prepared schemas.
func (s *Schema) Prepare() *Schema {
	s.templates = compileTemplates(s.Templates, s.Vocabulary.DeviceWords)
	s.logFormats, _ = s.Vocabulary.Logs.compile() // packs are validated when parsed
	s.packages = compilePackages(s.Vocabulary.Packages)
	s.engines = compileEngines(s.Vocabulary.OtherEngines, s.Vocabulary.Package.Name)
	s.gpus = compileGPUs(s.Vocabulary.Hardware)
	s.Vocabulary.Package.FlagDefaults = flagDefaults(s.Vocabulary.Logs.ConfigDefaults)
	s.prepared = true
	return s
}

// Topic is a pack's rule for tagging a post: the post is about Tag when
// it sets one of Flags, fails with an error containing one of Errors, runs
// on one of Platforms, or says one of Words. Entries carrying the same tag
// gain evidence, and sweeps use the tags to label topics. Several rules
// may share a tag; any of them tags the post.
//
// A flag is written "NAME" (set to anything), "NAME VALUE" (set to VALUE:
// a distributed executor backend is Ray only when it is "ray", not "mp"),
// or "NAME !VALUE" (set to anything but VALUE: a tensor-parallel size of
// 1 is one GPU). Values compare without regard to case.
type Topic struct {
	Tag       string   `yaml:"tag" json:"tag"`
	Flags     []string `yaml:"flags" json:"flags,omitempty"`
	Errors    []string `yaml:"errors" json:"errors,omitempty"`
	Platforms []string `yaml:"platforms" json:"platforms,omitempty"`
	Words     []string `yaml:"words" json:"words,omitempty"`
	// Unless lists tags that, when another rule gives them to the post,
	// make this rule say nothing: a word can have another sense in a
	// post about something else ("image" in a post about containers is
	// the container's image, not a picture).
	Unless []string `yaml:"unless" json:"unless,omitempty"`
	// WordsOutsideProgramText makes Words count only outside the program
	// text the post quotes — its error messages and the names it gives
	// container images — where a word can have another sense ("no kernel
	// image is available" is CUDA's kernel image, nine corpus issues;
	// "Image: intel/llm-scaler-vllm:0.14" a container's, vllm-dev
	// C2-014). The rule's Errors still read the messages.
	WordsOutsideProgramText bool `yaml:"words_outside_program_text" json:"words_outside_program_text,omitempty"`
}

// knownProgram reports whether name is a program the schema knows, a
// harness one of them names (harnessProgram), or a generic runner
// (genericPrograms: python, docker, bash, ...).
func (s *Schema) knownProgram(name string) bool {
	return s.program(name) != nil || genericPrograms[name] || s.harnessProgram(name)
}

// harnessProgram reports whether name is a program that one of the
// schema's programs names as a harness (lm_eval): a line of prose that
// starts with it is a command as much as one that starts with the
// program itself (EleutherAI/lm-evaluation-harness#2431's
// "CUDA_VISIBLE_DEVICES=0,1 lm_eval --model vllm …" in one inline code
// span; the harness's #1734 and vllm-project/vllm#18565 in fences).
func (s *Schema) harnessProgram(name string) bool {
	if s == nil {
		return false
	}
	for _, p := range s.Programs {
		for _, h := range p.Harnesses {
			if contains(h.Programs, name) {
				return true
			}
		}
	}
	return false
}

func (s *Schema) program(name string) *Program {
	if s == nil {
		return nil
	}
	for i := range s.Programs {
		if s.Programs[i].Name == name {
			return &s.Programs[i]
		}
	}
	return nil
}

func (s *Schema) module(mod string) (*Program, string) {
	return s.runner(mod, func(p *Program) map[string]string { return p.Modules })
}

// runner returns the program whose map (its modules, tools or images)
// holds key, and the subcommand it maps key to, or nil.
func (s *Schema) runner(key string, of func(*Program) map[string]string) (*Program, string) {
	if s == nil {
		return nil, ""
	}
	for i := range s.Programs {
		if sub, ok := of(&s.Programs[i])[key]; ok {
			return &s.Programs[i], sub
		}
	}
	return nil, ""
}

// tool returns the program another program's command (its name and
// first argument: "trl vllm-serve") runs with its own options, and the
// subcommand, or nil.
func (s *Schema) tool(name, arg string) (*Program, string) {
	if arg == "" {
		return nil, ""
	}
	return s.runner(name+" "+arg, func(p *Program) map[string]string { return p.Tools })
}

// harness returns the program a harness's command c runs, with the
// harness it ran through, or nil when c is no selected harness.
func (s *Schema) harness(c Command) (*Program, *Harness) {
	if s == nil {
		return nil, nil
	}
	for i := range s.Programs {
		for j := range s.Programs[i].Harnesses {
			h := &s.Programs[i].Harnesses[j]
			k, v := h.selector()
			if contains(h.Programs, c.Program) && strings.EqualFold(c.Flags[normFlag(k)], v) {
				return &s.Programs[i], h
			}
		}
	}
	return nil, nil
}

func (s *Schema) image(img string) (*Program, string) {
	if s == nil {
		return nil, ""
	}
	repo := img
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo = repo[:i]
	}
	for mirrored := false; ; mirrored = true {
		repo = strings.TrimPrefix(repo, "docker.io/")
		if p, sub := s.runner(repo, func(p *Program) map[string]string { return p.Images }); p != nil {
			return p, sub
		}
		// A registry mirror serves a public image under its own host,
		// the image's path kept behind it, sometimes under a namespace
		// of its own: docker.m.daocloud.io/vllm/vllm-openai and
		// docker.1panel.live/vllm/vllm-openai (install scripts and
		// guides of several projects),
		// swr.cn-north-4.myhuaweicloud.com/ddn-k8s/docker.io/vllm/vllm-openai
		// (vllm#27251). So a path that starts with a registry host is
		// tried again from each of its later parts.
		host, rest, ok := strings.Cut(repo, "/")
		if !ok || !mirrored && !registryHost(host) {
			return nil, ""
		}
		repo = rest
	}
}

// registryHost reports whether an image reference's first part names a
// registry rather than a Docker Hub account, by Docker's own rule: it
// holds a dot or a port, or is localhost.
func registryHost(part string) bool {
	return strings.ContainsAny(part, ".:") || part == "localhost"
}

func (p *Program) isBoolean(flag string) bool {
	if p == nil {
		return false
	}
	for _, f := range p.BooleanFlags {
		if f == flag {
			return true
		}
	}
	// --no-foo is the negation of a boolean --foo.
	if rest, ok := strings.CutPrefix(flag, "--no-"); ok {
		for _, f := range p.BooleanFlags {
			if f == "--"+rest {
				return true
			}
		}
	}
	return false
}

// CanonicalFlag maps a short alias any program of the schema knows
// ("-tp") to its long flag; other flags are returned unchanged.
func (s *Schema) CanonicalFlag(f string) string {
	if s == nil {
		return f
	}
	for _, p := range s.Programs {
		if long, ok := p.Aliases[f]; ok {
			return long
		}
	}
	return f
}

// argsProgram returns the program a list of bare arguments is for when
// no image names it: the one whose model flag the list sets anywhere
// ("--served-model-name", "x", "--model", "y"), else the one whose
// boolean flags it uses, else, for a list that starts with a model id,
// the one program whose container images take a model.
func (s *Schema) argsProgram(words []string, modelFirst bool) *Program {
	if s == nil {
		return nil
	}
	// flagIs reports whether the list uses a flag that is.
	flagIs := func(is func(flag string) bool) bool {
		return slices.ContainsFunc(words, func(w string) bool {
			k, _, _ := strings.Cut(w, "=")
			return isFlagWord(k) && is(normFlag(k))
		})
	}
	for i := range s.Programs {
		if p := &s.Programs[i]; p.ModelFlag != "" && flagIs(func(f string) bool { return f == p.ModelFlag }) {
			return p
		}
	}
	var imaged *Program
	n := 0
	for i := range s.Programs {
		p := &s.Programs[i]
		if flagIs(p.isBoolean) {
			return p
		}
		if len(p.Images) > 0 && p.ModelFlag != "" {
			imaged, n = p, n+1
		}
	}
	if modelFirst && n == 1 {
		return imaged
	}
	return nil
}

// byModelFlag returns the program whose model flag begins line.
func (s *Schema) byModelFlag(line string) *Program {
	if s == nil || !strings.HasPrefix(line, "--") {
		return nil
	}
	for i := range s.Programs {
		f := s.Programs[i].ModelFlag
		if f != "" && (strings.HasPrefix(line, f+" ") || strings.HasPrefix(line, f+"=")) {
			return &s.Programs[i]
		}
	}
	return nil
}
