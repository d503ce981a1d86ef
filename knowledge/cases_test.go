package knowledge

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// testPost is the post of one test case. Each case is one txtar file in
// testdata/cases: its title, what Herald's answer must hold (read by the
// bot's golden test), the post itself under its file name (NAME.md, or
// NAME.html for Discourse-cooked posts) and the golden reply.
type testPost struct {
	name, title, body string
}

// testPosts reads the posts of every test case.
func testPosts(t testing.TB) []testPost {
	t.Helper()
	files, err := filepath.Glob("testdata/cases/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test cases in testdata/cases: %v", err)
	}
	var out []testPost
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p := testPost{}
		for _, f := range ar.Files {
			switch ext := filepath.Ext(f.Name); {
			case f.Name == "title":
				p.title = strings.TrimSpace(string(f.Data))
			case ext == ".md" || ext == ".html":
				p.name, p.body = f.Name, string(f.Data)
			}
		}
		if p.name == "" {
			t.Fatalf("%s has no post (a section named NAME.md or NAME.html)", file)
		}
		out = append(out, p)
	}
	return out
}
