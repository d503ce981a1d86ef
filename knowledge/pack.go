package knowledge

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Pack is a YAML file of knowledge entries plus the schemas of the
// programs its posts run. The README documents the format; packs/vllm.yaml
// is the reference example.
type Pack struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Programs    []Program `yaml:"programs"`
	Topics      []Topic   `yaml:"topics"`
	// Vocabulary names the pack's hardware and model words.
	Vocabulary Vocabulary `yaml:"vocabulary"`
	Entries    []Entry    `yaml:"entries"`
}

//go:embed packs/*.yaml
var builtinPacks embed.FS

// BuiltinPacks lists the names of the packs embedded in the binary.
func BuiltinPacks() []string {
	ents, _ := builtinPacks.ReadDir("packs")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	return names
}

// ErrUnknownPack is returned for a builtin pack name that is not embedded.
var ErrUnknownPack = errors.New("knowledge: unknown builtin pack")

// BuiltinPack parses an embedded pack by name ("vllm").
func BuiltinPack(name string) (*Pack, error) {
	data, err := builtinPacks.ReadFile("packs/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("%w %q (have %s)", ErrUnknownPack, name, strings.Join(BuiltinPacks(), ", "))
	}
	return ParsePack(bytes.NewReader(data))
}

// ParsePack reads and validates a YAML pack. Unknown keys are errors, so a
// typo in a hand-written pack is caught at import rather than ignored.
func ParsePack(r io.Reader) (*Pack, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var p Pack
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("knowledge: parse pack: %w", err)
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	for i := range p.Entries {
		e := &p.Entries[i]
		e.Source = "pack:" + p.Name
		if e.Prior == 0 {
			e.Prior = 1
		}
		for j, f := range e.Flags {
			if strings.HasPrefix(f, "--") {
				name, val, ok := strings.Cut(f, " ")
				e.Flags[j] = normFlag(name)
				if ok {
					e.Flags[j] += " " + val
				}
			}
		}
	}
	return &p, nil
}

// PackError reports a problem with one entry of a pack.
type PackError struct {
	Pack  string
	Entry string // entry id, or "" for the pack itself
	Field string
	Err   error
}

func (e *PackError) Error() string {
	if e.Entry == "" {
		return fmt.Sprintf("knowledge: pack %q: %s: %v", e.Pack, e.Field, e.Err)
	}
	return fmt.Sprintf("knowledge: pack %q: entry %q: %s: %v", e.Pack, e.Entry, e.Field, e.Err)
}

func (e *PackError) Unwrap() error { return e.Err }

var (
	errRequired = errors.New("required")
	errInvalid  = errors.New("invalid")
)

