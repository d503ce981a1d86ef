package knowledge

import (
	"regexp"
	"strings"
)

// Environment variables are set in as many forms as commands are given,
// and the pack's entries name them as they name flags
// (VLLM_CPU_KVCACHE_SPACE, NCCL_P2P_DISABLE, VLLM_ATTENTION_BACKEND), so
// each form a post sets one in is read the same way:
//   - a command's own assignments and docker's -e (read with the command);
//   - a shell's export line and a systemd unit's Environment= line;
//   - Python setting its own environment before it starts the engine:
//     os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn" (LMCache's
//     lmcache-vllm#29; thirteen corpus issues, among them #2387 and
//     #16863, and vllm-dev C2-002), os.environ.setdefault and os.putenv;
//   - a Compose service's environment, as a list of NAME=value items or
//     a map of NAME: value (vllm-dev B008, corpus #10531, #16841, #35718);
//   - a Kubernetes container's env, a list of name and value (vLLM's own
//     CPU, Neuron and Kubernetes deployment manifests, KubeRay and LoRA
//     guides);
//   - a Dockerfile's ENV, NAME=value pairs or the older NAME value.
//
// A value that is not a literal (os.environ["K"] = key, a Kubernetes
// valueFrom) sets the variable to "": set, with a value the post does
// not state.
var (
	// systemdEnvRE is a systemd unit's Environment= line, quoted or not:
	// Environment="VLLM_ATTENTION_BACKEND=FLASHINFER".
	systemdEnvRE = regexp.MustCompile(`^\s*Environment=["']?([A-Z][A-Z0-9_]+)=([^"'\s]*)["']?\s*$`)
	// pythonEnvRE is an item assignment to os.environ; what follows the
	// "=" is read by pythonEnvValue, which tells it from a comparison.
	pythonEnvRE = regexp.MustCompile(`\bos\.environ\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\]\s*=(.*)$`)
	// pythonSetEnvRE is os.environ.setdefault("K", v) and os.putenv("K", v).
	pythonSetEnvRE = regexp.MustCompile(`\bos\.(?:environ\.setdefault|putenv)\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*,\s*([^)]*)\)`)
	// yamlEnvKeyRE opens a block of environment variables: Compose's
	// "environment:" and Kubernetes' "env:", alone on their line.
	yamlEnvKeyRE = regexp.MustCompile(`^(\s*)(?:environment|env):\s*$`)
	// yamlEnvItemRE is a Compose list item: "- NAME=value", quoted or
	// not, or "- NAME", which passes the host's value on.
	yamlEnvItemRE = regexp.MustCompile(`^\s*-\s+(.+?)\s*$`)
	// yamlEnvMapRE is a Compose map entry, "NAME: value"; the name must
	// be an environment variable's (capitals), not a key of YAML's own
	// structure.
	yamlEnvMapRE = regexp.MustCompile(`^\s*["']?([A-Z][A-Z0-9_]+)["']?:(?:\s+(.*?))?\s*$`)
	// k8sEnvNameRE and k8sEnvValueRE are a Kubernetes EnvVar: "- name: K"
	// with "value: v" (or "valueFrom:") in the same item.
	k8sEnvNameRE  = regexp.MustCompile(`^(\s*)-\s+name:\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*$`)
	k8sEnvValueRE = regexp.MustCompile(`^\s*value(From)?:\s*(.*?)\s*$`)
	// dockerfileEnvRE is a Dockerfile's ENV instruction.
	dockerfileEnvRE = regexp.MustCompile(`^\s*ENV\s+(.+?)\s*$`)
	// dockerfileEnvPairRE is one NAME=value pair of an ENV instruction.
	dockerfileEnvPairRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)`)
)

// maxEnvItemLines is how far below its name a Kubernetes EnvVar's value
// is looked for: Kubernetes writes "value" or "valueFrom" on the line
// after "name", and a hand-written item may put another key between.
const maxEnvItemLines = 3

// extractEnv returns the environment variables the post sets, in every
// form above, or nil.
func extractEnv(doc *document, cmds []Command) map[string]string {
	env := map[string]string{}
	for _, c := range cmds {
		for k, v := range c.Env {
			env[k] = v
		}
	}
	for _, l := range doc.lines() {
		if m := exportEnvRE.FindStringSubmatch(l); m != nil {
			// export VLLM_USE_V1="0" sets 0, as the shell reads it.
			env[m[1]] = unquoted(m[2])
		} else if m := systemdEnvRE.FindStringSubmatch(l); m != nil {
			env[m[1]] = m[2]
		} else if m := pythonEnvRE.FindStringSubmatch(l); m != nil {
			if v, ok := pythonEnvValue(m[2]); ok {
				env[m[1]] = v
			}
		} else if m := pythonSetEnvRE.FindStringSubmatch(l); m != nil {
			v, _ := pythonEnvValue(m[2])
			env[m[1]] = v
		}
	}
	for _, block := range doc.code {
		blockEnv(strings.Split(block, "\n"), env)
	}
	if len(env) == 0 {
		return nil
	}
	return env
}

// pythonEnvValue reads the right-hand side of an assignment to
// os.environ: a string literal is its value, any other expression sets
// the variable to a value the post does not state (""). ok is false for
// a comparison ("== ..."), which sets nothing.
func pythonEnvValue(rhs string) (v string, ok bool) {
	rhs = strings.TrimSpace(rhs)
	if strings.HasPrefix(rhs, "=") {
		return "", false
	}
	v, _ = leadingQuoted(rhs)
	return v, true
}

// yamlScalar is a YAML scalar's value as written on its line: a quoted
// one's text, or a plain one without its comment (" #").
func yamlScalar(v string) string {
	v = strings.TrimSpace(v)
	if q, ok := leadingQuoted(v); ok {
		return q
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// leadingQuoted returns the text of the string literal v starts with
// (single or double quotes), whatever follows it, and whether there is
// one.
func leadingQuoted(v string) (string, bool) {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			return v[1 : 1+end], true
		}
	}
	return "", false
}

// indentOf is how many blanks a line starts with.
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// blockEnv reads the environment variables one block of code sets in
// YAML (Compose's environment, Kubernetes' env) or a Dockerfile (ENV)
// into env. A YAML block runs from its key over the lines indented
// deeper, and over list items at the key's own indentation, which YAML
// allows ("env:\n- name: K").
func blockEnv(lines []string, env map[string]string) {
	for i := 0; i < len(lines); i++ {
		if m := dockerfileEnvRE.FindStringSubmatch(lines[i]); m != nil {
			dockerfileEnv(m[1], env)
			continue
		}
		m := yamlEnvKeyRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		keyIndent := len(m[1])
		for ; i+1 < len(lines); i++ {
			next := lines[i+1]
			t := strings.TrimSpace(next)
			if t == "" {
				continue
			}
			if indent := indentOf(next); indent < keyIndent || indent == keyIndent && !strings.HasPrefix(t, "- ") {
				break
			}
			yamlEnvLine(lines, i+1, env)
		}
	}
}

// yamlEnvLine reads line at of a YAML environment block into env: a
// Kubernetes EnvVar's "- name: K" (its value read from the item's own
// lines below), a Compose list item "- K=v" or a map entry "K: v".
func yamlEnvLine(lines []string, at int, env map[string]string) {
	l := lines[at]
	if n := k8sEnvNameRE.FindStringSubmatch(l); n != nil {
		if v, ok := k8sEnvValue(lines[at+1:], len(n[1])); ok {
			env[n[2]] = v
		}
		return
	}
	if n := yamlEnvItemRE.FindStringSubmatch(l); n != nil {
		if name, value, _ := strings.Cut(yamlScalar(n[1]), "="); identRE.MatchString(name) {
			env[name] = value
		}
	} else if n := yamlEnvMapRE.FindStringSubmatch(l); n != nil {
		env[n[1]] = yamlScalar(n[2])
	}
}

// k8sEnvValue returns the value of a Kubernetes EnvVar from the lines
// below its "- name:", those indented deeper than its dash, looking at
// most maxEnvItemLines down (which keeps nested items from costing
// quadratic time): "value: v" is v, "valueFrom:" a value the post does
// not state (""). ok is false when the item states neither.
func k8sEnvValue(below []string, dash int) (v string, ok bool) {
	for _, l := range below[:min(len(below), maxEnvItemLines)] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if indentOf(l) <= dash {
			return "", false
		}
		if m := k8sEnvValueRE.FindStringSubmatch(l); m != nil {
			if m[1] != "" {
				return "", true // valueFrom
			}
			return yamlScalar(m[2]), true
		}
	}
	return "", false
}

// dockerfileEnv reads an ENV instruction's arguments: NAME=value pairs,
// or the older form's one NAME and the rest of the line as its value.
func dockerfileEnv(args string, env map[string]string) {
	name, rest, _ := strings.Cut(args, " ")
	if !strings.Contains(name, "=") {
		if identRE.MatchString(name) {
			env[name] = unquoted(strings.TrimSpace(rest))
		}
		return
	}
	for _, m := range dockerfileEnvPairRE.FindAllStringSubmatch(args, 16) {
		env[m[1]] = unquoted(m[2])
	}
}
