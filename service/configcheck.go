package service

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// checkConfigNode walks a parsed config file against the Config type and
// reports the first key that does not exist (with its line and the
// nearest valid key) or duration written without a unit, in words an
// admin can act on, before the strict decoder would report the same thing
// as a Go type.
func checkConfigNode(doc *yaml.Node) error {
	if doc == nil || len(doc.Content) == 0 {
		return nil
	}
	return checkNode(doc.Content[0], reflect.TypeOf(Config{}), "")
}

var durationType = reflect.TypeOf(Duration(0))

func checkNode(n *yaml.Node, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == durationType {
		if n.Kind != yaml.ScalarNode {
			return fmt.Errorf("config line %d: %s: want a duration such as 30s, 5m or 2h", n.Line, path)
		}
		if _, err := time.ParseDuration(n.Value); err != nil {
			return fmt.Errorf("config line %d: %s: %q is not a duration; write it with a unit, e.g. %ss", n.Line, path, n.Value, n.Value)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("config line %d: %s: want a mapping of keys", n.Line, nameOr(path))
		}
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			f, ok := fields[key.Value]
			if !ok {
				names := make([]string, 0, len(fields))
				for k := range fields {
					names = append(names, k)
				}
				hint := ""
				if near := nearest(key.Value, names); near != "" {
					hint = fmt.Sprintf(" (did you mean %s?)", join(path, near))
				}
				return fmt.Errorf("config line %d: unknown key %s%s", key.Line, join(path, key.Value), hint)
			}
			if err := checkNode(val, f.Type, join(path, key.Value)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for _, item := range n.Content {
				if err := checkNode(item, t.Elem(), path+"[]"); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if err := checkNode(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// yamlFields maps a struct's yaml keys to its fields.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func nameOr(path string) string {
	if path == "" {
		return "the file"
	}
	return path
}

// nearest returns the candidate closest to s by edit distance, if it is
// close enough to be a typo (at most a third of the word).
func nearest(s string, candidates []string) string {
	best, bestD := "", len(s)/3+1
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD > len(s)/3+1 || best == "" {
		return ""
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
