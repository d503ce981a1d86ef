package knowledge

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// hostile are values a poster or an imported issue might write to make a
// moderator account post something live.
var hostile = []string{
	"![](https://tracker.example/p.gif)",
	"[click](https://evil-host.example/x)",
	"<https://evil-host.example/>",
	"https://evil-host.example/a",
	"www.evil-host.example",
	"evil-host.example",
	"[img]https://evil-host.example/i.png[/img]",
	"[url=https://evil-host.example]x[/url]",
	"[quote=admin]I approve[/quote]",
	"&#64;admin",
	"@admin @Ærin @管理员",
	"＠admin",
	"#staff-only",
	":wave: :+1:",
	"a\u202eevil",
	"zero\u200bwidth\u200dhere",
	"<script>alert(1)</script>",
	"<img src=x onerror=alert(1)>",
	"`` ` `` code ``` fence",
	"**bold** _it_ ~~strike~~",
	"line1\n# heading\n> quote\n- item",
	"| a | b |\n|---|---|",
	"x\\\\[y](z)",
	"javascript:alert(1)",
	"\u0000\u0007control",
}

func hostileFacts(v string) Facts {
	return Facts{
		Commands: []Command{{Program: "vllm", Subcommand: "serve", Flags: map[string]string{"--cpu-offload-gb": v, "--gpu-memory-utilization": v}}},
		Errors:   []ErrorInfo{{Type: v, Message: v, Numbers: map[string]float64{"oom_total_gib": 16, "oom_allocated_gib": 15, "oom_tried_gib": 1}}},
		Models:   []string{v},
		Versions: map[string]string{"vllm": v},
		Platform: "cuda",
	}
}

// hostileServerFacts are facts of a post whose server setting and
// request carry the value, for the lines a reply works out of them (the
// weights a model's name implies, the name a 404 asked for).
func hostileServerFacts(v string) Facts {
	return Facts{
		Commands: []Command{{Program: "vllm", Subcommand: "serve", Flags: map[string]string{"--served-model-name": v, "--dtype": "float16", "--tensor-parallel-size": "2", "--gpu-memory-utilization": "0.9"}}},
		Errors:   []ErrorInfo{{Type: "torch.OutOfMemoryError", Message: v, Kind: "oom", Numbers: map[string]float64{"oom_total_gib": 16, "oom_tried_gib": 1}}},
		Models:   []string{"m/" + v + "-7B"},
		Platform: "cuda",
		Package: MainPackage{Name: "vllm", ServedNames: []string{"--served-model-name"},
			Memory: MemoryFlags{Utilization: "--gpu-memory-utilization", DType: "--dtype", Split: []string{"--tensor-parallel-size"}}},
		RequestedModel: "x" + v,
	}
}

func hostileEntries(v string) []Match {
	imported := Entry{ID: "o/r#1", Kind: KindIssue, Source: "github", URL: "https://github.com/o/r/issues/1",
		Title: v, Summary: v + ". " + v, Advice: []string{v, "Upgrade to " + v}, Symptoms: []string{v}}
	learned := Entry{ID: "topic:f:2", Kind: KindTopic, Source: "learned", URL: "https://forum.example/t/2",
		Title: "Solved: " + v, Summary: v, Advice: []string{"Try " + v}}
	docs := Entry{ID: "https://docs.example/p", Kind: KindDocs, Source: "docs", URL: "https://docs.example/p",
		Title: v, Summary: v}
	badURL := Entry{ID: "o/r#3", Kind: KindIssue, Source: "github", URL: "javascript:alert(1)", Title: v}
	var out []Match
	for _, e := range []Entry{imported, learned, docs, badURL} {
		out = append(out, Match{Entry: e, ID: e.ID, Reasons: []string{"the command sets " + v}, Structured: true})
	}
	return out
}

// checkInert fails on a reply that could act on the forum, and on any
// marker of the hostile value surviving outside code.
func checkInert(t *testing.T, reply string, cited []Match) {
	t.Helper()
	checkReplySafe(t, reply, cited...)
	if prose := textOutsideCode(reply); strings.Contains(prose, "evil-host.example") || strings.Contains(prose, "tracker.example") {
		t.Errorf("a hostile host survives intact outside code:\n%s", reply)
	}
}

