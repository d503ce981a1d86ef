package bot

import (
	"regexp"
	"strings"
)

// quoteTagRE is a Discourse quote's opening or closing tag in a post's
// raw text, as the composer's quote button writes it:
// [quote="alice, post:2, topic:1234"] … [/quote], with later fields such
// as full:true or username:alice, or a bare [quote] / [quote=alice].
var quoteTagRE = regexp.MustCompile(`(?i)\[(/?)quote(?:=([^\]\n]{0,200}))?\]`)

// posterText is what a post's author wrote: its raw text without the
// quotes of our own and other bots' posts. A user who quotes Herald's
// reply to answer it ("[quote="herald, post:2, topic:55"] Try
// `--enforce-eager` [/quote] I did, same error") has not run the command
// Herald suggested; read as theirs, the quoted advice would become their
// command and Herald would be answering itself, as the thread reader
// (threadContext), which leaves our own posts out, means it not to.
func (b *Bot) posterText(raw string) string {
	return withoutQuotesOf(raw, b.isBot)
}

// withoutQuotesOf returns raw without the quotes whose author skip
// reports true, and the quotes nested in them. A quote left open runs to
// the end of the post: the rest is the quoted author's words. The work
// is linear in the length of raw.
func withoutQuotesOf(raw string, skip func(username string) bool) string {
	if !strings.Contains(strings.ToLower(raw), "[quote") {
		return raw
	}
	var b strings.Builder
	var stack []bool // for each open quote, whether it is left out
	last := 0        // where the text not yet written starts
	for _, m := range quoteTagRE.FindAllStringSubmatchIndex(raw, -1) {
		inDrop := len(stack) > 0 && stack[len(stack)-1]
		if m[3] > m[2] { // [/quote]
			if len(stack) == 0 {
				continue
			}
			stack = stack[:len(stack)-1]
			if inDrop && (len(stack) == 0 || !stack[len(stack)-1]) {
				last = m[1] // the outermost quote left out ends here
			}
			continue
		}
		attr := ""
		if m[4] >= 0 {
			attr = raw[m[4]:m[5]]
		}
		drop := inDrop || skip(quoteAuthor(attr))
		if drop && !inDrop {
			b.WriteString(raw[last:m[0]])
		}
		stack = append(stack, drop)
	}
	// Quotes left out make every quote inside them left out too, so the
	// innermost open quote says whether the rest is.
	if len(stack) == 0 || !stack[len(stack)-1] {
		b.WriteString(raw[last:])
	}
	return b.String()
}

// quoteAuthor is the username a quote's attribution names: its first
// field ("alice, post:2, topic:1234"), or its username: field where the
// forum shows full names first ("Alice Smith, post:2, topic:3,
// username:alice").
func quoteAuthor(attr string) string {
	fields := strings.Split(strings.Trim(attr, "\" \t"), ",")
	for _, f := range fields[1:] {
		if name, ok := strings.CutPrefix(strings.TrimSpace(f), "username:"); ok {
			return strings.TrimSpace(name)
		}
	}
	return strings.TrimSpace(fields[0])
}
