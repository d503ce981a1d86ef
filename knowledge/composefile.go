package knowledge

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxComposeBytes bounds the code block read as YAML for a container's
// two halves: a Compose file or a manifest is a few kilobytes, and the
// parser's cost grows with what it is given.
const maxComposeBytes = 32 << 10

// containerCommands returns the command lines of the containers a
// Compose file or a Kubernetes manifest defines in two halves: a Compose
// service's entrypoint with its command after it, and a Kubernetes
// container's command with its args after it. Both runtimes run the two
// as one argument vector, whatever image the container names (Compose's
// "entrypoint" and Kubernetes' "command" override the image's
// ENTRYPOINT, Compose's "command" and Kubernetes' "args" its CMD). Posts
// write both halves in every form YAML has: `entrypoint: vllm serve
// /model/DeepSeek-R1-Distill-Qwen-32B` over a `command:` of flags as a
// plain scalar on several lines (LMCache/LMCache#906, an image with an
// entrypoint of its own), `entrypoint: [vllm, serve]` or `entrypoint:
// vllm serve` over a flow or block list that starts with the model (a
// Compose-checking project's tests of the files its users write), and
// `command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]` or
// the same as a block list over `args:` of options (the Kubernetes
// manifests of vLLM's TPU and Neuron guides, KServe serving runtimes,
// Helm-free deployment write-ups). Read apart, the second half's flags
// belonged to no program and the first half was a command without its
// arguments. A Kubernetes command alone, or args alone, is left to the
// readers of single lists; so is a Compose command without an entrypoint.
//
// keyLines are the lines (0-based) of the keys it read and of their
// lists' items, which the readers of single lists and scalars then leave
// alone. A block that is not valid YAML, or holds no container of two
// halves, gives nothing; each document of a file of several ("---") is
// read.
func containerCommands(block string) (lists [][]string, keyLines map[int]bool) {
	if len(block) > maxComposeBytes || !strings.Contains(block, "entrypoint:") && !strings.Contains(block, "args:") {
		return nil, nil
	}
	add := func(words []string, halves ...*keyValue) {
		lists = append(lists, words)
		if keyLines == nil {
			keyLines = map[int]bool{}
		}
		for _, h := range halves {
			// The key's line and its list items' lines: an item
			// below the key is no list of its own ("- python" under
			// "command:" starts no command an excerpt cut the key off).
			last := h.key.Line
			for _, it := range h.value.Content {
				last = max(last, it.Line)
			}
			for l := h.key.Line; l <= last; l++ {
				keyLines[l-1] = true
			}
		}
	}
	// A Deployment's container sits seven levels deep; nothing deeper is
	// one.
	eachMapping(block, 12, func(n *yaml.Node) bool {
		entry, cmd, args := mappingValue(n, "entrypoint"), mappingValue(n, "command"), mappingValue(n, "args")
		switch {
		case entry != nil:
			words := nodeWords(entry.value)
			if cmd != nil {
				words = append(words, nodeWords(cmd.value)...)
			}
			// An entrypoint alone that only names its program ("vllm
			// serve" over GPUStack's run_command:) says nothing of how
			// it runs; with arguments, or with a command, it does.
			switch {
			case cmd != nil && len(words) > 0:
				add(words, entry, cmd)
			case cmd == nil && len(words) > 2:
				add(words, entry)
			}
		case cmd != nil && args != nil:
			first, second := nodeWords(cmd.value), nodeWords(args.value)
			if len(first) > 0 && len(second) > 0 {
				add(append(first, second...), cmd, args)
			}
		}
		return true
	})
	return lists, keyLines
}

// eachMapping calls fn with each mapping node of the documents of a YAML
// block (eachYAMLDocument), parents before children, down to maxDepth
// levels below a document's root, until fn returns false.
func eachMapping(block string, maxDepth int, fn func(m *yaml.Node) bool) {
	more := true
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if !more || depth > maxDepth {
			return
		}
		if n.Kind == yaml.MappingNode {
			more = fn(n)
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	eachYAMLDocument(block, func(doc *yaml.Node) { walk(doc, 0) })
}

// eachYAMLDocument calls fn with each document of a YAML block, at most
// maxYAMLDocuments of them, until one is not YAML: what was read stands.
// The parser breaks lines where YAML does (a lone carriage return, NEL,
// the Unicode separators); they become spaces first, so that a node's
// line counts "\n" alone, as the post's other readers do.
func eachYAMLDocument(block string, fn func(*yaml.Node)) {
	dec := yaml.NewDecoder(strings.NewReader(yamlBreaks.Replace(block)))
	for range maxYAMLDocuments {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return
		}
		fn(&doc)
	}
}

