package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// compiledEngines are a vocabulary's other engines and its main package
// ready to find in a post's text.
type compiledEngines struct {
	// names are the other engines' names in lower case, for commands,
	// and mainName the main package's.
	names    []string
	mainName string
	// other finds any other engine's name as a word of its own (nil
	// exactly when names is empty); main finds the main package's (nil
	// when the vocabulary names none).
	other, main *regexp.Regexp
}

// compileEngines compiles the names. A name is a word of its own when no
// letter, digit, underscore or dash touches it: "sglang" in "sglang
// 0.4.3" and "python -m sglang.launch_server", not in "user_sglang"; and
// "vllm" in "vllm: 0.7.2", not in "2_Vllm_test" or "vllm_config".
func compileEngines(others []string, main string) compiledEngines {
	var c compiledEngines
	var quoted []string
	for _, n := range others {
		if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
			c.names = append(c.names, n)
			quoted = append(quoted, regexp.QuoteMeta(n))
		}
	}
	if len(quoted) > 0 {
		c.other = wordOfItsOwn(strings.Join(quoted, "|"))
	}
	if c.mainName = strings.ToLower(main); c.mainName != "" {
		c.main = wordOfItsOwn(regexp.QuoteMeta(c.mainName))
	}
	return c
}

func wordOfItsOwn(alternatives string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[^\w-])(` + alternatives + `)(?:$|[^\w-])`)
}

// otherEngine returns the other serving engine a post is about (see
// Facts.OtherEngine), lower case, or "".
//
// A command decides first: one that runs the main package's program
// makes the post the main package's, one that runs another engine
// (lmdeploy serve, python -m sglang.launch_server, trtllm-serve) makes it
// that engine's. Without either, the post is about another engine when it
// names one and never the main package: a vLLM forum's posts rarely fail
// to say vLLM somewhere (a version listing, a log line, an image) when
// they are about it.
func (s *Schema) otherEngine(doc *document, cmds []Command, mainNamed bool) string {
	if s == nil || len(s.engines.names) == 0 {
		return ""
	}
	if s.runsMain(cmds) {
		return ""
	}
	ran := ""
	for _, c := range cmds {
		prog, head := programNames(c)
		for _, name := range []string{prog, head} {
			if ran == "" && slices.Contains(s.engines.names, name) {
				ran = name
			}
		}
	}
	if ran != "" || mainNamed {
		return ran
	}
	if m := s.engines.other.FindStringSubmatch(doc.scanText()); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// httpClients are the packages through which a program calls a server:
// an error they raise, or raise through, is the server's answer or the
// call's failure ("openai.BadRequestError: Error code: 400 - {… '"auto"
// tool choice requires --enable-auto-tool-choice …'}", a client relaying
// vLLM's refusal), and the server may well be the main package's, so such
// a traceback is no other program's failure.
var httpClients = map[string]bool{
	"openai": true, "httpx": true, "httpcore": true, "requests": true, "urllib3": true,
	"aiohttp": true, "litellm": true, "langchain_openai": true, "anthropic": true,
}

// foreignError reports whether a post's failure is another program's
// (Facts.ForeignError): a traceback's frames name installed packages,
// none of them the main package or an HTTP client (httpClients), and no
// command runs the main package,
// no version of it is stated and the post never names it. Posts about
// the main package name it nearly always (a vLLM forum's posts say vLLM in
// a version listing, a log line, an image or a command); a traceback
// through torch's backward pass in a fine-tuning script that never does
// (AITextGenerator#10, ParlAI#4452, nile#1 on GitHub) is a training
// problem, which vLLM's advice (its memory flags) does not fix.
func (s *Schema) foreignError(f *Facts, mainNamed bool) bool {
	if s == nil || s.engines.mainName == "" || mainNamed {
		return false
	}
	main := s.engines.mainName
	framed := false
	for _, e := range f.Errors {
		pkg, _, _ := strings.Cut(e.Type, ".")
		if slices.ContainsFunc(e.Packages, func(p string) bool { return mainFamily(p, main) }) || httpClients[pkg] || slices.ContainsFunc(e.Packages, func(p string) bool { return httpClients[p] }) {
			return false
		}
		framed = framed || len(e.Packages) > 0
	}
	return framed && f.Versions[main] == "" && !s.runsMain(f.Commands) &&
		!slices.ContainsFunc(f.Commands, func(c Command) bool { return strings.Contains(strings.ToLower(c.Via), main) })
}

// mainFamily reports whether pkg, a traceback frame's package, is the
// main package or one of the project's own packages named after it: its
// platform plugins and companions, whose frames run the main package's
// engine ("site-packages/vllm_ascend/worker/worker.py",
// vllm-project/vllm-ascend#564; "site-packages/vllm_omni/diffusion/…",
// gpustack/gpustack#4363; vllm_flash_attn, vllm_gaudi).
func mainFamily(pkg, main string) bool {
	return pkg == main || strings.HasPrefix(pkg, main+"_")
}

// namesMain reports whether a post names the main package anywhere in its
// words (engines.main): "vLLM" in a sentence, a version listing, a log
// line or an image.
func (s *Schema) namesMain(doc *document) bool {
	return s != nil && s.engines.main != nil && s.engines.main.MatchString(doc.scanText())
}

// runsMain reports whether a command runs the main package's program or
// one of its modules (`vllm serve`, `python -m vllm.entrypoints…`).
func (s *Schema) runsMain(cmds []Command) bool {
	main := s.engines.mainName
	return main != "" && slices.ContainsFunc(cmds, func(c Command) bool {
		prog, head := programNames(c)
		return prog == main || head == main
	})
}

// programNames returns a command's program in lower case and its first
// dotted part, the package a `python -m sglang.launch_server` runs.
func programNames(c Command) (prog, head string) {
	prog = strings.ToLower(c.Program)
	head, _, _ = strings.Cut(prog, ".")
	return prog, head
}
