package knowledge

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxPostBytes bounds how much of a post is read. Forum posts are capped far
// below this by Discourse (32,000 characters by default); anything longer is
// pasted logs, of which the head carries the command and the tail the error,
// so Extract keeps both ends.
const MaxPostBytes = 256 << 10

// ErrTruncated is reported (wrapped, with partial Facts) when a post was
// longer than MaxPostBytes and only its head and tail were read.
var ErrTruncated = errors.New("knowledge: post truncated")

// Format says how a post body is written.
type Format int

const (
	// FormatAuto sniffs the body: cooked HTML if it starts with a tag
	// and has no line only Markdown writes (a code fence).
	FormatAuto Format = iota
	// FormatMarkdown is Discourse's raw Markdown.
	FormatMarkdown
	// FormatHTML is Discourse's cooked HTML.
	FormatHTML
)

// Post is one forum post as Herald receives it.
type Post struct {
	Title  string // topic title; may be empty for replies
	Body   string // raw Markdown or cooked HTML
	Format Format
}

// document is a post reduced to what the extractors read: code blocks
// (fenced, indented or <pre>), inline code spans, and prose lines. Bare lines
// of machine text (a command or a traceback pasted without fences) stay in
// prose; the extractors recognise them there.
type document struct {
	title  string
	code   []string
	inline []string
	prose  []string
	scan   string // memoised scanText
	// src is the normalised body, used to order commands by position;
	// strippedSrc is it without formatting, made once when positionOf
	// first needs it, and strippedAt each of its bytes' offset in src.
	src         string
	strippedSrc string
	strippedAt  []int
	stripped    bool
	// titleSpans are the code spans of the topic title. A title's bare
	// words are not read as a command: "vllm serve hang at …" and "vllm
	// serve never starts serving" name the program without running it.
	titleSpans []string
	// links are the addresses of cooked HTML's links and oneboxes, which
	// its text leaves out (Markdown's stay in its prose lines).
	links []string
}

// scanLimit bounds the text searched by whole-text scanners (platform,
// GPUs, models): hardware and model names sit in the command, the prose
// and the environment dump, not in the middle of a long log.
const scanLimit = 64 << 10

// scanText returns the title and lines joined, cut to its first 48 KiB and
// last 16 KiB when longer than scanLimit.
func (d *document) scanText() string {
	if d.scan != "" {
		return d.scan
	}
	t := d.title + "\n" + strings.Join(d.lines(), "\n")
	if len(t) > scanLimit {
		t = t[:scanLimit*3/4] + "\n" + t[len(t)-scanLimit/4:]
	}
	d.scan = t
	return t
}

// lines returns every line of the document, code first then prose, for
// scanners that do not care where text came from.
func (d *document) lines() []string {
	var out []string
	for _, c := range d.code {
		out = append(out, strings.Split(c, "\n")...)
	}
	out = append(out, d.prose...)
	return out
}

var htmlStart = regexp.MustCompile(`(?i)^\s*<(p|div|pre|h[1-6]|ul|ol|blockquote|aside|table|br|code|span|img|a|details)[\s>/]`)

// markdownSignRE is a line only Markdown writes: a code fence. Cooked
// HTML has none (its code is <pre><code>), while a raw post may start
// with a tag: GitHub's fold for long output,
// "<details><summary>Log</summary>", then the fenced log. (A heading's
// "# " is no sign: a shell comment inside <pre> starts a line so too.)
var markdownSignRE = regexp.MustCompile("(?m)^ {0,3}(?:```|~~~)")