// maxYAMLDocuments bounds the documents of one block read for
// containers: a manifest pasted into a post holds a Deployment, a
// Service and perhaps a few more.
const maxYAMLDocuments = 16

// yamlBreaks turns every line break YAML knows but "\n" into a space.
var yamlBreaks = strings.NewReplacer("\r\n", "\n", "\r", " ", "\u0085", " ", "\u2028", " ", "\u2029", " ")

// keyValue is a mapping's key node and its value.
type keyValue struct{ key, value *yaml.Node }

// mappingValue returns the entry of a mapping whose key is name, or nil.
func mappingValue(m *yaml.Node, name string) *keyValue {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == name {
			return &keyValue{k, m.Content[i+1]}
		}
	}
	return nil
}

// nodeWords returns the argument words of a container's entrypoint,
// command or args: a list's items as they are, but an option written
// with its value as one item ("- --max-model-len 4096", which people
// write and mean as two), and a string split as Compose splits it
// (shell words, without a shell's operators); nothing for anything else.
func nodeWords(n *yaml.Node) []string {
	switch n.Kind {
	case yaml.SequenceNode:
		var words []string
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode {
				return nil
			}
			if v := strings.TrimSpace(it.Value); isFlagWord(v) && strings.ContainsAny(v, " \t") {
				words = append(words, scalarWords(v)...)
				continue
			}
			words = append(words, it.Value)
		}
		return words
	case yaml.ScalarNode:
		v := strings.TrimSpace(n.Value)
		if v == "" || n.Tag == "!!null" {
			return nil
		}
		return scalarWords(v)
	}
	return nil
}

// scalarWords splits a YAML string holding several arguments into them:
// shell words when the shell's parser reads it as one call, else fields.
func scalarWords(v string) []string {
	calls, _ := shellCalls(v, v)
	if len(calls) == 1 {
		return calls[0]
	}
	return strings.Fields(v)
}

// yamlEngineSettings returns, for each mapping of a YAML block that holds
// an engine_kwargs mapping, the engine's settings it gives: Ray Serve
// LLM's application configs (`llm_configs:`, `prefill_config:`,
// `decode_config:` in `serve run` files and KubeRay's serveConfigV2;
// Ray's prefill/decode guides, LMCache's and llm-d's examples) name the
// engine's settings there, as `engine_kwargs=dict(…)` does in Python,
// and the model in the sibling `model_loading_config`'s `model_source`.
// Each result maps a setting's name as written (`tensor_parallel_size`)
// to its scalar value, the model under "model_source"; settings whose
// value is a mapping or a list are left out, and so is a block that is
// not valid YAML.
func yamlEngineSettings(block string) []map[string]string {
	if len(block) > maxComposeBytes || !strings.Contains(block, "engine_kwargs:") {
		return nil
	}
	var out []map[string]string
	// Ray Serve puts an engine's config under applications, args and
	// llm_configs (or prefill_config), each in a list: about six levels;
	// sixteen leaves room for a config inside a manifest.
	eachMapping(block, 16, func(n *yaml.Node) bool {
		kw := mappingValue(n, "engine_kwargs")
		if kw == nil || kw.value.Kind != yaml.MappingNode {
			return true
		}
		set := map[string]string{}
		for i := 0; i+1 < len(kw.value.Content); i += 2 {
			k, v := kw.value.Content[i], kw.value.Content[i+1]
			if k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && k.Value != "" {
				set[k.Value] = v.Value
			}
		}
		if load := mappingValue(n, "model_loading_config"); load != nil && load.value.Kind == yaml.MappingNode {
			if src := mappingValue(load.value, "model_source"); src != nil && src.value.Kind == yaml.ScalarNode {
				set["model_source"] = src.value.Value
			}
		}
		if len(set) > 0 {
			out = append(out, set)
		}
		return len(out) < maxEngineConfigs
	})
	return out
}

// maxEngineConfigs bounds the engine configurations read from one block:
// a config holds one, or a prefill and a decode one, per application.
const maxEngineConfigs = 8
