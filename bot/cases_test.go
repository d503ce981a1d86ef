package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/heraldbot/herald/knowledge"
)

// casesDir holds one txtar file per test post: a comment saying why the
// case expects what it does, then the sections
//
//	title          the topic title the post was written under
//	expect         decision: reply|abstain|ignore, cites: IDS, ranked: ID
//	NAME.md|.html  the post (the knowledge package's tests read it too)
//	reply.golden   the decision, confidence, citations and the text staff see
const casesDir = "../knowledge/testdata/cases"

// testCase is one test post and what Herald's answer must hold.
type testCase struct {
	file     string // the txtar file
	name     string // the post's file name, such as oom-rocm-offload.md
	title    string
	body     string
	decision knowledge.Decision
	cites    []string // entries that must be cited or among the top three
	ranked   string   // an entry that must be among the top three
	golden   string
}

// testCases reads every test case.
func testCases(t testing.TB) []testCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(casesDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test cases in %s: %v", casesDir, err)
	}
	var out []testCase
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		c := testCase{file: file}
		for _, f := range ar.Files {
			switch data := string(f.Data); {
			case f.Name == "title":
				c.title = strings.TrimSpace(data)
			case f.Name == "expect":
				for _, line := range strings.Split(data, "\n") {
					k, v, _ := strings.Cut(line, ":")
					switch v = strings.TrimSpace(v); k {
					case "decision":
						c.decision = knowledge.Decision(v)
					case "cites":
						c.cites = strings.Fields(v)
					case "ranked":
						c.ranked = v
					}
				}
			case f.Name == "reply.golden":
				c.golden = data
			case filepath.Ext(f.Name) == ".md" || filepath.Ext(f.Name) == ".html":
				c.name, c.body = f.Name, data
			}
		}
		if c.name == "" || c.title == "" || c.decision == "" {
			t.Fatalf("%s: a case needs a title, an expect section with a decision, and a post", file)
		}
		out = append(out, c)
	}
	return out
}

// testCaseNamed returns the case whose post is name.
func testCaseNamed(t testing.TB, name string) testCase {
	t.Helper()
	for _, c := range testCases(t) {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no test case with the post %s", name)
	return testCase{}
}

// writeGolden replaces the case's golden reply (go test -update).
func writeGolden(t testing.TB, c testCase, reply string) {
	t.Helper()
	ar, err := txtar.ParseFile(c.file)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == "reply.golden" {
			ar.Files[i].Data, found = []byte(reply), true
		}
	}
	if !found {
		ar.Files = append(ar.Files, txtar.File{Name: "reply.golden", Data: []byte(reply)})
	}
	if err := os.WriteFile(c.file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameText compares golden text, ignoring the final newline txtar adds.
func sameText(a, b string) bool {
	return strings.TrimSuffix(a, "\n") == strings.TrimSuffix(b, "\n")
}