// readPost normalises a post into a document. It never fails; a body that is
// too long is cut to its head and tail and truncated is reported.
// Log viewers put their own prefix before each line of the log they
// show, and posters paste the log as the viewer printed it:
//   - Docker Compose, the service's name padded with spaces and a bar
//     ("vllm-1  | INFO …", vllm#20025; "vllm  | (APIServer pid=7)
//     Traceback …", #24297); the padding or the replica number ("-1")
//     tells it from a shell pipeline ("ls | grep x");
//   - journalctl, the time, host and unit ("Aug 19 18:34:30 vllm
//     vllm[8707]: (APIServer pid=8707) …", community-scripts/
//     ProxmoxVED#2047; "Jan 28 10:40:07 localhost bash[367371]:   File
//     …", vllm#12474);
//   - kubectl logs --timestamps and other collectors, an RFC 3339 time
//     ("2025-03-03T22:56:06.173456789Z INFO …", the vllm-dev post C1-010).
var viewerPrefixREs = []*regexp.Regexp{
	regexp.MustCompile(`^(?:([A-Za-z][\w.-]*-\d+)\s+|([A-Za-z][\w.-]*)\s{2,})\| ?`),
	regexp.MustCompile(`^[A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d:\d\d (\S+ [\w.@-]+)(?:\[\d+\])?: ?`),
	regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)() ?`),
}

// viewerPrefix returns the kind (an index into viewerPrefixREs) and
// source (a service, a host and unit) of a line's log-viewer prefix, and
// its length; kind is -1 for a line without one.
func viewerPrefix(l string) (kind int, source string, n int) {
	for k, re := range viewerPrefixREs {
		if m := re.FindStringSubmatchIndex(l); m != nil {
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] >= 0 {
					source += l[m[g]:m[g+1]]
				}
			}
			return k, source, m[1]
		}
	}
	return -1, "", 0
}

// minViewerLines is how many lines in a row must carry a viewer's prefix
// for it to be read as one: two for Compose's name and bar, which a lone
// line could have for another reason, one for a journal's or an RFC 3339
// time, which nothing else starts a line with.
func minViewerLines(kind int) int {
	if kind == 0 {
		return 2
	}
	return 1
}

// withoutViewerPrefix returns a code block without its log viewer's
// prefix when every non-blank line of it carries the prefix of one
// viewer and source (so a table or a shell pipeline keeps its bars): the
// log's lines are read as the log they are.
func withoutViewerPrefix(block string) string {
	lines := strings.Split(block, "\n")
	kind, source, n := -1, "", 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		k, src, _ := viewerPrefix(l)
		if k < 0 || n > 0 && (k != kind || src != source) {
			return block
		}
		kind, source = k, src
		n++
	}
	if n < minViewerLines(kind) {
		return block
	}
	for i, l := range lines {
		if _, _, cut := viewerPrefix(l); cut > 0 {
			lines[i] = l[cut:]
		}
	}
	return strings.Join(lines, "\n")
}

// withoutFrame returns a code block without the frame a terminal UI drew
// around it, when every non-blank line of it starts with the frame's bar:
// k9s's describe view ("│     Args:" then "│       --model", its lines
// padded to the right border; vllm-project/vllm#18163). A block only some
// of whose lines start with a bar (a table, rich's traceback box under its
// "╭─" top) keeps them. Prose is left alone: a rich traceback pasted
// outside a fence is read with its bars (errors.go).
func withoutFrame(block string) string {
	lines := strings.Split(block, "\n")
	n := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "│") {
			return block
		}
		n++
	}
	// One line is framed only by bars on both sides ("│ x │"), not by a
	// bar alone.
	if t := strings.TrimSpace(block); n == 0 || n == 1 && (t == "│" || !strings.HasSuffix(t, "│")) {
		return block
	}
	for i, l := range lines {
		_, rest, ok := strings.Cut(l, "│")
		if !ok {
			continue
		}
		if r := strings.TrimRight(rest, " \t"); strings.HasSuffix(r, "│") {
			rest = strings.TrimSuffix(r, "│")
		}
		// The space the frame pads its bar with is the frame's.
		lines[i] = strings.TrimRight(strings.TrimPrefix(rest, " "), " \t")
	}
	return strings.Join(lines, "\n")
}

// stripViewerRuns strips the log-viewer prefix from each run of two or
// more consecutive lines that carry one viewer's and source's prefix: a
// log pasted outside a fence, or inside raw HTML (<details>) that keeps
// its lines as prose.
func stripViewerRuns(lines []string) {
	for i := 0; i < len(lines); {
		kind, source, _ := viewerPrefix(lines[i])
		if kind < 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(lines) {
			if k, src, _ := viewerPrefix(lines[j]); k != kind || src != source {
				break
			}
			j++
		}
		if j-i >= minViewerLines(kind) {
			for k := i; k < j; k++ {
				_, _, cut := viewerPrefix(lines[k])
				lines[k] = lines[k][cut:]
			}
		}
		i = j
	}
}

// unescapeMarkdown returns a prose line with its Markdown backslash
// escapes ("gpu\_memory\_utilization", "vllm\[audio\]",
// "\"mrope_section\":\[24,20,20\]") read as a reader of the rendered post
// sees them: rich-text editors escape the punctuation Markdown could read
// as markup when they write Markdown (ProseMirror's serializer, which
// Discourse's rich editor is built on; tui.editor, gravity-ui's editor).
// Only what those editors escape inside a line is read away (ProseMirror:
// _ * ~ [ ]): a shell's escapes in a command typed as a sentence ("{\"top_k\":
// 5}", vllm#12409) are the command's, though CommonMark would render them
// away too. Code spans keep their backslashes.
func unescapeMarkdown(l string) string {
	if !strings.Contains(l, `\`) {
		return l
	}
	parts := strings.Split(l, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = markdownEscapeRE.ReplaceAllString(parts[i], "$1")
	}
	return strings.Join(parts, "`")
}

