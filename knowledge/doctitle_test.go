package knowledge

import "testing"

// TestDocTitle: a docs page's title is its front matter's, else its
// first level-one heading outside code, else none (the importer then
// uses the page's address).
func TestDocTitle(t *testing.T) {
	tests := []struct{ name, md, want string }{
		{"front matter", "---\ntitle: Speculative Decoding\n---\n[](){ #spec-decode }\n\n```python\n# Modify OpenAI's API key and API base to use vLLM's API server.\n```\n", "Speculative Decoding"},
		{"quoted front matter", "---\ntitle: \"Using Kubernetes\"\nhide: [toc]\n---\n# Not this\n", "Using Kubernetes"},
		{"comment in a fence is code", "Intro.\n\n```yaml\n# vLLM needs the host's shared memory\nkind: Pod\n```\n\n# Deploying with Kubernetes\n", "Deploying with Kubernetes"},
		{"setext heading", "Troubleshooting\n===============\n\nText.\n", "Troubleshooting"},
		{"heading markup", "# The `vllm serve` *command*\n", "The vllm serve command"},
		{"front matter without a title", "---\nhide: [toc]\n---\n# Quickstart\n", "Quickstart"},
		{"level two only", "## Section\ntext\n", ""},
		{"none", "Just text.\n", ""},
	}
	for _, tt := range tests {
		if got := docTitle(tt.md); got != tt.want {
			t.Errorf("%s: docTitle = %q, want %q", tt.name, got, tt.want)
		}
	}
	if e := DocEntry("https://x/a/", "https://x/a/", "no heading\n"); e.Title != "https://x/a/" {
		t.Errorf("DocEntry without a title: %q, want the address", e.Title)
	}
}
