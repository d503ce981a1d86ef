package knowledge

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed release number. Local suffixes (+rocm725, +cu121) are
// kept in Local and ignored in comparisons; pre-releases (rc, dev) sort
// before their release.
type Version struct {
	Parts []int
	Pre   bool
	Local string
	raw   string
}

// ParseVersion parses versions such as 0.24.0+rocm725, v0.8.3,
// 0.6.3.post1 and 0.8.0rc3.dev31+g61f41218.
func ParseVersion(s string) (Version, error) {
	v := Version{raw: s}
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '.' || r == '+' || r == '-' || r == '_')
	}); i >= 0 {
		return v, fmt.Errorf("knowledge: version %q has an invalid character", v.raw)
	}
	s, v.Local, _ = strings.Cut(s, "+")
	if s == "" {
		return v, fmt.Errorf("knowledge: empty version")
	}
	for _, field := range strings.Split(s, ".") {
		digits := field
		for i, r := range field {
			if r < '0' || r > '9' {
				digits = field[:i]
				rest := field[i:]
				if strings.HasPrefix(rest, "rc") || strings.HasPrefix(rest, "dev") || strings.HasPrefix(rest, "a") || strings.HasPrefix(rest, "b") {
					v.Pre = true
				}
				break
			}
		}
		if digits == "" {
			if strings.HasPrefix(field, "dev") || strings.HasPrefix(field, "rc") {
				v.Pre = true
			}
			break
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return v, fmt.Errorf("knowledge: version %q: %w", v.raw, err)
		}
		v.Parts = append(v.Parts, n)
		if digits != field {
			break
		}
	}
	if len(v.Parts) == 0 {
		return v, fmt.Errorf("knowledge: version %q has no number", v.raw)
	}
	return v, nil
}

func (v Version) String() string { return v.raw }

// Compare returns -1, 0 or +1.
func (v Version) Compare(o Version) int {
	for i := 0; i < max(len(v.Parts), len(o.Parts)); i++ {
		a, b := 0, 0
		if i < len(v.Parts) {
			a = v.Parts[i]
		}
		if i < len(o.Parts) {
			b = o.Parts[i]
		}
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	switch {
	case v.Pre && !o.Pre:
		return -1
	case !v.Pre && o.Pre:
		return 1
	}
	return 0
}

// VersionRange is a conjunction of constraints such as ">=0.8.0, <0.29.0".
// The empty range contains every version.
type VersionRange struct {
	cons []constraint
	raw  string
}

type constraint struct {
	op string
	v  Version
}

// ParseRange parses a comma- or space-separated list of constraints with
// the operators >=, >, <=, <, ==.
func ParseRange(s string) (VersionRange, error) {
	r := VersionRange{raw: strings.TrimSpace(s)}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		op := ""
		for _, cand := range []string{">=", "<=", "==", ">", "<"} {
			if strings.HasPrefix(f, cand) {
				op = cand
				break
			}
		}
		if op == "" {
			op = "=="
		}
		v, err := ParseVersion(strings.TrimPrefix(f, op))
		if err != nil {
			return r, fmt.Errorf("knowledge: range %q: %w", s, err)
		}
		r.cons = append(r.cons, constraint{op, v})
	}
	return r, nil
}

// Empty reports whether the range has no constraints.
func (r VersionRange) Empty() bool { return len(r.cons) == 0 }

func (r VersionRange) String() string { return r.raw }

// Contains reports whether v satisfies every constraint.
func (r VersionRange) Contains(v Version) bool {
	for _, c := range r.cons {
		cmp := v.Compare(c.v)
		ok := false
		switch c.op {
		case ">=":
			ok = cmp >= 0
		case ">":
			ok = cmp > 0
		case "<=":
			ok = cmp <= 0
		case "<":
			ok = cmp < 0
		case "==":
			ok = cmp == 0 || prefixEqual(c.v, v)
		}
		if !ok {
			return false
		}
	}
	return true
}

// prefixEqual lets "==0.6" match 0.6.3.
func prefixEqual(pattern, v Version) bool {
	if len(pattern.Parts) > len(v.Parts) {
		return false
	}
	for i, p := range pattern.Parts {
		if v.Parts[i] != p {
			return false
		}
	}
	return true
}