// unticked returns a prose line without the lone backtick that opens or
// closes a paste marked with single backticks instead of a fence: the
// line's only backtick, first or last on it. Posters paste a log or a
// command with one backtick before it, closed at its end or never
// ("`INFO 02-14 … vLLM API server version 0.6.3.post1", vllm#13258;
// "`KeyError: 'model.layers.13…'" and the log below it, #3849; "`(vllm2)
// user@host:~/vllm$ vllm serve …" and the server's log, vllm#23176; a
// quoted script, #8967). Markdown leaves the backtick in the text when
// nothing closes it and makes one code span of the lines when something
// does (readMarkdown reads those lines as prose); either way the lines
// say what they would say without it, and the backtick would hide a
// prompt or a log prefix that must start its line. The backtick may
// stand on a line of its own, as a fence's marks do (lm-evaluation-harness
// #2028's "`", a command continued with backslashes, "`"; vllm#17792
// closes its error so, vllm-dev C2-004); a shell would read it after a
// continued line as one more argument.
//
// A fence's marks read as text (a raw HTML block, "<summary>Log</summary>"
// right above the fence, takes the fence in as its own lines) with the
// block's first line glued to them (gluedCode) lose the marks too, so
// that "```INFO 04-21 … GPU KV cache usage: 0.0%" is the log line it was
// in the fence.
func unticked(l string) string {
	t := strings.TrimLeft(l, " \t")
	if rest := strings.TrimLeft(t, "`"); len(t)-len(rest) >= 3 && !strings.Contains(rest, "`") && gluedCode(rest) != "" {
		return l[:len(l)-len(t)] + rest
	}
	if strings.Count(l, "`") != 1 {
		return l
	}
	if t := strings.TrimSpace(l); t[0] == '`' || t[len(t)-1] == '`' {
		return strings.Replace(l, "`", "", 1)
	}
	return l
}

// markdownEscapeRE is an editor's backslash escape (unescapeMarkdown).
var markdownEscapeRE = regexp.MustCompile(`\\([_*~\[\]])`)

// postWords returns a post's body as the readers of its raw words (the
// ranking's, the settings a sentence names) read it: normalised, its
// [code] blocks fenced (discourseCode), without its logs' viewer
// prefixes, and with Markdown-escaped underscores (unescapeMarkdown)
// unescaped everywhere, since a literal "\_" in code is rarer than an
// editor's escape in prose; other escaped punctuation splits words as
// the punctuation does.
func postWords(body string) string {
	return strings.ReplaceAll(withoutViewerPrefixes(discourseCode(normalizeText(body))), `\_`, "_")
}

// withoutViewerPrefixes returns text without the log-viewer prefixes of
// its runs of log lines (stripViewerRuns), for readers of a post's raw
// words: a journal's host and unit are no words of the post's.
func withoutViewerPrefixes(text string) string {
	lines := strings.Split(text, "\n")
	stripViewerRuns(lines)
	return strings.Join(lines, "\n")
}

