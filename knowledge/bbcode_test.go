package knowledge

import (
	"strings"
	"testing"
)

// TestDiscourseCode holds discourseCode to what Discourse renders as a
// code block (bbcode-block.js) and what it leaves as text.
func TestDiscourseCode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in, want string
	}{
		{"block", "my log:\n[code]\nvllm serve m --tp 2\nValueError: x\n[/code]\nthanks",
			"my log:\n```\nvllm serve m --tp 2\nValueError: x\n```\nthanks"},
		{"attributes and case", "[CODE=sh]\nvllm serve m\n[/Code]", "```\nvllm serve m\n```"},
		{"attributes after a space", "  [code lang=python]\nLLM(model=m)\n  [/code]  ", "```\nLLM(model=m)\n```"},
		{"one line", "[code]vllm serve m --tp 2[/code]", "```\nvllm serve m --tp 2\n```"},
		{"one line, last closing tag", "[code]a [/code] b[/code]", "```\na [/code] b\n```"},
		{"nested blocks pair as brackets", "[code]\n[code]\nx\n[/code]\ny\n[/code]", "```\n[code]\nx\n[/code]\ny\n```"},
		{"backticks in the code", "[code]\n```\nx\n```\n[/code]", "````\n```\nx\n```\n````"},
		{"crlf", "[code]\r\nvllm serve m\r\n[/code]\r\n", "```\nvllm serve m\r\n```\n"},
		// Text, as Discourse leaves it.
		{"unclosed", "[code]\nvllm serve m", "[code]\nvllm serve m"},
		{"empty one line", "[code][/code]", "[code][/code]"},
		{"text after the tag", "[code] vllm serve m\nx\n[/code]", "[code] vllm serve m\nx\n[/code]"},
		{"another tag", "[codes]\nx\n[/codes]", "[codes]\nx\n[/codes]"},
		{"indented four", "    [code]\n    x\n    [/code]", "    [code]\n    x\n    [/code]"},
		{"inside a fence", "```\n[code]\nx\n[/code]\n```", "```\n[code]\nx\n[/code]\n```"},
		{"inside a tilde fence", "~~~~\n[code]x[/code]\n~~~\n[/code]\n~~~~", "~~~~\n[code]x[/code]\n~~~\n[/code]\n~~~~"},
		{"in a sentence", "wrap it in [code]…[/code] please", "wrap it in [code]…[/code] please"},
	} {
		if got := discourseCode(tt.in); got != tt.want {
			t.Errorf("%s: discourseCode(%q)\n got %q\nwant %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestDiscourseCodeReadsAsFenced: a post whose log and command are in
// [code] blocks has the facts of the same post fenced.
func TestDiscourseCodeReadsAsFenced(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	fenced := "Serving fails:\n```\nvllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 32768\n```\nThe log:\n```\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n```\n"
	bbcode := strings.NewReplacer("```\nvllm", "[code]\nvllm", "32768\n```", "32768\n[/code]", "```\nTraceback", "[CODE=text]\nTraceback", "GiB\n```", "GiB\n[/code]").Replace(fenced)
	if bbcode == fenced || strings.Contains(bbcode, "```") {
		t.Fatalf("the rewrite left fences: %q", bbcode)
	}
	f0, _ := Extract(Post{Title: "OOM", Body: fenced}, s)
	f1, _ := Extract(Post{Title: "OOM", Body: bbcode}, s)
	if a, b := factPrint(f0, s), factPrint(f1, s); a != b {
		t.Errorf("facts differ\n--- fenced\n%s--- [code]\n%s", a, b)
	}
	if len(f1.Commands) == 0 || len(f1.Errors) == 0 {
		t.Errorf("[code] post read no command or no error: %+v", f1)
	}
}
