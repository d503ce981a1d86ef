package knowledge

import (
	"fmt"
	"slices"
	"strings"
)

// Facts is what Extract finds in a post. Its JSON form is part of the
// `herald answer --format json` contract documented in the README.
type Facts struct {
	Commands []Command         `json:"commands"`
	Errors   []ErrorInfo       `json:"errors"`
	Versions map[string]string `json:"versions"`
	// Platform is one of cuda, rocm, cpu, tpu, xpu, neuron, or "" when the
	// post does not say.
	Platform string   `json:"platform"`
	GPUs     []GPU    `json:"gpus"`
	Models   []string `json:"models"`
	OS       string   `json:"os,omitempty"`
	Python   string   `json:"python,omitempty"`
	// MentionedFlags are flags named outside any command line, e.g. "with
	// `--tool-call-parser hermes`" in a sentence.
	MentionedFlags map[string]string `json:"mentioned_flags,omitempty"`
	// Env holds environment variables the post sets (on a command line,
	// in an export, in Python, a Compose or Kubernetes file or a
	// Dockerfile: env.go), e.g. NCCL_P2P_DISABLE=1; "" is set with a
	// value the post does not state.
	Env map[string]string `json:"env,omitempty"`
	// Topics are the pack topic tags the post is about (oom, rocm, ...).
	Topics []string `json:"topics,omitempty"`
	// Refs are the issues, pull requests, topics and pages the post names
	// in its words or links, canonical (see canonicalRef): "owner/repo#N",
	// "#N" when no repository is named, "host/t/N", "host/path".
	Refs []string `json:"refs,omitempty"`
	// Intent is the poster's stated goal in one line, if one was found.
	Intent string `json:"intent,omitempty"`
	// OtherEngine is the other serving engine (Vocabulary.OtherEngines)
	// the post is about: one its commands run while none runs the main
	// package, or one it names while never naming the main package.
	OtherEngine string `json:"other_engine,omitempty"`
	// ForeignError reports that the post's failure is another program's:
	// its tracebacks ran in installed packages' code, none of it the main
	// package's or an HTTP client's (which relays a server's answer), and
	// the post neither runs nor names the main package (a
	// training script's CUDA out of memory raised in torch's backward
	// pass). The knowledge base holds the main package's fixes, not that
	// program's.
	ForeignError bool `json:"foreign_error,omitempty"`
	// RequestedModel is the model a request asked for that the server
	// said it does not serve (LogFormats.UnknownModel).
	RequestedModel string `json:"requested_model,omitempty"`
	// Truncated reports that the post exceeded MaxPostBytes.
	Truncated bool `json:"truncated,omitempty"`
	// Package is the schema's main package, whose version in Versions
	// ranking and advice compare with entries' ranges.
	Package MainPackage `json:"package,omitzero"`
}

// packageVersion is the post's version of the main package, if it states
// one that parses.
func (f *Facts) packageVersion() *Version {
	s := f.Versions[f.Package.Name]
	if f.Package.Name == "" || s == "" {
		return nil
	}
	v, err := ParseVersion(s)
	if err != nil {
		return nil
	}
	return &v
}

// Command is one parsed command line.
type Command struct {
	Program    string   `json:"program"`
	Subcommand string   `json:"subcommand"`
	Args       []string `json:"args"`
	// Flags maps normalised long flags (--a-b) to their values; boolean
	// flags have the value "".
	Flags map[string]string `json:"flags"`
	Env   map[string]string `json:"env,omitempty"`
	// Via names the wrapper that ran this command, e.g. "docker" for the
	// entrypoint of a vllm/vllm-openai container.
	Via string `json:"via,omitempty"`
	// pos is the command's byte offset in the post (-1 in the title).
	pos int
	// api marks settings read from a Python API call rather than a
	// command line.
	api bool
	// harness marks the engine an evaluation harness started
	// (Schema.harness): the post ran the harness, named by Via.
	harness bool
	// tool marks a command another program ran with this program's
	// options (Schema.tool, "trl vllm-serve"), named by Via.
	tool bool
}

// ErrorInfo is one error found in the post.
type ErrorInfo struct {
	// Type is the exception class as printed (torch.OutOfMemoryError,
	// RuntimeError), or, for errors printed without a class, their kind:
	// panic, rust-panic, cuda-error, nccl-error, hip-error,
	// command-not-found, signal, usage-error (argparse refusing the
	// command line).
	Type    string `json:"type"`
	Message string `json:"message"`
	// Kind is Herald's category of the error (oom, cuda-error,
	// nccl-error, nccl-timeout, hip-error, signal, exception, ...),
	// separate from the class Python printed.
	Kind string `json:"kind,omitempty"`
	// Inferred reports that no class was printed: Type was inferred from
	// a known error template whose message the post quotes.
	Inferred bool `json:"inferred,omitempty"`
	// Signature is Type plus the message with numbers, paths, hex and ids
	// masked, so that the same failure on two machines compares equal.
	Signature string `json:"signature"`
	// Causes are chained exceptions that led to this one, innermost first.
	Causes []string `json:"causes,omitempty"`
	// Packages are the top-level Python packages of the traceback frames.
	Packages []string `json:"packages,omitempty"`
	// Numbers are key figures pulled from the message, in GiB for memory
	// (oom_tried_gib, oom_total_gib, oom_free_gib, oom_allocated_gib,
	// oom_reserved_gib) and in tokens for lengths (max_seq_len, kv_tokens).
	Numbers map[string]float64 `json:"numbers,omitempty"`
	// warning reports that the error was read off a log line below
	// ERROR (a WARNING naming the exception a fallback caught), which
	// prioritise puts after the errors that stopped something.
	warning bool
}

