package knowledge

import (
	"regexp"
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

// blockMarkerRE matches a line that is only a Discourse BBCode block tag
// ([details="Log"], [/details], [quote], [spoiler]): formatting, never
// the rest of a command.
var blockMarkerRE = regexp.MustCompile(`(?i)^\s*\[/?(?:details|quote|spoiler)(?:[= ][^\]]*)?\]\s*$`)

// joinContinuations joins lines that end in a backslash with the next one;
// a BBCode block tag ends the command instead.
func joinContinuations(lines []string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range lines {
		t := strings.TrimRight(l, " \t")
		if cur.Len() > 0 && blockMarkerRE.MatchString(t) {
			out = append(out, strings.TrimSpace(cur.String()), l)
			cur.Reset()
			continue
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
