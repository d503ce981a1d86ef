package knowledge

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxComposeBytes bounds the code block read as YAML for a service's
// entrypoint: a Compose file is a few kilobytes, and the parser's cost
// grows with what it is given.
const maxComposeBytes = 32 << 10

// composeEntrypoints returns the command lines of a Compose file's
// services that set an entrypoint: Compose runs the entrypoint with the
// service's command after it, as one argument vector, whatever image
// the service names (Compose's "entrypoint" overrides the image's
// ENTRYPOINT and "command" its CMD). Posts write both halves in every
// form YAML has: `entrypoint: vllm serve /model/DeepSeek-R1-Distill-Qwen-32B`
// over a `command:` of flags as a plain scalar on several lines
// (LMCache/LMCache#906, an image with an entrypoint of its own), and
// `entrypoint: [vllm, serve]` or `entrypoint: vllm serve` over a flow or
// block list that starts with the model (a Compose-checking project's
// tests of the files its users write). Read apart, the command's flags
// belonged to no program and the entrypoint was a command without its
// arguments.
//
// keyLines are the lines (0-based) of the entrypoint and command keys it
// read, which the readers of single lists and scalars then leave alone.
// A block that is not valid YAML, or holds no entrypoint, gives nothing.
func composeEntrypoints(block string) (lists [][]string, keyLines map[int]bool) {
	if len(block) > maxComposeBytes || !strings.Contains(block, "entrypoint:") {
		return nil, nil
	}
	// The parser breaks lines where YAML does (a lone carriage return,
	// NEL, the Unicode separators); the key lines count "\n" alone, as
	// the post's other readers do.
	block = yamlBreaks.Replace(block)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(block), &doc); err != nil {
		return nil, nil
	}
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if depth > 8 {
			return // a service sits two levels deep; nothing deeper is one
		}
		if n.Kind == yaml.MappingNode {
			entry, cmd := mappingValue(n, "entrypoint"), mappingValue(n, "command")
			if entry != nil {
				words := nodeWords(entry.value)
				if cmd != nil {
					words = append(words, nodeWords(cmd.value)...)
				}
				// An entrypoint alone that only names its program ("vllm
				// serve" over GPUStack's run_command:) says nothing of how
				// it runs; with arguments, or with a command, it does.
				if cmd != nil && len(words) > 0 || len(words) > 2 {
					lists = append(lists, words)
					if keyLines == nil {
						keyLines = map[int]bool{}
					}
					keyLines[entry.key.Line-1] = true
					if cmd != nil {
						keyLines[cmd.key.Line-1] = true
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(&doc, 0)
	return lists, keyLines
}

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

// nodeWords returns the argument words of a Compose entrypoint or
// command: a list's items as they are, a string split as Compose splits
// it (shell words, without a shell's operators), nothing for anything
// else.
func nodeWords(n *yaml.Node) []string {
	switch n.Kind {
	case yaml.SequenceNode:
		var words []string
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode {
				return nil
			}
			words = append(words, it.Value)
		}
		return words
	case yaml.ScalarNode:
		v := strings.TrimSpace(n.Value)
		if v == "" || n.Tag == "!!null" {
			return nil
		}
		calls, _ := shellCalls(v, v)
		if len(calls) == 1 {
			return calls[0]
		}
		return strings.Fields(v)
	}
	return nil
}
