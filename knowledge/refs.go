package knowledge

import (
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A post that names an issue, a pull request, a forum topic or a docs page
// ("I have already gone through #10395 #10398", vllm#10589; "you can check
// this issue: https://github.com/vllm-project/vllm/issues/14404",
// hkust-nlp/simpleRL-reason#73; "I have recorded my issue in #13815",
// vllm#12378) says in the poster's own words which known problem it is
// about. Such a reference is read from the title, the sentences and the
// links of a post, never from its code blocks or from machine text pasted
// without fences (logs, git logs, code, command lines), whose numbers and
// addresses are the program's, not pointers of the poster's.

// maxRefs bounds the references read from one post.
const maxRefs = 20

// minBareRef is the smallest issue number read as "#N" without a
// repository: below it, "#N" in a sentence counts things ("GPU #1",
// "attempt #3"), and every project past its first weeks has issue numbers
// above it.
const minBareRef = 100

var (
	// A link ends where the sentence's CJK text begins: Chinese and
	// Japanese posts glue it to the next word ("…/debugging.html，尤其是…",
	// vllm#5779; "…/qwen2_tool_calling.html里面的教程", QwenLM/Qwen-Agent#344).
	refURLRE   = regexp.MustCompile(`https?://[^\s<>()\[\]"'` + "`" + cjkRunes + `]+`)
	refShortRE = regexp.MustCompile(`(?:^|[^\w/.-])([A-Za-z0-9][\w.-]{0,38}/[\w.-]{1,100})#(\d{1,7})\b`)
	refBareRE  = regexp.MustCompile(`#(\d{3,7})`)
	// refSkipRE are prose lines whose "#N" numbers nothing the poster
	// pointed to: a git log line (a commit hash, then its title ending in
	// its pull request) and a C++ stack frame ("frame #12: …"); and
	// machine text pasted without fences, whose addresses are the
	// program's, not the poster's pointers: a code assignment (`API_URL =
	// "https://…"`), a curl or other command line, a prompt.
	refSkipRE = regexp.MustCompile(`^\s*(?:[0-9a-f]{7,40}\s|frame\s+#|[A-Za-z_][\w.]*\s*=\s*\S|(?:curl|wget|http|\$|>)\s)`)
)

// extractRefs returns the entries a post names, as canonical references
// (see canonicalRef): "owner/repo#N" for a GitHub issue or pull request
// named with its repository, "#N" for one named by number alone, and a
// host and path for any other link.
func extractRefs(doc *document) []string {
	var out []string
	seen := map[string]bool{}
	add := func(r string) {
		if r != "" && !seen[r] && len(out) < maxRefs {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, l := range doc.links {
		add(canonicalRef(l))
	}
	lines := append([]string{doc.title}, doc.prose...)
	for _, l := range lines {
		if len(out) >= maxRefs {
			break
		}
		if !strings.Contains(l, "#") && !strings.Contains(l, "://") || refSkipRE.MatchString(l) || logPrefixRE.FindString(l) != "" || isErrorLine(l) {
			continue // a log line's address is the program's (see refSkipRE)
		}
		for _, u := range refURLRE.FindAllString(l, maxRefs) {
			add(canonicalRef(u))
		}
		// What is left once the links are gone: short and bare numbers.
		rest := refURLRE.ReplaceAllString(l, " ")
		for _, m := range refShortRE.FindAllStringSubmatch(rest, maxRefs) {
			if n, err := strconv.Atoi(m[2]); err == nil && n > 0 {
				add(strings.ToLower(m[1]) + "#" + strconv.Itoa(n))
			}
		}
		for _, n := range bareRefs(refShortRE.ReplaceAllString(rest, " ")) {
			add("#" + strconv.Itoa(n))
		}
	}
	return out
}

// bareRefs returns the numbers of at least minBareRef written "#N" as a
// word of a sentence: after a space, a bracket or punctuation, and ending
// where a word would, so that "#4096*2" (a Python comment's arithmetic,
// vllm-dev C1-028), "&#1234;" and "page#123" name nothing.
func bareRefs(l string) []int {
	var out []int
	for _, m := range refBareRE.FindAllStringSubmatchIndex(l, maxRefs) {
		if m[0] > 0 && !strings.ContainsRune(" \t([,;:", rune(l[m[0]-1])) {
			continue
		}
		if m[1] < len(l) && !strings.ContainsRune(" \t.,;:!?)]", rune(l[m[1]])) {
			continue
		}
		if n, err := strconv.Atoi(l[m[2]:m[3]]); err == nil && n >= minBareRef {
			out = append(out, n)
		}
	}
	return out
}

// canonicalRef returns the one spelling of a link that entries and posts
// compare by: "owner/repo#N" for a GitHub issue, pull request or
// discussion (they share one sequence of numbers, and GitHub redirects
// between them), "host/t/N" for a Discourse topic (its slug changes with
// its title), else the lower-cased host and path without a trailing slash.
// It returns "" for what is not a web address, and for an address on the
// poster's own machine or network (localhost, an IP address, a host
// without a domain), where no entry of a knowledge base is published.
func canonicalRef(raw string) string {
	if !utf8.ValidString(raw) || strings.ContainsFunc(raw, unicode.IsSpace) {
		return "" // an address has none; a link's text would
	}
	u, err := url.Parse(strings.TrimRight(raw, ".,;:!?"))
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	if _, err := netip.ParseAddr(u.Hostname()); err == nil || !strings.Contains(u.Hostname(), ".") {
		return ""
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if host == "github.com" && len(parts) >= 4 {
		switch parts[2] {
		case "issues", "pull", "pulls", "discussions":
			if n, err := strconv.Atoi(parts[3]); err == nil && n > 0 {
				return strings.ToLower(parts[0]+"/"+parts[1]) + "#" + strconv.Itoa(n)
			}
		}
	}
	for i := 0; i+1 < len(parts); i++ {
		// /t/slug/123, /t/123 and /t/slug/123/4 are one Discourse topic.
		if parts[i] != "t" {
			continue
		}
		for _, p := range parts[i+1 : min(i+3, len(parts))] {
			if n, err := strconv.Atoi(p); err == nil && n > 0 {
				return host + "/t/" + strconv.Itoa(n)
			}
		}
	}
	path := strings.ToLower(strings.Trim(u.Path, "/"))
	if path == "" {
		return "" // a site, not a page
	}
	return host + "/" + path
}

// entryRefs returns the canonical references an entry is known by: its
// address and aliases, and for a GitHub issue also its number alone, which
// a post names it by ("#10395").
func entryRefs(e *Entry) []string {
	var out []string
	seen := map[string]bool{}
	add := func(r string) {
		if r != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, u := range append([]string{e.URL}, e.Aliases...) {
		r := canonicalRef(u)
		add(r)
		if _, n, ok := strings.Cut(r, "#"); ok && !strings.Contains(r, "://") {
			add("#" + n)
		}
	}
	return out
}
