package knowledge

import "fmt"

// Extract reads the facts out of a post. It always returns the facts it
// found; the error is non-nil (wrapping ErrTruncated) only when the post was
// cut to MaxPostBytes, in which case the facts are partial.
func Extract(p Post, s *Schema) (Facts, error) {
	doc, truncated := readPost(p)
	f := Facts{}
	f.Commands = extractCommands(doc, s)
	f.Errors = extractErrors(doc)
	f.Versions = extractVersions(doc, f.Commands)
	f.Platform = extractPlatform(doc, f.Versions)
	f.GPUs = extractGPUs(doc, f.Errors)
	f.Models = extractModels(doc, f.Commands, s)
	lines := doc.lines()
	f.OS = firstMatch(osRE, lines)
	f.Python = firstMatch(pythonVerRE, lines)
	if f.Python == "" {
		f.Python = f.Versions["python"]
	}
	f.Env = extractEnv(doc, f.Commands)
	f.Intent = extractIntent(doc)
	if f.Commands == nil {
		f.Commands = []Command{}
	}
	if f.Errors == nil {
		f.Errors = []ErrorInfo{}
	}
	if f.GPUs == nil {
		f.GPUs = []GPU{}
	}
	if f.Models == nil {
		f.Models = []string{}
	}
	if truncated {
		f.Truncated = true
		return f, fmt.Errorf("%w: read the first and last parts of %d bytes", ErrTruncated, len(p.Body))
	}
	return f, nil
}