// textOutsideCode returns the text of a reply as a reader sees it, code
// spans and blocks left out.
func textOutsideCode(reply string) string {
	src := []byte(reply)
	var b strings.Builder
	_ = ast.Walk(replyParser.Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if entering {
				b.Write(util.UnescapePunctuations(n.Segment.Value(src)))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func TestComposeMakesHostileTextInert(t *testing.T) {
	t.Parallel()
	for _, v := range hostile {
		f := hostileFacts(v)
		cited := hostileEntries(v)
		checkInert(t, Compose(&f, cited, ComposeOptions{BotName: "herald"}), cited)
	}
}

func TestInertKeepsWords(t *testing.T) {
	t.Parallel()
	if got := inert("CUDA out of memory"); got != "CUDA out of memory" {
		t.Errorf("inert changed plain words: %q", got)
	}
	if got := inert("a\u202eb\u200bc"); strings.ContainsAny(got, "\u202e") || !strings.Contains(got, "a") {
		t.Errorf("inert(%q) = %q", "a\u202eb\u200bc", got)
	}
}

func TestReplyProblemsFindsLiveMarkdown(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"![x](https://a.example/p.gif)", "see https://a.example/", "hi @admin", "[img]x[/img]", "&#64;admin",
		"#staff", ":wave:", "<b>x</b>", "[x](https://not-cited.example/)", "a\u202eb",
	} {
		if len(ReplyProblems(bad, []string{"https://cited.example/"})) == 0 {
			t.Errorf("ReplyProblems(%q) found nothing", bad)
		}
	}
	for _, ok := range []string{"`@admin`", "[x](https://cited.example/)", "<sub>by Herald</sub>", "plain words."} {
		if p := ReplyProblems(ok, []string{"https://cited.example/"}); len(p) != 0 {
			t.Errorf("ReplyProblems(%q) = %v", ok, p)
		}
	}
}

// FuzzReplyInert feeds one hostile value into every field that reaches a
// reply: the post (through extraction), the title, flag values, the
// model, the version, an imported issue, a docs page and a learned topic.
func FuzzReplyInert(f *testing.F) {
	for _, v := range hostile {
		f.Add(v)
	}
	s := vllmSchema(f)
	f.Fuzz(func(t *testing.T, v string) {
		if len(v) > 4096 {
			v = v[:4096]
		}
		cited := hostileEntries(v)
		facts := hostileFacts(v)
		checkInert(t, Compose(&facts, cited, ComposeOptions{BotName: "herald"}), cited)
		server := hostileServerFacts(v)
		if servedNameCheck(&server) == "" {
			t.Fatal("the served-name line is missing, so the value never reached it")
		}
		checkInert(t, Compose(&server, cited, ComposeOptions{BotName: "herald"}), cited)
		post := "vllm serve " + v + " --cpu-offload-gb " + v + "\n\n" + v + "\n\nRuntimeError: " + v + "\nvllm " + v +
			"\n\n`vllm serve m/" + v + "-7B --served-model-name " + v + "`\n\nopenai.NotFoundError: Error code: 404 - {'message': 'The model `" + v + "` does not exist.'}"
		extracted, _ := Extract(Post{Title: v, Body: post}, s)
		checkInert(t, Compose(&extracted, cited, ComposeOptions{BotName: "herald"}), cited)
	})
}

// TestPackTextIsInert composes a reply citing each entry of every
// embedded pack, first as the likely cause and then beside another, and
// checks that the pack's own words (summaries, advice) become no live
// Markdown either: a pack author's "as #16901" names an issue, and must
// not be posted as a hashtag.
func TestPackTextIsInert(t *testing.T) {
	t.Parallel()
	for _, name := range BuiltinPacks() {
		p, err := BuiltinPack(name)
		if err != nil {
			t.Fatal(err)
		}
		f := Facts{Platform: "cuda"}
		for i, e := range p.Entries {
			other := p.Entries[(i+1)%len(p.Entries)]
			for _, cited := range [][]Match{
				{{Entry: e, ID: e.ID, URL: e.URL, Title: e.Title}},
				{{Entry: other, ID: other.ID, URL: other.URL, Title: other.Title}, {Entry: e, ID: e.ID, URL: e.URL, Title: e.Title}},
			} {
				reply := Compose(&f, cited, ComposeOptions{BotName: "herald"})
				if probs := ReplyProblems(reply, CitedURLs(cited)); len(probs) > 0 {
					t.Errorf("%s %s: reply is not inert: %v", name, e.ID, probs)
				}
			}
		}
	}
}
