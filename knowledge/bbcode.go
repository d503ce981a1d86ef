package knowledge

import (
	"regexp"
	"strings"
)

// Discourse renders a [code] BBCode block as a fenced code block: its
// Markdown engine (discourse-markdown-it's bbcode-block.js) registers a
// "code" rule whose content becomes a fence token, and formatting guides
// of Discourse forums teach [code] beside ``` to people who come from
// bulletin boards. A raw post is what Herald reads, so a log or a command
// wrapped in [code]…[/code] must read as the same log fenced; read as
// prose, its lines were sentences (of 604 dev posts and corpus issues
// with a fence, 213 read other facts once their fences were written as
// [code] blocks, measured with a probe before this reader existed;
// `TestMetamorphic`'s bbcode-code perturbation now holds them to none).
//
// The rules are Discourse's: the tag, in any case and with any
// attributes ("[code=python]", "[CODE lang=sh]"), opens a line indented
// by at most three spaces; either the same line ends with [/code] after
// some content (one line of code), or nothing but spaces follows the tag
// and a line that is [/code] alone closes the block, nested clean
// [code] lines counting as in brackets; an unclosed tag is text. Lines
// inside a Markdown fence are code, so a [code] there stays as written.
// [code] inside a quote or a list item is left as it is. The tags of
// the blocks that hold Markdown ([quote], [details], [spoiler]) end the
// paragraph above them, as they do for Discourse.
var (
	bbcodeOpenRE   = regexp.MustCompile(`(?i)^ {0,3}\[code(?:[^a-z\]\n][^\]\n]*)?\][ \t\r]*$`)
	bbcodeCloseRE  = regexp.MustCompile(`(?i)^ {0,3}\[/code\][ \t\r]*$`)
	bbcodeInlineRE = regexp.MustCompile(`(?i)^ {0,3}\[code(?:[^a-z\]\n][^\]\n]*)?\](.+)\[/code\][ \t\r]*$`)
	// bbcodeBlockTagRE is a line that is only the opening or closing
	// tag of one of Discourse's BBCode blocks that hold Markdown: a
	// quote ([quote="alice, post:1, topic:2"], as a reply quotes the
	// post it answers), a fold ([details="Log"]) or a spoiler.
	bbcodeBlockTagRE = regexp.MustCompile(`(?i)^ {0,3}\[/?(?:quote|details|spoiler)(?:[= ][^\]\n]*)?\][ \t\r]*$`)
	// fenceMarkRE is a Markdown fence's opening line: its marks and
	// their run (a backtick fence's info has no backtick).
	fenceMarkRE = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// discourseCode returns a raw Discourse post with its [code] blocks
// written as fenced code blocks, each fence longer than any run of
// backticks its code holds. It runs in time linear in the post.
func discourseCode(s string) string {
	if !hasTag(s, "code", "quote", "details", "spoiler") {
		return s
	}
	lines := strings.Split(s, "\n")
	// Each clean opening line's closing line, paired as brackets are:
	// the first closing line after it at which as many clean openings as
	// closings lie between, which is Discourse's search for it.
	closeAt := make([]int, len(lines))
	var open []int
	for i, l := range lines {
		closeAt[i] = -1
		switch {
		case bbcodeOpenRE.MatchString(l):
			open = append(open, i)
		case bbcodeCloseRE.MatchString(l) && len(open) > 0:
			closeAt[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	fence, fenceLen := byte(0), 0 // the open Markdown fence's mark and run
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i > 0 {
			b.WriteByte('\n')
		}
		if fence != 0 {
			t := strings.TrimLeft(l, " ")
			if run := strings.TrimRight(t, " \t\r"); len(l)-len(t) <= 3 && len(run) >= fenceLen && strings.Trim(run, string(fence)) == "" {
				fence = 0
			}
			b.WriteString(l)
			continue
		}
		if m := fenceMarkRE.FindStringSubmatch(l); m != nil && (m[1][0] == '~' || !strings.Contains(l[len(m[0]):], "`")) {
			fence, fenceLen = m[1][0], len(m[1])
			b.WriteString(l)
			continue
		}
		if m := bbcodeInlineRE.FindStringSubmatch(l); m != nil {
			writeFenced(&b, []string{m[1]})
			continue
		}
		if end := closeAt[i]; end > i {
			writeFenced(&b, lines[i+1:end])
			i = end
			continue
		}
		if bbcodeBlockTagRE.MatchString(l) {
			// A quote's, a fold's or a spoiler's tag alone on its line
			// opens or closes a block for Discourse, whatever the line
			// above: the paragraph it ends is not continued by the tag.
			b.WriteString("\n" + l + "\n")
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// hasTag reports whether s holds "[" and one of the tags' names in any
// case, in one pass and without the copy of the post strings.ToLower
// would make: discourseCode runs on every post read, and most have no tag.
func hasTag(s string, names ...string) bool {
	for i := strings.IndexByte(s, '['); i >= 0; {
		for _, name := range names {
			if i+1+len(name) <= len(s) && strings.EqualFold(s[i+1:i+1+len(name)], name) {
				return true
			}
		}
		j := strings.IndexByte(s[i+1:], '[')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// writeFenced writes code as a fenced block whose fence no line of it can
// close.
func writeFenced(b *strings.Builder, code []string) {
	longest := 0
	for _, l := range code {
		longest = max(longest, longestBacktickRun(l))
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString(fence)
	b.WriteByte('\n')
	for _, l := range code {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(fence)
}