func readPost(p Post) (doc *document, truncated bool) {
	body := p.Body
	if len(body) > MaxPostBytes {
		head := body[:MaxPostBytes*3/4]
		tail := body[len(body)-MaxPostBytes/4:]
		body = head + "\n" + tail
		truncated = true
	}
	if !utf8.ValidString(body) {
		body = strings.ToValidUTF8(body, "\uFFFD")
	}
	body = strings.ReplaceAll(body, "\x00", "")
	body = normalizeText(body)
	if strings.Contains(body, "collect_env") {
		body = templateCommandRE.ReplaceAllString(body, "${1}collect_env${3}")
	}
	if p.Format != FormatHTML {
		body = discourseCode(body)
	}
	f := p.Format
	if f == FormatAuto {
		f = FormatMarkdown
		if htmlStart.MatchString(body) && !markdownSignRE.MatchString(body) {
			f = FormatHTML
		}
	}
	if f == FormatHTML {
		doc = readHTML(body)
	} else {
		doc = readMarkdownBounded(body)
	}
	for i, l := range doc.prose {
		l = unescapeMarkdown(unticked(l))
		if f != FormatHTML {
			// Markdown's bold, typed as such or escaped by a rich-text
			// editor that wrote what its writer typed for bold
			// ("\*\*Qwen3-8B\*\*"), reads as rendered bold does; cooked
			// HTML has none left.
			l = unstrong(l)
		}
		doc.prose[i] = dropPlaceholders(l)
	}
	for i, c := range doc.code {
		doc.code[i] = withoutViewerPrefix(withoutFrame(c))
	}
	stripViewerRuns(doc.prose)
	doc.title = titleText(p.Title)
	doc.src = body
	for _, m := range titleSpanRE.FindAllStringSubmatch(doc.title, 4) {
		doc.titleSpans = append(doc.titleSpans, m[1])
	}
	return doc, truncated
}

var markdown = goldmark.New()

var titleSpanRE = regexp.MustCompile("`([^`]+)`")

// readMarkdownBounded reads a Markdown body in pieces: CommonMark's
// inline and container rules cost time quadratic in the length of some
// hostile shapes (256 KiB of nested ">" took 22 s, of "*a_ " 21 s), so
// blockquote nesting is capped at maxQuoteDepth and the body is parsed
// in pieces of about mdPiece bytes cut at blank lines (or, in a long
// block, at a line), never inside a fenced code block. Each piece costs
// at most its length squared, so the whole is linear in the body.
func readMarkdownBounded(src string) *document {
	src = capQuoteDepth(src)
	doc := &document{}
	for _, piece := range markdownPieces(src) {
		d := readMarkdown(piece)
		doc.code = append(doc.code, d.code...)
		doc.inline = append(doc.inline, d.inline...)
		doc.prose = append(doc.prose, d.prose...)
	}
	return doc
}

const (
	// mdPiece is the size a piece aims at; mdPieceMax the size at which a
	// block without blank lines is cut at a line anyway. A prose line
	// longer than mdPieceMax is cut too; a fenced code block is kept
	// whole, since code costs linear time.
	mdPiece       = 2 << 10
	mdPieceMax    = 4 << 10
	maxQuoteDepth = 8
)

