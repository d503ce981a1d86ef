package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// positionIn returns where line (or its first words) occurs in src.
func positionIn(src, line string) int {
	key := strings.TrimSpace(line)
	if len(key) > 40 {
		key = key[:40]
	}
	if i := strings.Index(src, key); i >= 0 {
		return i
	}
	return len(src)
}

var shellAssignRE = regexp.MustCompile(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=([^\s'"$]+)\s*$`)

// shellVars collects NAME=value lines, so that commands using $NAME or
// ${NAME} can be read with the values the post gave.
func shellVars(doc *document) map[string]string {
	vars := map[string]string{}
	for _, l := range doc.lines() {
		if m := shellAssignRE.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[2], "-") {
			vars[m[1]] = m[2]
		}
	}
	return vars
}

func expandVars(line string, vars map[string]string) string {
	if len(vars) == 0 || !strings.Contains(line, "$") {
		return line
	}
	for k, v := range vars {
		line = strings.ReplaceAll(line, "${"+k+"}", v)
		line = strings.ReplaceAll(line, "$"+k, v)
	}
	return line
}

// nonRunnerRE matches the start of a command that runs no program given
// to it: an export, or a package install.
var nonRunnerRE = regexp.MustCompile(`^\s*(?:sudo\s+)?(?:export\s|(?:uv\s+)?pip3?\s+install\s|python3?\s+-m\s+pip\s+install\s|conda\s+install\s)`)

// startsRun reports whether a line starts a run of one of the schema's
// programs: the program and one of its subcommands ("vllm serve"), or
// `python -m` and one of its modules.
func (s *Schema) startsRun(line string) bool {
	if s == nil {
		return false
	}
	words := strings.Fields(line)
	if len(words) < 2 {
		return false
	}
	for _, p := range s.Programs {
		if words[0] == p.Name && slices.Contains(p.Subcommands, words[1]) {
			return true
		}
		if len(words) >= 3 && (words[0] == "python" || words[0] == "python3") && words[1] == "-m" {
			if _, ok := p.Modules[words[2]]; ok {
				return true
			}
		}
	}
	return false
}

// blockMarkerRE matches a line that is only a fold's tag: Discourse's
// BBCode ([details="Log"], [/details], [quote], [spoiler]) or GitHub's
// raw HTML (<details>, <summary>Log</summary>, </details>): formatting,
// never the rest of a command.
var blockMarkerRE = regexp.MustCompile(`(?i)^\s*(?:\[/?(?:details|quote|spoiler)(?:[= ][^\]]*)?\]|</?details\b[^>]*>|<summary\b[^>]*>.*</summary>|</?summary>)\s*$`)

// joinContinuations joins lines that end in a backslash with the next one;
// a BBCode block tag ends the command instead, and so does a run of one
// of the schema's programs after an export or a package install
// ("uv pip install vllm==0.10.1 \" then "vllm serve m",
// vllm-project/vllm#22519; "export HF_HUB_OFFLINE=1 \" then "vllm serve
// m", #23684): neither runs what follows it, so the backslash is a slip
// of the paste, not one command.
func joinContinuations(lines []string, s *Schema) []string {
	var out []string
	var cur strings.Builder
	for _, l := range lines {
		t := strings.TrimRight(l, " \t")
		if cur.Len() > 0 && blockMarkerRE.MatchString(t) {
			out = append(out, strings.TrimSpace(cur.String()), l)
			cur.Reset()
			continue
		}
		if cur.Len() > 0 && nonRunnerRE.MatchString(cur.String()) && s.startsRun(t) {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
		if strings.HasSuffix(t, "\\") && cur.Len() < maxCommandBytes {
			cur.WriteString(strings.TrimSuffix(t, "\\"))
			cur.WriteByte(' ')
			continue
		}
		if cur.Len() > 0 {
			cur.WriteString(strings.TrimLeft(t, " \t"))
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		out = append(out, l)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}
