package knowledge

import (
	"regexp"
	"strings"
)

// cjkRunes is a regexp character-class body for the text of Chinese,
// Japanese and Korean sentences, punctuation included ("。", "，" before
// normalizeText maps it): what such a sentence glues to a link, a
// version or a command's last word ends where it begins.
const cjkRunes = `\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}` + cjkPunctRunes

// cjkPunctRunes is the part of cjkRunes that is punctuation and
// full-width forms: CJK symbols ("。", "、") and the full-width block
// ("，", "？").
const cjkPunctRunes = `\x{3000}-\x{303F}\x{FF00}-\x{FFEF}`

var (
	// cjkRE matches one rune of cjkRunes.
	cjkRE = regexp.MustCompile(`[` + cjkRunes + `]`)
	// cjkPunctStartRE matches a string that starts with one rune of
	// cjkPunctRunes.
	cjkPunctStartRE = regexp.MustCompile(`^[` + cjkPunctRunes + `]`)
)

// normalizeText rewrites the typographic variants of ASCII that forum
// editors, word processors and CJK input methods put into pasted machine
// text, so that extraction sees the same characters whatever the poster's
// keyboard: CR and CRLF line ends, no-break and ideographic spaces, smart
// quotes, full-width ASCII forms (U+FF01–U+FF5E, e.g. "：" and "（"),
// lenticular brackets and dashes. Zero-width characters, bidi controls and
// the byte order mark are dropped. The mapping is one rune to at most one
// rune, so the cost is linear and the output never grows in bytes, with
// two exceptions that are no longer than what they replace. An en or em
// dash that starts a word is the "--" a typographer replaced
// ("–max-model-len", "—enable-prefix-caching": word processors, chat
// apps and Markdown typographers do it outside code) and is written as
// "--" again. A full-width comma is a comma and the space an English
// sentence puts after it (two bytes for its three): Chinese prose goes
// on right after it, and a command's last value ends there as it does
// before ", " ("--max-model-len 4096，结果报错";
// "--gpu-memory-utilization 0.3，80G的显卡", vllm-project/vllm#18124; the
// same in notes and comments of many projects).
func normalizeText(s string) string {
	s = withoutTerminalColours(s)
	if isPlainASCII(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\uFF0C", ", ")
	if strings.ContainsAny(s, "\u2013\u2014\u2015") {
		s = typographicOptionRE.ReplaceAllString(s, "$1--$2")
	}
	return strings.Map(normalizeRune, s)
}

// terminalColourRE is a terminal's colour code as a log copied from it
// carries it: the escape character itself, or written the way the tool
// between showed it, caret notation ("^[[1;36m(VllmWorker TP5
// pid=42616)^[[0;0m INFO …", vllm#24072, #3849), syslog's octal
// ("#033[1;36m(VllmWorkerProcess pid=382)#033[0;0m ERROR …", with "#015"
// for a carriage return, #20855), a string escape ("\033[0m",
// "\x1b[0m", "\e[0m"), or the replacement character a decoder put where
// the escape was ("\ufffd[1;36m(VllmWorker rank=3 pid=4867)\ufffd[0;0m
// ERROR …", vllm#21713).
var terminalColourRE = regexp.MustCompile(`(?:\x1b|\^\[|#033|\\033|\\x1[bB]|\\e|\x{FFFD})\[[0-9;]*m|#015\b`)

// terminalColourMarks are the strings one of which every match of
// terminalColourRE holds; text without them is returned as it is.
var terminalColourMarks = []string{"\x1b[", "^[[", "#033[", "\\033[", "\\x1b[", "\\x1B[", "\\e[", "#015", "\uFFFD["}

// bareColourRE is a colour code whose escape character a paste dropped,
// leaving "[1;36m(VllmWorker rank=1 pid=219)[0;0m INFO …" (posts about
// Qwen2.5-VL and Phi-3.5-vision serving, a GLM-4 log; vLLM colours its
// workers' prefix so). Without the escape, only the forms no text writes
// otherwise are taken: attributes joined by ";", a colour right before
// a worker's "(" name and a reset right after its ")" (Ray's "[36m(RayWorkerVllm
// pid=7247)[0m INFO …").
var bareColourRE = regexp.MustCompile(`\[(?:\d{1,3};)+\d{1,3}m|\[(?:3[0-7]|9[0-7])m(\()|(\))\[0m([^\]]|$)`)

// withoutTerminalColours returns s without terminal colour codes, which
// are the terminal's and not the log's.
func withoutTerminalColours(s string) string {
	for _, m := range terminalColourMarks {
		if strings.Contains(s, m) {
			s = terminalColourRE.ReplaceAllString(s, "")
			break
		}
	}
	if strings.IndexByte(s, '[') >= 0 {
		s = bareColourRE.ReplaceAllString(s, "$1$2$3")
	}
	return s
}

// typographicOptionRE is a long option whose "--" a typographer turned
// into an en dash, an em dash or a horizontal bar: the dash starts a word
// and a lower-case letter follows it. A dash between words ("a — b",
// "word—word") is punctuation and stays.
var typographicOptionRE = regexp.MustCompile("(^|[\\s(\\[\"'`])[\u2013\u2014\u2015]([a-z])")

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= 0x80 || b == '\r' {
			return false
		}
	}
	return true
}

func normalizeRune(r rune) rune {
	switch {
	case r < 0x80:
		if r == '\r' {
			return '\n'
		}
		return r
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return r - 0xFF01 + '!'
	}
	switch r {
	case '\u00A0', '\u2007', '\u202F', '\u3000', '\u2002', '\u2003', '\u2009', '\u200A':
		return ' '
	case '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD',
		'\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F':
		return -1
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032':
		return '\''
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return '-'
	case '\u3010':
		return '['
	case '\u3011':
		return ']'
	case '\u3001':
		return ','
	case '\u2028', '\u2029', '\u0085':
		return '\n'
	}
	return r
}