// capQuoteDepth removes blockquote markers past maxQuoteDepth at the start
// of each line; no post needs more to be read.
func capQuoteDepth(src string) string {
	if !strings.Contains(src, strings.Repeat(">", maxQuoteDepth)) && !strings.Contains(src, strings.Repeat("> ", maxQuoteDepth)) {
		return src
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		depth, i := 0, 0
		for i < len(line) && (line[i] == '>' || line[i] == ' ' || line[i] == '\t') {
			if line[i] == '>' {
				depth++
				if depth > maxQuoteDepth {
					break
				}
			}
			i++
		}
		if depth <= maxQuoteDepth {
			b.WriteString(line)
			continue
		}
		// Keep maxQuoteDepth markers, drop the rest of the run.
		b.WriteString(line[:i])
		j := i
		for j < len(line) && (line[j] == '>' || line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if j > i && (line[j-1] == ' ' || line[j-1] == '\t') {
			b.WriteByte(' ')
		}
		b.WriteString(line[j:])
	}
	return b.String()
}

// markdownPieces cuts src into pieces for readMarkdownBounded.
func markdownPieces(src string) []string {
	if len(src) <= mdPiece {
		return []string{src}
	}
	var pieces []string
	var cur strings.Builder
	fence := "" // the open fence's marker, "" outside code
	flush := func() {
		if cur.Len() > 0 {
			pieces = append(pieces, cur.String())
			cur.Reset()
		}
	}
	for _, line := range strings.SplitAfter(src, "\n") {
		t := strings.TrimSpace(line)
		if fence == "" {
			if m := fenceOpenRE.FindString(t); m != "" {
				fence = m
			}
		} else if strings.HasPrefix(t, fence[:1]) && strings.Trim(t, fence[:1]) == "" && len(t) >= len(fence) {
			fence = ""
			cur.WriteString(line)
			continue
		}
		if fence != "" {
			cur.WriteString(line)
			continue
		}
		blank := t == ""
		if blank && cur.Len() >= mdPiece || cur.Len() >= mdPieceMax {
			flush()
		}
		for len(line) > mdPieceMax {
			// A giant prose line: cut it where a space is, else anywhere.
			cut := strings.LastIndexByte(line[:mdPieceMax], ' ')
			if cut < mdPieceMax/2 {
				cut = mdPieceMax
			}
			cur.WriteString(line[:cut] + "\n")
			flush()
			line = line[cut:]
		}
		cur.WriteString(line)
	}
	flush()
	return pieces
}

var fenceOpenRE = regexp.MustCompile("^(?:```+|~~~+)")

// gluedCode returns the line of code a fence's info string holds when the
// poster typed the block's first line right after the fence marks, and ""
// when the info string is a language hint, with or without attributes
// ("python", "shell {linenos=true}", "text title=\"log\""). Markdown
// readers take the whole line for the hint and show none of it, but the
// raw post says it all: a command ("```vllm serve \"your model\"" in a
// project's README, an LMDeploy guide's "```docker run --runtime nvidia
// --gpus all \", a prompt and command in vllm-project/vllm#32600's
// "```(main) root@C.33754465:/$ vllm serve ./workspace --port 8000 …"),
// a log line, a traceback's head. A hint is one word of the characters
// language names use, then attributes only (lowercase key=value pairs,
// braces); a single word is read as a hint, as Markdown readers do.
func gluedCode(info string) string {
	fields := strings.Fields(info)
	if len(fields) == 0 {
		return ""
	}
	if !langHintRE.MatchString(fields[0]) {
		return strings.TrimSpace(info)
	}
	for _, f := range fields[1:] {
		if !hintAttrRE.MatchString(f) {
			return strings.TrimSpace(info)
		}
	}
	return ""
}

var (
	// langHintRE is a fence's language hint: "python", "c++", "shell-session", "{r}".
	langHintRE = regexp.MustCompile(`^\{?\.?[A-Za-z][\w+#.-]*\}?$`)
	// hintAttrRE is an attribute after it: `title="a.py"`, `{linenos=true}`, `{1,3-5}`, `.numberLines`.
	hintAttrRE = regexp.MustCompile(`^(?:[a-z][a-z0-9_-]*=.*|\{.*|.*\}|\.[a-z][\w-]*)$`)
)

func readMarkdown(src string) *document {
	doc := &document{}
	source := []byte(src)
	root := markdown.Parser().Parse(text.NewReader(source))
	var prose bytes.Buffer
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			var b strings.Builder
			if fc, ok := n.(*ast.FencedCodeBlock); ok && fc.Info != nil {
				if code := gluedCode(string(fc.Info.Segment.Value(source))); code != "" {
					b.WriteString(code)
					b.WriteByte('\n')
				}
			}
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
			doc.code = append(doc.code, strings.TrimRight(b.String(), "\n"))
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan:
			var b strings.Builder
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.Write(t.Segment.Value(source))
				}
			}
			// A span across lines is a paste marked with single
			// backticks (unticked): its lines are read as the
			// paragraph's prose lines, not glued into one inline
			// command ("vllm serve m INFO 08-19 …").
			if span := strings.TrimRight(b.String(), "\n"); !strings.Contains(span, "\n") {
				doc.inline = append(doc.inline, span)
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			// Raw HTML in Markdown (GitHub's "<summary>The output of
			// <code>vllm serve …</code></summary>", vllm#19077) is read
			// as the HTML it is: its text is prose, its <code> inline
			// code and its <pre> a code block, without the tags.
			var raw strings.Builder
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				raw.Write(seg.Value(source))
			}
			if n.HasClosure() {
				raw.Write(n.ClosureLine.Value(source))
			}
			html := raw.String()
			sub := readHTML(html)
			// A fold's opening tag stays a line of its own, as Discourse's
			// [details] does: a command ending in a backslash right above
			// "<details>" ends there (joinContinuations, blockMarkerRE)
			// rather than running on into "<summary>Log".
			if first, _, _ := strings.Cut(html, "\n"); blockMarkerRE.MatchString(first) {
				prose.WriteString(strings.TrimSpace(first))
				prose.WriteByte('\n')
			}
			for _, l := range sub.prose {
				prose.WriteString(l)
				prose.WriteByte('\n')
			}
			prose.WriteByte('\n')
			doc.inline = append(doc.inline, sub.inline...)
			doc.links = append(doc.links, sub.links...)
			doc.code = append(doc.code, sub.code...)
			return ast.WalkSkipChildren, nil
		}
		// Paragraphs, headings and list text: keep their source lines as
		// written, so bare commands and tracebacks survive intact, and
		// end each with a blank line, as the block ends there
		// (splitLines).
		if _, ok := n.(*ast.Paragraph); ok || isTextBlock(n) {
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				v := seg.Value(source)
				prose.Write(v)
				if len(v) == 0 || v[len(v)-1] != '\n' {
					prose.WriteByte('\n')
				}
			}
			prose.WriteByte('\n')
		}
		return ast.WalkContinue, nil
	})
	doc.prose = splitLines(prose.String())
	for i, l := range doc.prose {
		doc.prose[i] = unimage(l)
	}
	return doc
}

