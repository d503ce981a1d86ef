package bot

import (
	"strings"
	"testing"

	"github.com/heraldbot/herald/discourse"
)

func TestWithoutQuotesOf(t *testing.T) {
	t.Parallel()
	isBot := func(u string) bool { return strings.EqualFold(u, "herald") || strings.EqualFold(u, "ci-bot") }
	for _, c := range []struct{ name, in, want string }{
		{"no quote", "vllm serve m --port 1", "vllm serve m --port 1"},
		{"our reply quoted", "[quote=\"herald, post:2, topic:55\"]\nTry `--enforce-eager`.\n[/quote]\n\nI did, same error.", "\n\nI did, same error."},
		{"a person quoted stays", "[quote=\"alice, post:1, topic:55\"]\nvllm serve m\n[/quote]\nsame here", "[quote=\"alice, post:1, topic:55\"]\nvllm serve m\n[/quote]\nsame here"},
		{"another bot, any case", "a [QUOTE=\"CI-BOT, post:3, topic:9\"]x[/QUOTE] b", "a  b"},
		{"our name in capitals", "[quote=\"Herald, post:2, topic:5\"]x[/quote]y", "y"},
		{"full names shown", "[quote=\"Herald Bot, post:2, topic:5, username:herald\"]x[/quote]y", "y"},
		{"ours inside a person's", "[quote=\"alice, post:1, topic:5\"]a [quote=\"herald, post:2, topic:5\"]x[/quote] b[/quote] c", "[quote=\"alice, post:1, topic:5\"]a  b[/quote] c"},
		{"a person's inside ours", "[quote=\"herald, post:2, topic:5\"]x [quote=\"alice, post:1, topic:5\"]a[/quote] y[/quote] c", " c"},
		{"ours left open", "mine [quote=\"herald, post:2, topic:5\"]x\ny", "mine "},
		{"a stray close", "a [/quote] b [quote=herald]x[/quote]", "a [/quote] b "},
		{"bare quote", "[quote]x[/quote] y", "[quote]x[/quote] y"},
	} {
		if got := withoutQuotesOf(c.in, isBot); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestThreadContextLeavesOutQuotesOfOurReplies: the asker who quotes
// Herald's advice to say it did not help has not run the command Herald
// suggested; the thread Herald reads again is the asker's words only.
func TestThreadContextLeavesOutQuotesOfOurReplies(t *testing.T) {
	t.Parallel()
	b := &Bot{opts: Options{Username: "herald"}}
	posts := []discourse.Post{
		{ID: 1, PostNumber: 1, Username: "alice", Raw: "```\nvllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.95\n```\nCUDA error: an illegal memory access was encountered", PostType: discourse.PostTypeRegular},
		{ID: 2, PostNumber: 2, Username: "herald", Raw: "Try `vllm serve Qwen/Qwen3-8B --enforce-eager` ([#1](https://github.com/o/r/issues/1)).", PostType: discourse.PostTypeRegular},
		{ID: 3, PostNumber: 3, Username: "alice", Raw: "[quote=\"herald, post:2, topic:7\"]\nTry `vllm serve Qwen/Qwen3-8B --enforce-eager`\n[/quote]\n@herald did that, same crash", PostType: discourse.PostTypeRegular},
	}
	body, cited := b.threadContext(posts, &posts[2])
	if strings.Contains(body, "--enforce-eager") {
		t.Errorf("the thread read again holds Herald's quoted advice:\n%s", body)
	}
	if !strings.Contains(body, "--gpu-memory-utilization 0.95") || !strings.Contains(body, "did that, same crash") {
		t.Errorf("the asker's words are missing:\n%s", body)
	}
	if !cited["https://github.com/o/r/issues/1"] {
		t.Errorf("cited = %v, want the first reply's source", cited)
	}
}

// FuzzWithoutQuotesOf: leaving nobody's quotes out changes nothing,
// leaving everyone's out leaves no open quote tag behind, and the result
// is never longer than the post.
func FuzzWithoutQuotesOf(f *testing.F) {
	for _, s := range []string{"[quote=\"herald, post:1, topic:2\"]x[/quote]", "[quote][quote=a]b[/quote]", "[/quote][quote=\",,\"]", "[quote=\"a, username:\"]x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := withoutQuotesOf(s, func(string) bool { return false }); got != s {
			t.Fatalf("nobody skipped: %q became %q", s, got)
		}
		all := withoutQuotesOf(s, func(string) bool { return true })
		if len(all) > len(s) {
			t.Fatalf("%q grew to %q", s, all)
		}
		for _, m := range quoteTagRE.FindAllStringSubmatch(all, -1) {
			if m[1] == "" {
				t.Fatalf("everyone skipped: %q kept an opening tag in %q", s, all)
			}
		}
	})
}
