package knowledge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

func TestDbg(t *testing.T) {
	p, _ := BuiltinPack("vllm")
	s := p.Schema()
	fh, _ := os.Open("../../shared/bench/vllm-dev/cases.jsonl")
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var c struct {
			ID          string `json:"case_id"`
			Title, Body string
		}
		json.Unmarshal(sc.Bytes(), &c)
		if c.ID != os.Getenv("CASE") {
			continue
		}
		doc, _ := readPost(Post{Title: c.Title, Body: c.Body})
		fmt.Printf("prose=%q\ncode=%d\n", doc.prose, len(doc.code))
		f, _ := Extract(Post{Title: c.Title, Body: c.Body}, s)
		fmt.Println(f.Models)
	}
}