// templateCommandRE is an issue template naming the command whose
// output it asks for, as code: vLLM's and its plugins' bug templates
// ("<summary>The output of <code>python collect_env.py</code></summary>",
// "The output of `python collect_env.py`", and the placeholder "Your
// output of `python collect_env.py` here" in nearly every vLLM issue of
// the corpus and the dev posts). The command is the template's, not one
// the poster ran, so it is read as the report's name ("the output of
// collect_env"), which no reader takes for a command; a poster who ran it
// and pasted what it printed shows its output (or its traceback) all the
// same.
var templateCommandRE = regexp.MustCompile("(?im)((?:your|the) output of\\s*)(?:<code>|`)(python3? collect_env\\.py)(?:</code>|`)(\\s*(?:here|</summary>|$))")

// templateExampleRE is an issue template's example in square brackets:
// GitHub's default bug report asks for "OS: [e.g. iOS]" and "Version
// [e.g. 22]", and templates written after it ask for "ML framework
// version(s) [e.g. torch 2.3.1]" (vllm-project/llm-compressor#1550,
// whose answer, "2.4.0", follows the placeholder).
var templateExampleRE = regexp.MustCompile(`(?i)\[\s*(?:e\.\s?g\.?|eg\.|ex\.|for example)[,:]?\s[^\]\n]{0,200}\]`)

// dropPlaceholders removes a template's bracketed examples from a prose
// line: the example's versions and names are not the poster's.
func dropPlaceholders(l string) string {
	if !strings.Contains(l, "[") {
		return l
	}
	return templateExampleRE.ReplaceAllString(l, " ")
}