func (p *Pack) validate() error {
	if p.Name == "" {
		return &PackError{Field: "name", Err: errRequired}
	}
	if _, err := p.Vocabulary.Logs.compile(); err != nil {
		return &PackError{Pack: p.Name, Field: "vocabulary", Err: fmt.Errorf("%w: %v", errInvalid, err)}
	}
	if err := p.validateTopics(); err != nil {
		return err
	}
	for _, prog := range p.Programs {
		for k, sub := range prog.Tools {
			if len(strings.Fields(k)) != 2 || strings.HasPrefix(k, "-") || len(prog.Subcommands) > 0 && !slices.Contains(prog.Subcommands, sub) {
				return &PackError{Pack: p.Name, Field: "programs.tools", Err: fmt.Errorf("%w: %s's tool %q: want \"program subcommand\" running one of %v", errInvalid, prog.Name, k, prog.Subcommands)}
			}
		}
		if prog.ConfigFlag != "" && !strings.HasPrefix(prog.ConfigFlag, "-") {
			return &PackError{Pack: p.Name, Field: "programs.config_flag", Err: fmt.Errorf("%w: %s's config_flag %q is no flag", errInvalid, prog.Name, prog.ConfigFlag)}
		}
		for _, h := range prog.Harnesses {
			k, v := h.selector() // no "=" leaves v empty
			if len(h.Programs) == 0 || !strings.HasPrefix(k, "-") || v == "" || !strings.HasPrefix(h.Args, "-") {
				return &PackError{Pack: p.Name, Field: "programs.harnesses", Err: fmt.Errorf("%w: %s's harness %v needs programs, select (--flag=value) and args (--flag)", errInvalid, prog.Name, h.Programs)}
			}
		}
		for _, c := range prog.Charts {
			if !yamlKeyNameRE.MatchString(c.ModelKey) || len(c.Flags) == 0 || c.Args != "" && !yamlKeyNameRE.MatchString(c.Args) {
				return &PackError{Pack: p.Name, Field: "programs.charts", Err: fmt.Errorf("%w: %s's chart needs a model_key, flags (key: --flag) and, if any, an args key, each a YAML key", errInvalid, prog.Name)}
			}
			for k, fl := range c.Flags {
				if !yamlKeyNameRE.MatchString(k) || !strings.HasPrefix(fl, "--") {
					return &PackError{Pack: p.Name, Field: "programs.charts", Err: fmt.Errorf("%w: %s's chart maps %q to %q; want a YAML key and a --flag", errInvalid, prog.Name, k, fl)}
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, e := range p.Entries {
		fail := func(field string, err error) error {
			return &PackError{Pack: p.Name, Entry: e.ID, Field: field, Err: err}
		}
		if e.ID == "" {
			return fail("id", errRequired)
		}
		if seen[e.ID] {
			return fail("id", fmt.Errorf("%w: duplicate (of an id or an alias)", errInvalid))
		}
		seen[e.ID] = true
		switch e.Kind {
		case KindIssue, KindDocs, KindTopic, KindRule:
		default:
			return fail("kind", fmt.Errorf("%w: %q (want issue, docs, topic or rule)", errInvalid, e.Kind))
		}
		if e.Title == "" {
			return fail("title", errRequired)
		}
		if err := checkURL(e.URL); err != nil {
			return fail("url", err)
		}
		for _, a := range e.Aliases {
			if err := checkURL(a); err != nil {
				return fail("aliases", err)
			}
			if a == e.ID || a == e.URL || seen[a] {
				return fail("aliases", fmt.Errorf("%w: %q names an entry already", errInvalid, a))
			}
			seen[a] = true
		}
		if e.Affected != "" {
			if _, err := ParseRange(e.Affected); err != nil {
				return fail("affected", err)
			}
		}
		if e.Fixed != "" {
			if _, err := ParseVersion(e.Fixed); err != nil {
				return fail("fixed", err)
			}
		}
		for _, a := range e.Advice {
			if cond, _ := splitAdviceCondition(strings.TrimSpace(a)); cond != "" {
				if err := checkAdviceCondition(cond, p.Vocabulary.Package.Name); err != nil {
					return fail("advice", err)
				}
			}
		}
	}
	return nil
}

// validateTopics checks that every topic rule has a tag and that the tags
// its Unless names are given by rules without one: an Unless is read
// after the rules it asks about.
func (p *Pack) validateTopics() error {
	plain := map[string]bool{}
	for _, t := range p.Topics {
		if t.Tag == "" {
			return &PackError{Pack: p.Name, Field: "topics", Err: fmt.Errorf("%w: a rule's tag", errRequired)}
		}
		if len(t.Unless) == 0 {
			plain[t.Tag] = true
		}
	}
	for _, t := range p.Topics {
		for _, u := range t.Unless {
			if !plain[u] {
				return &PackError{Pack: p.Name, Field: "topics", Err: fmt.Errorf("%w: %s: unless %q names no tag of a rule without unless", errInvalid, t.Tag, u)}
			}
		}
	}
	return nil
}

// checkURL accepts only absolute http(s) URLs: a reply links nothing else.
func checkURL(s string) error {
	if s == "" {
		return errRequired
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%w: %v", errInvalid, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%w: %q is not an absolute http(s) URL", errInvalid, s)
	}
	return nil
}

// Schema returns the pack's program schemas, topic rules, vocabulary and
// the error templates of its entries' symptoms, prepared.
func (p *Pack) Schema() *Schema {
	s := &Schema{
		Programs:   p.Programs,
		Topics:     p.Topics,
		Templates:  templatesFromEntries(p.Entries),
		Vocabulary: p.Vocabulary,
	}
	return s.Prepare()
}

// CombineSchemas merges schemas: a later program of the same name replaces
// an earlier one; topic rules, templates and vocabulary are unioned. The
// result is prepared.
func CombineSchemas(schemas ...*Schema) *Schema {
	s := &Schema{}
	for _, o := range schemas {
		s.Topics = append(s.Topics, o.Topics...)
		s.Templates = append(s.Templates, o.Templates...)
		for _, prog := range o.Programs {
			replaced := false
			for i := range s.Programs {
				if s.Programs[i].Name == prog.Name {
					s.Programs[i] = prog
					replaced = true
				}
			}
			if !replaced {
				s.Programs = append(s.Programs, prog)
			}
		}
		v := &s.Vocabulary
		v.DeviceWords = appendUnique(v.DeviceWords, o.Vocabulary.DeviceWords...)
		v.ModelFamilies = appendUnique(v.ModelFamilies, o.Vocabulary.ModelFamilies...)
		v.ModelVariants.AnyCase = appendUnique(v.ModelVariants.AnyCase, o.Vocabulary.ModelVariants.AnyCase...)
		v.ModelVariants.Capitalised = appendUnique(v.ModelVariants.Capitalised, o.Vocabulary.ModelVariants.Capitalised...)
		v.Packages = appendUnique(v.Packages, o.Vocabulary.Packages...)
		v.Orgs = appendUnique(v.Orgs, o.Vocabulary.Orgs...)
		v.OtherEngines = appendUnique(v.OtherEngines, o.Vocabulary.OtherEngines...)
		for plat, words := range o.Vocabulary.Hardware {
			if v.Hardware == nil {
				v.Hardware = map[string][]string{}
			}
			v.Hardware[plat] = appendUnique(v.Hardware[plat], words...)
		}
		for plat, markers := range o.Vocabulary.PlatformMarkers {
			if v.PlatformMarkers == nil {
				v.PlatformMarkers = map[string][]string{}
			}
			v.PlatformMarkers[plat] = appendUnique(v.PlatformMarkers[plat], markers...)
		}
		for plat, labels := range o.Vocabulary.LabelPlatforms {
			if v.LabelPlatforms == nil {
				v.LabelPlatforms = map[string][]string{}
			}
			v.LabelPlatforms[plat] = appendUnique(v.LabelPlatforms[plat], labels...)
		}
		if v.Package.Name == "" {
			v.Package, v.Logs = o.Vocabulary.Package, o.Vocabulary.Logs
		}
	}
	return s.Prepare()
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
