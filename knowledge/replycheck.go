package knowledge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// replyParser parses a reply as CommonMark plus the bare-link detection
// Discourse does (GFM linkify), so that anything that would become a live
// link shows up as a node.
var replyParser = goldmark.New(goldmark.WithExtensions(extension.Linkify, extension.Strikethrough)).Parser()

var (
	liveMentionRE = regexp.MustCompile(`(?:^|[^\pL\pN_.\-])[@＠﹫][\pL\pN_]`)
	liveHashtagRE = regexp.MustCompile(`(?:^|[\s(])#[\pL\pN]`)
	liveEmojiRE   = regexp.MustCompile(`:[a-z0-9_+\-]+:`)
	liveBBCodeRE  = regexp.MustCompile(`(?i)(?:^|[^\\])\[/?(?:img|url|quote|email|b|i|u|s|code|size|color|spoiler|details|date|wrap|grid|poll|video|audio|iframe|abbr|left|right|center|ul|ol|li|table|tr|td|th)\b`)
	liveEntityRE  = regexp.MustCompile(`(?:^|[^\\])&#?[A-Za-z0-9]+;`)
	controlRE     = regexp.MustCompile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff\u200c\u200d\u2060]")
)

// ReplyProblems parses a reply and reports whatever in it could act on the
// forum rather than be read: images, raw HTML other than Herald's own
// <sub>, HTML blocks, bare or angle-bracket autolinks, links to anything
// but allowed (the cited entries' URLs), and, in text outside code,
// @mentions, #hashtags, :emoji: shortcodes, BBCode tags, character
// entities and bidi or zero-width controls. An empty result means the
// reply is inert but for Herald's own links. The runner checks every
// draft with it before posting; tests and fuzz targets check every
// composed reply.
func ReplyProblems(reply string, allowed []string) []string {
	src := []byte(reply)
	root := replyParser.Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			out = append(out, fmt.Sprintf("image %q", n.Destination))
		case *ast.AutoLink:
			out = append(out, fmt.Sprintf("autolink %q", n.URL(src)))
		case *ast.HTMLBlock:
			out = append(out, "HTML block")
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				if tag := strings.ToLower(string(seg.Value(src))); tag != "<sub>" && tag != "</sub>" {
					out = append(out, fmt.Sprintf("raw HTML %q", tag))
				}
			}
		case *ast.Link:
			if !slices.Contains(allowed, string(n.Destination)) {
				out = append(out, fmt.Sprintf("link to %q", n.Destination))
			}
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
			// Discourse scans the text of a block after Markdown: check it
			// whole, as the reader's text (escapes resolved) and as written.
			raw, plain := blockText(n, src)
			for _, c := range []struct {
				re   *regexp.Regexp
				s    string
				what string
			}{
				{liveMentionRE, plain, "@mention"}, {liveHashtagRE, plain, "hashtag"}, {liveEmojiRE, plain, "emoji shortcode"},
				{liveBBCodeRE, raw, "BBCode tag"}, {liveEntityRE, raw, "character entity"}, {controlRE, plain, "bidi or zero-width control"},
			} {
				if m := c.re.FindString(c.s); m != "" {
					out = append(out, fmt.Sprintf("%s %q in %q", c.what, m, truncate(plain, 80)))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// blockText joins the text of a block's inline nodes outside code spans,
// as written and with backslash escapes resolved.
func blockText(block ast.Node, src []byte) (raw, plain string) {
	var r, p strings.Builder
	_ = ast.Walk(block, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			r.WriteString(" ")
			p.WriteString(" ")
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			v := n.Segment.Value(src)
			r.Write(v)
			p.Write(util.UnescapePunctuations(v))
			if n.SoftLineBreak() || n.HardLineBreak() {
				r.WriteString("\n")
				p.WriteString("\n")
			}
		}
		return ast.WalkContinue, nil
	})
	return r.String(), p.String()
}

// CitedURLs returns the URLs of the matches a reply may link.
func CitedURLs(cited []Match) []string {
	out := make([]string, 0, len(cited))
	for _, m := range cited {
		out = append(out, m.Entry.URL)
	}
	return out
}