// imageRE is an image embedded in a prose line: Markdown's ![alt](url)
// (Discourse's uploads write ![image|690x388](upload://…), GitHub's
// attachments ![image](https://github.com/user-attachments/…)) and an
// HTML <img> tag.
var imageRE = regexp.MustCompile(`!\[[^\]\n]{0,200}\]\([^)\s]{0,500}(?:\s+"[^"\n]{0,200}")?\)|(?i)<img\b[^>\n]{0,1000}>`)

// unimage removes embedded images from a prose line, as rendering shows
// a picture in their place: a screenshot's default alt text ("image")
// is not the post saying "image", and the cooked post (readHTML) has no
// such words either.
func unimage(l string) string {
	if !strings.Contains(l, "![") && !strings.Contains(l, "<img") && !strings.Contains(l, "<IMG") {
		return l
	}
	return imageRE.ReplaceAllString(l, " ")
}

// strongRE is a word or run of words set in bold (**x**) or bold italic
// (***x***) in a prose line, between spaces, brackets or punctuation, or
// before the rest of a path ("--model ***/path/to***/Qwen3-8B" in a
// Chinese deployment guide; "vllm serve ***Qwen/Qwen3-4B-Instruct***" in
// a Thai lab sheet). The underscore form is left alone: "in __init__"
// ends many an unfenced traceback line.
var strongRE = regexp.MustCompile(`(^|[\s(\[])\*\*\*?([^\s*](?:[^*\n]*?[^\s*])?)\*\*\*?($|[\s)\].,:;!?/])`)

// italicOptionRE is an option, with or without its value, set in italics
// with underscores in a prose line: "**_--max-num-seqs 1_**" once the
// bold is gone (a reply in QwenLM/Qwen2.5-Omni#288 highlights the option
// it adds to a command so; guides name options as "**_--set_**",
// "**_--name sandbox.local_**"). Only an underscore before a dash opens
// it, so "__init__" and snake_case words are left as written.
var italicOptionRE = regexp.MustCompile(`(^|[\s(\[])_(-{1,2}[A-Za-z](?:[^\n]*?[^\s])?)_($|[\s)\].,:;!?])`)

// unstrong removes bold markers from a prose line, as rendering does:
// "vllm serve **Qwen/Qwen3-8B** --max-model-len 4096" states the same
// command with or without them; and the underscores of an option set in
// italics (italicOptionRE). The line is read as written otherwise
// (commands and tracebacks survive intact); a lone "**kwargs" is kept.
func unstrong(l string) string {
	if strings.Contains(l, "**") {
		// Each match consumes the boundary after it, which the next one
		// may need as its own: "**a** **b**".
		for range 4 {
			next := strongRE.ReplaceAllString(l, "$1$2$3")
			if next == l {
				break
			}
			l = next
		}
	}
	if strings.Contains(l, "_-") {
		l = italicOptionRE.ReplaceAllString(l, "$1$2$3")
	}
	return l
}

func isTextBlock(n ast.Node) bool {
	switch n.(type) {
	case *ast.Heading, *ast.TextBlock:
		return true
	}
	return false
}

// splitLines returns the lines of s that are not blank.
//
// A continuation mark before a blank line continues nothing: the shell
// joins the blank line, which ends the command, so the mark is dropped
// and the next paragraph is no part of the command
// (EleutherAI/lm-evaluation-harness#2431 closes a paste marked with
// single backticks with "--device cuda\`" and goes on with a sentence
// after a blank line).
func splitLines(s string) []string {
	var out []string
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if i+1 == len(lines) || strings.TrimSpace(lines[i+1]) == "" {
			l = endContinuation(l)
		}
		out = append(out, l)
	}
	return out
}

// endContinuation returns l without the continuation mark it ends with,
// if any (continued: a backslash, or PowerShell's backtick after a
// blank), keeping the lone backtick that may close the paste after a
// backslash (unticked): "--device cuda\`" is "--device cuda`".
func endContinuation(l string) string {
	t := strings.TrimRight(l, " \t")
	if body, ok := continued(t); ok {
		return strings.TrimRight(body, " \t")
	}
	if inner, ok := strings.CutSuffix(t, "`"); ok && !strings.HasSuffix(inner, "`") {
		if body, ok := continued(inner); ok {
			return strings.TrimRight(body, " \t") + "`"
		}
	}
	return l
}

