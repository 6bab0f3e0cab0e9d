package content

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// knownKeys lists the YAML keys of a struct type, so that a rewrite can tell a
// key pt cleared (drop it) from a key pt never knew (keep it).
func knownKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

// fieldType returns the struct type behind a YAML key of t, if it is a struct
// pt knows (so nested mappings merge too).
func fieldType(t reflect.Type, key string) (reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == key && f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == t.PkgPath() {
			return f.Type, true
		}
	}
	return nil, false
}

// mergeMapping writes fresh's values over orig's, in orig's key order: known
// keys take fresh's value or disappear when fresh lacks them; unknown keys
// stay; keys new in fresh are appended in schema order.
func mergeMapping(orig, fresh *yaml.Node, t reflect.Type) *yaml.Node {
	known := knownKeys(t)
	freshVals := map[string]*yaml.Node{}
	for i := 0; i+1 < len(fresh.Content); i += 2 {
		freshVals[fresh.Content[i].Value] = fresh.Content[i+1]
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: orig.Style}
	used := map[string]bool{}
	for i := 0; i+1 < len(orig.Content); i += 2 {
		k, v := orig.Content[i], orig.Content[i+1]
		if !known[k.Value] {
			out.Content = append(out.Content, k, v)
			continue
		}
		nv, ok := freshVals[k.Value]
		if !ok {
			continue
		}
		used[k.Value] = true
		if st, isStruct := fieldType(t, k.Value); isStruct && v.Kind == yaml.MappingNode && nv.Kind == yaml.MappingNode {
			nv = mergeMapping(v, nv, st)
		}
		out.Content = append(out.Content, k, nv)
	}
	for i := 0; i+1 < len(fresh.Content); i += 2 {
		if k := fresh.Content[i].Value; !used[k] {
			out.Content = append(out.Content, fresh.Content[i], fresh.Content[i+1])
		}
	}
	return out
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

// yamlErrLine turns yaml.v3's "line N" (counted within the frontmatter) into
// a line of the file, where the frontmatter starts on line 2.
func yamlErrLine(err error) int {
	m := yamlLineRe().FindStringSubmatch(err.Error())
	if m == nil {
		return 1
	}
	n, _ := strconv.Atoi(m[1])
	return n + 1
}

var yamlLeadLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(\s*)line \d+: `) })

// cleanYAMLErr makes yaml.v3's message one line without its leading
// "line N:" (the finding carries the line); a line named inside the
// sentence ("already defined at line 2") is turned into the file's line.
func cleanYAMLErr(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	s = strings.ReplaceAll(s, "unmarshal errors:\n  ", "")
	s = yamlLeadLineRe().ReplaceAllString(s, "$1")
	s = yamlLineRe().ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(m, "line "))
		return "line " + strconv.Itoa(n+1)
	})
	s = strings.ReplaceAll(s, "  ", " ")
	s = strings.ReplaceAll(s, "\n", "; ")
	return strings.TrimSpace(strings.Trim(s, ": "))
}

// bareExpires writes a date-valued `expires` as a bare YAML date
// (`expires: 2027-01-31`), as people write it, rather than the quoted
// string yaml.v3 makes of a string field that looks like a timestamp. It
// reads back as the same string.
func bareExpires(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if v := m.Content[i+1]; m.Content[i].Value == "expires" && v.Kind == yaml.ScalarNode && bareDate(v.Value) {
			v.Tag, v.Style = "!!timestamp", 0
		}
	}
}

// bareDate reports whether bareExpires writes an `expires` of this value
// bare.
func bareDate(expires string) bool {
	_, ok := (Meta{Expires: expires}).ExpiresAt()
	return ok && !strings.ContainsAny(expires, " #")
}
