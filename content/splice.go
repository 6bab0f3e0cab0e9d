package content

import (
	"bytes"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// spliceFront writes a changed page's frontmatter by replacing only the
// lines of the top-level keys whose values changed, appending new keys at
// its end. Every other line stays as the person wrote it: comments, flow
// lists, quoting, a bare date. So a lint marking a page stale shows in a
// diff as the one line it added, not as the whole frontmatter re-encoded.
// ok is false when the frontmatter cannot be spliced safely (a flow
// mapping, CRLF line ends, a result that does not read back as p.Meta);
// Bytes then encodes it whole.
func (p *Page) spliceFront(fresh *yaml.Node) (out []byte, ok bool) {
	orig := p.node
	if orig == nil || orig.Style&yaml.FlowStyle != 0 || bytes.IndexByte(p.head, '\r') >= 0 {
		return nil, false
	}
	lines := strings.SplitAfter(string(p.head), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	closing := len(lines) - 1 // lines[0] is the opening fence; YAML line n is lines[n]
	if closing < 1 {
		return nil, false
	}
	t := reflect.TypeOf(Meta{})
	known := knownKeys(t)
	freshVals := map[string]*yaml.Node{}
	for i := 0; i+1 < len(fresh.Content); i += 2 {
		freshVals[fresh.Content[i].Value] = fresh.Content[i+1]
	}
	var b strings.Builder
	b.WriteString(lines[0])
	seen := map[string]bool{}
	for i := 0; i+1 < len(orig.Content); i += 2 {
		k, v := orig.Content[i], orig.Content[i+1]
		seen[k.Value] = true
		start, end := k.Line, closing
		if i+2 < len(orig.Content) {
			end = orig.Content[i+2].Line
		}
		if k.Column != 1 || start < 1 || start >= end || end > closing {
			return nil, false
		}
		if i == 0 {
			b.WriteString(strings.Join(lines[1:start], "")) // comments above the first key
		}
		for end-1 > start && isCommentOrBlank(lines[end-1]) {
			end-- // comments above the next key stay with it
		}
		if !known[k.Value] || sameField(p.parsed, p.Meta, k.Value) {
			b.WriteString(strings.Join(lines[start:end], ""))
		} else if nv, ok := freshVals[k.Value]; ok {
			if st, isStruct := fieldType(t, k.Value); isStruct && v.Kind == yaml.MappingNode && nv.Kind == yaml.MappingNode {
				nv = mergeMapping(v, nv, st)
			}
			text, err := encodeKey(k.Value, nv)
			if err != nil {
				return nil, false
			}
			b.WriteString(text)
		}
		next := closing
		if i+2 < len(orig.Content) {
			next = orig.Content[i+2].Line
		}
		b.WriteString(strings.Join(lines[end:next], ""))
	}
	if len(orig.Content) == 0 {
		b.WriteString(strings.Join(lines[1:closing], ""))
	}
	for i := 0; i+1 < len(fresh.Content); i += 2 {
		if k := fresh.Content[i].Value; !seen[k] {
			text, err := encodeKey(k, fresh.Content[i+1])
			if err != nil {
				return nil, false
			}
			b.WriteString(text)
		}
	}
	b.WriteString(lines[closing])
	out = append([]byte(b.String()), p.Body...)
	back, err := Parse("", out)
	if err != nil || !reflect.DeepEqual(back.Meta, p.Meta) {
		return nil, false
	}
	return out, true
}

// isCommentOrBlank reports a blank line or a comment at the top level
// (an indented "#" may be a line of a block scalar).
func isCommentOrBlank(line string) bool {
	return strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#")
}

// sameField reports whether the Meta field behind a YAML key holds the same
// value in a and b.
func sameField(a, b Meta, key string) bool {
	t := reflect.TypeOf(a)
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name == key {
			return reflect.DeepEqual(reflect.ValueOf(a).Field(i).Interface(), reflect.ValueOf(b).Field(i).Interface())
		}
	}
	return false
}

// encodeKey renders one top-level key and its value as pt writes them.
func encodeKey(key string, v *yaml.Node) (string, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v}}
	out, err := yaml.Marshal(m)
	return string(out), err
}