// maxHTMLTokens bounds the work spent on one cooked body; the tokenizer is
// streaming, so nesting depth costs nothing.
const maxHTMLTokens = 200_000

func readHTML(src string) *document {
	r := &htmlReader{doc: &document{}}
	z := html.NewTokenizer(strings.NewReader(src))
	z.SetMaxBuf(MaxPostBytes * 2)
	for i := 0; i < maxHTMLTokens; i++ {
		tt := z.Next()
		if tt == html.ErrorToken {
			break // the end, or a token over the buffer limit
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			r.start(tok, tt == html.StartTagToken)
		case html.EndTagToken:
			r.end(tok)
		case html.TextToken:
			r.text(tok.Data)
		}
	}
	if r.code.Len() > 0 {
		r.doc.code = append(r.doc.code, strings.TrimRight(r.code.String(), "\n"))
	}
	r.flushInline()
	r.doc.prose = splitLines(r.prose.String())
	return r.doc
}

// htmlReader sorts cooked HTML's text into prose, code blocks (<pre>)
// and inline code, skipping scripts, styles and images.
type htmlReader struct {
	doc                            *document
	prose, code, inline            strings.Builder
	preDepth, codeDepth, skipDepth int
}

func (r *htmlReader) flushInline() {
	if r.inline.Len() > 0 {
		r.doc.inline = append(r.doc.inline, r.inline.String())
		r.inline.Reset()
	}
}

// start reads a start or self-closing tag; opens says it is a start tag.
func (r *htmlReader) start(tok html.Token, opens bool) {
	switch tok.DataAtom {
	case atom.Script, atom.Style, atom.Svg:
		if opens {
			r.skipDepth++
		}
	case atom.Pre:
		r.preDepth++
	case atom.Code:
		if opens {
			r.codeDepth++
		}
	case atom.Br:
		if r.preDepth > 0 {
			r.code.WriteByte('\n')
		} else {
			r.prose.WriteByte('\n')
		}
	case atom.Img:
		// An emoji or image: its alt text is noise for extraction.
	case atom.A:
		for _, a := range tok.Attr {
			if a.Key == "href" && len(r.doc.links) < maxRefs {
				r.doc.links = append(r.doc.links, a.Val)
			}
		}
	default:
		for _, a := range tok.Attr {
			// Discourse's onebox of a linked issue or topic.
			if a.Key == "data-onebox-src" && len(r.doc.links) < maxRefs {
				r.doc.links = append(r.doc.links, a.Val)
			}
		}
		if isBlockAtom(tok.DataAtom) && r.preDepth == 0 {
			r.prose.WriteByte('\n')
		}
	}
}

func (r *htmlReader) end(tok html.Token) {
	switch tok.DataAtom {
	case atom.Script, atom.Style, atom.Svg:
		if r.skipDepth > 0 {
			r.skipDepth--
		}
	case atom.Pre:
		if r.preDepth > 0 {
			r.preDepth--
			if r.preDepth == 0 {
				r.doc.code = append(r.doc.code, strings.TrimRight(r.code.String(), "\n"))
				r.code.Reset()
			}
		}
	case atom.Code:
		if r.codeDepth > 0 {
			r.codeDepth--
		}
		if r.preDepth == 0 {
			r.flushInline()
		}
	default:
		if isBlockAtom(tok.DataAtom) && r.preDepth == 0 {
			r.prose.WriteByte('\n')
		}
	}
}

func (r *htmlReader) text(data string) {
	switch {
	case r.skipDepth > 0:
	case r.preDepth > 0:
		r.code.WriteString(data)
	case r.codeDepth > 0:
		r.inline.WriteString(data)
		r.prose.WriteString(data)
	default:
		r.prose.WriteString(data)
	}
}

func isBlockAtom(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Blockquote, atom.Aside,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Tr, atom.Table,
		atom.Details, atom.Summary, atom.Hr, atom.Section, atom.Article, atom.Header, atom.Footer:
		return true
	}
	return false
}