// GPU is one accelerator the post mentions.
type GPU struct {
	Name      string  `json:"name"`
	MemoryGiB float64 `json:"memory_gib,omitempty"`
	Count     int     `json:"count,omitempty"`
}

// MainCommand returns the command the post is about: a command in the
// title if there is one, else, among commands of programs the schema knows
// (vllm rather than pip), the one with the most flags — the later one on a
// tie, since posts tend to end with the attempt that failed — then the
// settings of a Python API call, else the first command at all. A program
// that serves a model (one with a model flag: vllm, however it is started)
// comes before an interpreter running a script: a post that starts the
// server and then its benchmark client (`python benchmark_serving.py
// --backend vllm …`, vllm#359, #4412, #17202) is about the server, though
// the client takes more flags.
func (f *Facts) MainCommand(s *Schema) *Command {
	var best, bestAPI *Command
	bestServes := false
	for i := range f.Commands {
		c := &f.Commands[i]
		p := s.program(c.Program)
		if c.pos < 0 && p != nil {
			return c
		}
		if c.harness {
			// The engine an evaluation harness started: the post ran the
			// harness's command, which holds these settings as written.
			continue
		}
		if p == nil || c.Subcommand == "" && len(c.Args) == 0 && len(c.Flags) == 0 && c.Via == "" {
			// A program named alone ("`vllm`" in a sentence, "vllm/" a
			// directory) runs nothing the post shows.
			continue
		}
		if c.api {
			if bestAPI == nil || len(c.Flags) > len(bestAPI.Flags) {
				bestAPI = c
			}
			continue
		}
		if serves := p.ModelFlag != ""; best == nil || serves && !bestServes || serves == bestServes && len(c.Flags) >= len(best.Flags) {
			best, bestServes = c, serves
		}
	}
	if best != nil {
		return best
	}
	if bestAPI != nil {
		return bestAPI
	}
	if len(f.Commands) > 0 {
		return &f.Commands[0]
	}
	return nil
}

// Flag reports the value of a normalised flag in any command and whether
// it was present.
func (f *Facts) Flag(name string) (string, bool) {
	for _, c := range f.Commands {
		if v, ok := c.Flags[name]; ok {
			return v, true
		}
	}
	v, ok := f.MentionedFlags[name]
	return v, ok
}

// Version returns the version of the main package (vllm unless the post
// names only another one).
func (f *Facts) Version(pkg string) string { return f.Versions[pkg] }

// Merge folds the facts of a later post in the same topic into f; earlier
// values win where both say something, lists are unioned.
func (f *Facts) Merge(o Facts) {
	f.Commands = append(f.Commands, o.Commands...)
	f.Errors = append(f.Errors, o.Errors...)
	if f.Versions == nil {
		f.Versions = map[string]string{}
	}
	for k, v := range o.Versions {
		if _, ok := f.Versions[k]; !ok {
			f.Versions[k] = v
		}
	}
	if f.Platform == "" {
		f.Platform = o.Platform
	}
	f.GPUs = append(f.GPUs, o.GPUs...)
	for _, m := range o.Models {
		if !slices.Contains(f.Models, m) {
			f.Models = append(f.Models, m)
		}
	}
	for _, t := range o.Topics {
		if !slices.Contains(f.Topics, t) {
			f.Topics = append(f.Topics, t)
		}
	}
	if f.OS == "" {
		f.OS = o.OS
	}
	if f.Python == "" {
		f.Python = o.Python
	}
	for k, v := range o.Env {
		if f.Env == nil {
			f.Env = map[string]string{}
		}
		if _, ok := f.Env[k]; !ok {
			f.Env[k] = v
		}
	}
}

// String renders a command in normalised form, flags sorted.
func (c Command) String() string {
	var b strings.Builder
	b.WriteString(c.Program)
	if c.Subcommand != "" {
		b.WriteString(" " + c.Subcommand)
	}
	for _, a := range c.Args {
		b.WriteString(" " + a)
	}
	keys := make([]string, 0, len(c.Flags))
	for k := range c.Flags {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := c.Flags[k]; v != "" {
			fmt.Fprintf(&b, " %s=%s", k, v)
		} else {
			b.WriteString(" " + k)
		}
	}
	return b.String()
}
